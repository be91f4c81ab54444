import { useSyncExternalStore } from 'react';
import {
  answerPlatformSwitch,
  onPlatformSessionOver,
  onPlatformSwitchQuestion,
  platformSessionIsOver,
  platformSwitchQuestion,
} from '../bridge/platform-session';
import type { PlatformSignedInView } from '../../../shared/bridge/platform-host-protocol';

export { answerPlatformSwitch };

/** While a launch link waits for the person's word: who is signed in in this browser now. */
export function usePlatformSwitchQuestion(): PlatformSignedInView | null {
  return useSyncExternalStore(onPlatformSwitchQuestion, platformSwitchQuestion);
}

/** True once the platform host said this person must reopen Framewright from the application center. */
export function usePlatformSessionOver(): boolean {
  return useSyncExternalStore(onPlatformSessionOver, platformSessionIsOver);
}
