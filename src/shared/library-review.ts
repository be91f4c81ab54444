/**
 * Reviewing takes (issue 41), import-free so the renderer, the core's journal and the CLI read one
 * vocabulary: notes pinned to a time of a result (optionally a rectangle drawn on its frame) and
 * collections (named, hand-ordered sets of library results; a result may be in several).
 */

/** A note's text: what was seen at that moment ("the hand melts at 3.2 s"). */
export const NOTE_TEXT_MAX_CHARS = 2000;

/** The most notes one result keeps. */
export const NOTES_PER_RESULT_MAX = 500;

/**
 * A rectangle drawn on the frame, in fractions of the frame's width and height (0..1, from its
 * top-left corner), so it stays on the same place whatever size the frame is shown at.
 */
export interface NoteRect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The smallest side of a drawn rectangle (a click, not a drag, draws none). */
export const NOTE_RECT_MIN_SIDE = 0.01;

export const COLLECTION_NAME_MAX_CHARS = 120;

/** The most results one collection holds. */
export const COLLECTION_MAX_ITEMS = 1000;

/** The most collections one person keeps. */
export const COLLECTIONS_MAX = 1000;

/** Whether a rectangle lies inside the frame and is big enough to be drawn. */
export function isNoteRectInFrame(rect: NoteRect): boolean {
  const { x, y, width, height } = rect;
  return (
    [x, y, width, height].every((n) => Number.isFinite(n)) &&
    x >= 0 &&
    y >= 0 &&
    width >= NOTE_RECT_MIN_SIDE &&
    height >= NOTE_RECT_MIN_SIDE &&
    x + width <= 1 + 1e-9 &&
    y + height <= 1 + 1e-9
  );
}
