/**
 * Frame arithmetic of the compare view: the frame rate of a result (its effective spec's `fps`,
 * 24 when the job did not say), the time one frame earlier or later, and how a time is shown.
 */

/** H3 renders 24 fps; a result whose effective spec names no fps is stepped at this rate. */
export const DEFAULT_FPS = 24;

export function fpsOf(effectiveSpec: unknown): number {
  const fps =
    effectiveSpec && typeof effectiveSpec === 'object' ? (effectiveSpec as { fps?: unknown }).fps : undefined;
  return typeof fps === 'number' && Number.isFinite(fps) && fps > 0 ? fps : DEFAULT_FPS;
}

/** The frame shown at `seconds` (frame 0 starts at 0 s). */
export function frameAt(seconds: number, fps: number): number {
  // a time set to k/fps reads back a hair below it (Chromium keeps microseconds: 1/24 → 0.041666):
  // within a thousandth of a frame counts as frame k
  return Math.max(0, Math.floor(seconds * fps + 1e-3));
}

/**
 * The start of the frame `delta` frames from the one shown at `seconds`, clamped to the media
 * (a step past the end stays on the last frame).
 */
export function stepFrame(seconds: number, fps: number, delta: number, duration: number): number {
  const last =
    Number.isFinite(duration) && duration > 0 ? Math.max(0, Math.ceil(duration * fps) - 1) : Infinity;
  const frame = Math.min(last, Math.max(0, frameAt(seconds, fps) + delta));
  return frame / fps;
}

/** "0:01.042" */
export function formatClock(seconds: number): string {
  const s = Math.max(0, Number.isFinite(seconds) ? seconds : 0);
  const minutes = Math.floor(s / 60);
  const rest = s - minutes * 60;
  return `${minutes}:${rest.toFixed(3).padStart(6, '0')}`;
}
