import type { NoteRect } from '../../../../../shared/bridge/contract';
import { isNoteRectInFrame } from '../../../../../shared/library-review';
import { frameAt } from '../compare/frame-step';

export interface Box {
  left: number;
  top: number;
  width: number;
  height: number;
}

/**
 * Where a picture of `mediaWidth`×`mediaHeight` shows inside a box of `width`×`height` when fitted
 * whole (object-fit: contain): the frame the notes' rectangles are fractions of.
 */
export function containedBox(width: number, height: number, mediaWidth: number, mediaHeight: number): Box {
  if (!(width > 0 && height > 0 && mediaWidth > 0 && mediaHeight > 0))
    return { left: 0, top: 0, width: Math.max(0, width), height: Math.max(0, height) };
  const scale = Math.min(width / mediaWidth, height / mediaHeight);
  const w = mediaWidth * scale;
  const h = mediaHeight * scale;
  return { left: (width - w) / 2, top: (height - h) / 2, width: w, height: h };
}

const clamp01 = (n: number) => Math.max(0, Math.min(1, n));

/**
 * The rectangle dragged from one point to another (in the frame's pixels, from its top-left),
 * in fractions of the frame, clamped to it; null for a click or a drag too small to be one.
 */
export function rectFromDrag(
  from: { x: number; y: number },
  to: { x: number; y: number },
  frame: { width: number; height: number },
): NoteRect | null {
  if (!(frame.width > 0 && frame.height > 0)) return null;
  const x1 = clamp01(from.x / frame.width);
  const x2 = clamp01(to.x / frame.width);
  const y1 = clamp01(from.y / frame.height);
  const y2 = clamp01(to.y / frame.height);
  const round = (n: number) => Math.round(n * 10_000) / 10_000;
  const rect = {
    x: round(Math.min(x1, x2)),
    y: round(Math.min(y1, y2)),
    width: round(Math.abs(x2 - x1)),
    height: round(Math.abs(y2 - y1)),
  };
  if (rect.x + rect.width > 1) rect.width = round(1 - rect.x);
  if (rect.y + rect.height > 1) rect.height = round(1 - rect.y);
  return isNoteRectInFrame(rect) ? rect : null;
}

/** Whether the playhead shows the frame a note is pinned to. */
export function atNoteFrame(time: number, noteSeconds: number, fps: number): boolean {
  return frameAt(time, fps) === frameAt(noteSeconds, fps);
}

/** The rectangle a keyboard starts from: the middle third of the frame. */
export const KEYBOARD_RECT: NoteRect = { x: 0.35, y: 0.35, width: 0.3, height: 0.3 };

/** How far one arrow press moves or resizes a rectangle, in fractions of the frame. */
export const RECT_STEP = 0.02;

const round4 = (n: number) => Math.round(n * 10_000) / 10_000;

/**
 * A rectangle moved by an arrow key (or, with `resize`, grown to the right or down and shrunk to
 * the left or up), kept inside the frame and never smaller than one step; null: not an arrow.
 */
export function nudgeRect(rect: NoteRect, key: string, resize: boolean): NoteRect | null {
  const dx = key === 'ArrowRight' ? RECT_STEP : key === 'ArrowLeft' ? -RECT_STEP : 0;
  const dy = key === 'ArrowDown' ? RECT_STEP : key === 'ArrowUp' ? -RECT_STEP : 0;
  if (dx === 0 && dy === 0) return null;
  if (resize) {
    const width = Math.min(1 - rect.x, Math.max(RECT_STEP, rect.width + dx));
    const height = Math.min(1 - rect.y, Math.max(RECT_STEP, rect.height + dy));
    return { ...rect, width: round4(width), height: round4(height) };
  }
  const x = Math.min(1 - rect.width, Math.max(0, rect.x + dx));
  const y = Math.min(1 - rect.height, Math.max(0, rect.y + dy));
  return { ...rect, x: round4(x), y: round4(y) };
}
