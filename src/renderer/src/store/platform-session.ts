import { useSyncExternalStore } from 'react';
import {
  answerPlatformQuestion,
  onPlatformQuestion,
  onPlatformSessionOver,
  platformQuestion,
  platformSessionIsOver,
  type PlatformQuestion,
} from '../bridge/platform-session';

export { answerPlatformQuestion, type PlatformQuestion };

/** While a launch link waits for the person's word: what the page asks (a switch, or a first sign-in). */
export function usePlatformQuestion(): PlatformQuestion | null {
  return useSyncExternalStore(onPlatformQuestion, platformQuestion);
}

/** True once the platform host said this person must reopen Framewright from the application center. */
export function usePlatformSessionOver(): boolean {
  return useSyncExternalStore(onPlatformSessionOver, platformSessionIsOver);
}
