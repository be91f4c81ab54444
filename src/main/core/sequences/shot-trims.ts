import { AppError } from '../errors.js';
import type { ShotTrimRecord } from '../journal/sequences-repository.js';

/**
 * Trim (issue 31): a shot's in and out points, snapped to the frames of its result and checked
 * against what was measured. Frames are counted from 0; `inFrame` is the first frame kept and
 * `outFrame` the first one cut, so the kept range is `[inFrame, outFrame)` and lasts
 * `outFrame − inFrame` frames. The result's file is never changed: the assembly cuts it with
 * ffmpeg's `trim`/`atrim`, and continue/bridge decode the kept range's last/first frame.
 */

/** What a trim is checked against: the result's frame rate (a rational) and its number of frames. */
export interface ResultFrames {
  fpsNum: number;
  fpsDen: number;
  frameCount: number;
}

export interface FrameRange {
  inFrame: number;
  outFrame: number;
}

/** A frame index as seconds at `num/den` frames per second. */
export const frameSeconds = (frame: number, fps: { fpsNum: number; fpsDen: number }) =>
  (frame * fps.fpsDen) / fps.fpsNum;

const shown = (seconds: number) => `${Number(seconds.toFixed(3))} s`;

/**
 * The frames of a range given in seconds, each point snapped to the nearest frame boundary; a
 * clear `sequence.invalid_trim` for a range that cannot be kept (`label` names the shot).
 */
export function snapTrim(
  range: { inSeconds: number; outSeconds: number },
  result: ResultFrames,
  label: string,
): FrameRange {
  const { inSeconds, outSeconds } = range;
  const length = frameSeconds(result.frameCount, result);
  const frame = frameSeconds(1, result);
  if (!Number.isFinite(inSeconds) || !Number.isFinite(outSeconds))
    throw new AppError('sequence.invalid_trim', 'The in and out points are numbers of seconds.');
  if (inSeconds < 0)
    throw new AppError('sequence.invalid_trim', `The in point is at 0 s or later (got ${shown(inSeconds)}).`);
  if (inSeconds >= outSeconds)
    throw new AppError(
      'sequence.invalid_trim',
      `The in point (${shown(inSeconds)}) must come before the out point (${shown(outSeconds)}).`,
    );
  const inFrame = Math.round((inSeconds * result.fpsNum) / result.fpsDen);
  const outFrame = Math.round((outSeconds * result.fpsNum) / result.fpsDen);
  if (outFrame > result.frameCount)
    throw new AppError(
      'sequence.invalid_trim',
      `The out point (${shown(outSeconds)}) is past the end of ${label} (${shown(length)}).`,
    );
  if (outFrame - inFrame < 1)
    throw new AppError(
      'sequence.invalid_trim',
      `The kept range (${shown(outSeconds - inSeconds)}) is shorter than one frame (${shown(frame)}): move the points apart.`,
    );
  return { inFrame, outFrame };
}

/** A trim in seconds (derived from its frames) and the kept length. */
export function trimSeconds(trim: Pick<ShotTrimRecord, 'inFrame' | 'outFrame' | 'fpsNum' | 'fpsDen'>): {
  inSeconds: number;
  outSeconds: number;
  seconds: number;
} {
  const inSeconds = frameSeconds(trim.inFrame, trim);
  const outSeconds = frameSeconds(trim.outFrame, trim);
  return { inSeconds, outSeconds, seconds: outSeconds - inSeconds };
}

/** A stored trim applies only to the result it was set on (the same sha256). */
export function trimFor(
  trim: ShotTrimRecord | undefined,
  resultSha256: string | undefined,
): ShotTrimRecord | undefined {
  return trim && resultSha256 && trim.sourceSha256 === resultSha256 ? trim : undefined;
}

/** The result's frames as ffprobe measured them; `sequence.no_result` when they are unknown. */
export function resultFramesOf(
  facts: { frameRate?: { num: number; den: number }; frameCount?: number },
  label: string,
): ResultFrames {
  if (!facts.frameRate || !facts.frameCount)
    throw new AppError(
      'sequence.no_result',
      `The frames of ${label}'s result could not be measured, so it cannot be trimmed.`,
    );
  return { fpsNum: facts.frameRate.num, fpsDen: facts.frameRate.den, frameCount: facts.frameCount };
}
