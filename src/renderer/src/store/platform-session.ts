import { useSyncExternalStore } from 'react';
import { onPlatformSessionOver, platformSessionIsOver } from '../bridge/platform-session';

/** True once the platform host said this person must reopen Framewright from the application center. */
export function usePlatformSessionOver(): boolean {
  return useSyncExternalStore(onPlatformSessionOver, platformSessionIsOver);
}
