/**
 * A reference video or audio trimmed in place: only its kept range is sent, so the rules judge
 * that range. Main cuts the kept range (`src/main/core/storage/trimmed-copies.ts`) and checks the
 * cut's own facts again before anything is sent.
 */
import type { ProbedMedia } from './draft.js';

/** The kept part of a reference video or audio, in seconds of its source. */
export interface ReferenceTrim {
  startSeconds: number;
  endSeconds: number;
}

/** Whether `trim` lies inside a source of `durationSeconds` and keeps something. */
export function trimFits(trim: ReferenceTrim, durationSeconds: number): boolean {
  return trim.startSeconds >= 0 && trim.endSeconds > trim.startSeconds && trim.endSeconds <= durationSeconds;
}

/**
 * A reference as the rules see it: a trimmed video or audio lasts its kept range, and its size is
 * the same share of its bytes (an estimate: main checks the cut's real size before sending). An
 * image, an untrimmed file, a file of unknown duration or a range that does not fit is itself.
 */
export function keptReference<M extends ProbedMedia>(ref: M): M {
  // no duration (an image, an unreadable file) never fits a range
  const { trim, durationSeconds: d = 0 } = ref;
  if (!trim || !trimFits(trim, d)) return ref;
  const kept = trim.endSeconds - trim.startSeconds;
  return { ...ref, durationSeconds: kept, byteSize: Math.ceil((ref.byteSize * kept) / d) };
}
