import type { SequenceShotView } from '../../../../shared/bridge/contract';

/**
 * The trim strip's frame arithmetic (issue 31). A range is `[inFrame, outFrame)`: `inFrame` the
 * first frame kept, `outFrame` the first one cut, so at least one frame is always kept. The core
 * snaps and checks again; these keep the strip from offering a range it would refuse.
 */
export interface FrameRange {
  inFrame: number;
  outFrame: number;
}

/** A shot's current range: its trim, else the whole result. */
export function initialRange(shot: Pick<SequenceShotView, 'trim' | 'frameCount'>): FrameRange {
  if (shot.trim) return { inFrame: shot.trim.inFrame, outFrame: shot.trim.outFrame };
  return { inFrame: 0, outFrame: shot.frameCount ?? 1 };
}

const clamp = (n: number, low: number, high: number) => Math.min(high, Math.max(low, Math.round(n)));

/** The in point moved to `frame`: never past the last kept frame. */
export function withIn(range: FrameRange, frame: number): FrameRange {
  return { ...range, inFrame: clamp(frame, 0, range.outFrame - 1) };
}

/** The out point moved to `frame`: never before one frame after the in point, never past the end. */
export function withOut(range: FrameRange, frame: number, frameCount: number): FrameRange {
  return { ...range, outFrame: clamp(frame, range.inFrame + 1, frameCount) };
}

/** The frame boundary nearest a fraction of the strip's width (0 = start, frameCount = end). */
export function boundaryAt(fraction: number, frameCount: number): number {
  if (!Number.isFinite(fraction)) return 0;
  return clamp(fraction * frameCount, 0, frameCount);
}

/**
 * The strip's keys: I sets the in point at the playhead, O the out point after the playhead's frame
 * (that frame is the last one kept), ←/→ move the playhead by one frame. Undefined: not a trim key.
 */
export function trimKey(
  key: string,
  state: { range: FrameRange; playhead: number; frameCount: number },
): { range: FrameRange; playhead: number } | undefined {
  const { range, playhead, frameCount } = state;
  switch (key) {
    case 'i':
    case 'I': {
      // the out point moves along when the playhead is at or past it
      const inFrame = clamp(playhead, 0, frameCount - 1);
      return { range: { inFrame, outFrame: Math.max(range.outFrame, inFrame + 1) }, playhead };
    }
    case 'o':
    case 'O': {
      // the in point moves along when the playhead is before it
      const outFrame = clamp(playhead + 1, 1, frameCount);
      return { range: { inFrame: Math.min(range.inFrame, outFrame - 1), outFrame }, playhead };
    }
    case 'ArrowLeft':
      return { range, playhead: clamp(playhead - 1, 0, frameCount - 1) };
    case 'ArrowRight':
      return { range, playhead: clamp(playhead + 1, 0, frameCount - 1) };
    default:
      return undefined;
  }
}

/** Seconds of a frame index at `fps` frames per second, to the microsecond. */
export const secondsOfFrame = (frame: number, fps: number) => Math.round((frame / fps) * 1e6) / 1e6;

/** What Save sends: the range in seconds (the core snaps them back to these very frames). */
export function rangeSeconds(range: FrameRange, fps: number): { inSeconds: number; outSeconds: number } {
  return { inSeconds: secondsOfFrame(range.inFrame, fps), outSeconds: secondsOfFrame(range.outFrame, fps) };
}
