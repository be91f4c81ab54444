/**
 * J/K/L shuttle (issue 40), as in every editor: L plays forwards, J backwards, K stops; L again
 * while going forwards (J again while going backwards) doubles the speed up to
 * {@link SHUTTLE_MAX}×; the other direction's key starts that direction at 1×. A rate is signed
 * (negative: backwards; 0: stopped).
 *
 * The cut player moves the playhead at the rate on its clock ({@link shuttleTime}): at 1× forwards
 * it plays the cut with its sound; faster or backwards the picture follows without sound (a browser
 * cannot play a video backwards: each animation frame seeks to the time and shows the frame once
 * decoded). Backwards stops at the film's start, forwards at its end.
 */

/** The fastest shuttle, either way (1×, 2×, 4×, 8×). */
export const SHUTTLE_MAX = 8;

export type ShuttleKey = 'j' | 'k' | 'l';

/** The rate after pressing `key` at `rate`. */
export function shuttleRate(rate: number, key: ShuttleKey): number {
  if (key === 'k') return 0;
  const direction = key === 'l' ? 1 : -1;
  if (Math.sign(rate) !== direction) return direction;
  return direction * Math.min(SHUTTLE_MAX, Math.abs(rate) * 2);
}

/**
 * Where the playhead is `elapsed` seconds (of the clock) after leaving `from` at `rate`, held within
 * the film: `ended` once it reaches the start going backwards or the end going forwards.
 */
export function shuttleTime(
  from: number,
  rate: number,
  elapsed: number,
  totalSeconds: number,
): { seconds: number; ended: boolean } {
  const at = from + rate * Math.max(0, elapsed);
  if (rate < 0 && at <= 0) return { seconds: 0, ended: true };
  if (rate > 0 && at >= totalSeconds) return { seconds: totalSeconds, ended: true };
  return { seconds: Math.min(Math.max(0, at), totalSeconds), ended: false };
}

/** Where playing at `rate` starts from `from`: forwards from the last frame starts again at 0; backwards from 0 has nowhere to go (null). */
export function shuttleStart(from: number, rate: number, totalSeconds: number, fps: number): number | null {
  const at = Math.min(Math.max(0, from), totalSeconds);
  if (rate > 0) return at >= totalSeconds - 1 / fps ? 0 : at;
  if (rate < 0) return at <= 0 ? null : at;
  return at;
}
