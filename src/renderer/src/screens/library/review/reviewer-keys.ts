import { useReview } from '../../../store/review-store';
import { stepFrame } from '../compare/frame-step';
import { markOfKey, type MarkChange } from '../LibraryCard';

/** What a key does in the full-screen reviewer. */
export type ReviewerCommand =
  | { kind: 'next' }
  | { kind: 'previous' }
  | { kind: 'playPause' }
  | { kind: 'slower' }
  | { kind: 'faster' }
  | { kind: 'step'; delta: number }
  | { kind: 'loopA' }
  | { kind: 'loopB' }
  | { kind: 'clearLoop' }
  | { kind: 'note' }
  | { kind: 'help' }
  | { kind: 'mark'; change: MarkChange };

export interface ReviewerKey {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
  shiftKey?: boolean;
}

/**
 * The reviewer's keys, shown by `?` (REVIEWER_SHORTCUTS): → or L next take, ← or J previous,
 * Space play/pause, [ and ] slower and faster, , and . a frame back and on, A and B the loop's
 * ends, C clears the loop, N a note at the current time, P X U and 0–5 the marks (the Library's).
 * Null for any other key, or one held with Ctrl, ⌘ or Alt (the browser's).
 */
export function reviewerCommandOf(event: ReviewerKey): ReviewerCommand | null {
  if (event.ctrlKey || event.metaKey || event.altKey) return null;
  const mark = markOfKey(event);
  if (mark) return { kind: 'mark', change: mark };
  switch (event.key) {
    case 'ArrowRight':
    case 'l':
    case 'L':
      return { kind: 'next' };
    case 'ArrowLeft':
    case 'j':
    case 'J':
      return { kind: 'previous' };
    case ' ':
    case 'k':
    case 'K':
      return { kind: 'playPause' };
    case '[':
      return { kind: 'slower' };
    case ']':
      return { kind: 'faster' };
    case ',':
      return { kind: 'step', delta: -1 };
    case '.':
      return { kind: 'step', delta: 1 };
    case 'a':
    case 'A':
      return { kind: 'loopA' };
    case 'b':
    case 'B':
      return { kind: 'loopB' };
    case 'c':
    case 'C':
      return { kind: 'clearLoop' };
    case 'n':
    case 'N':
      return { kind: 'note' };
    case '?':
      return { kind: 'help' };
    default:
      return null;
  }
}

/** The list `?` shows: the keys as written, and the i18n key of what they do. */
export const REVIEWER_SHORTCUTS: readonly { keys: string; what: string }[] = [
  { keys: '→ / L', what: 'next' },
  { keys: '← / J', what: 'previous' },
  { keys: 'Space / K', what: 'playPause' },
  { keys: '[ / ]', what: 'speed' },
  { keys: ', / .', what: 'step' },
  { keys: 'A / B', what: 'loop' },
  { keys: 'C', what: 'clearLoop' },
  { keys: 'P / X / U', what: 'flag' },
  { keys: '0–5', what: 'stars' },
  { keys: 'N', what: 'note' },
  { keys: '?', what: 'help' },
  { keys: 'Esc', what: 'close' },
];

/** The reviewer's player as the keys drive it. */
export interface ReviewerPlayer {
  time: number;
  duration: number;
  fps: number;
  toggle(): void;
  pause(): void;
  step(delta: number): void;
}

export interface ReviewerContext {
  /** The take shown (the one the key acts on). */
  jobRowId: number;
  player: ReviewerPlayer;
  toggleHelp(): void;
  /** After N: where the note's text is typed. */
  focusNote(): void;
}

/** The start of the frame shown at `time` (a note is pinned to the frame the person sees). */
export function frameStart(player: Pick<ReviewerPlayer, 'time' | 'fps' | 'duration'>): number {
  return stepFrame(player.time, player.fps, 0, player.duration);
}

/** Does what the command says, on the take shown and its player. */
export function runReviewerCommand(command: ReviewerCommand, context: ReviewerContext): void {
  const review = useReview.getState();
  const { player } = context;
  switch (command.kind) {
    case 'next':
      return review.moveReviewer(1);
    case 'previous':
      return review.moveReviewer(-1);
    case 'playPause':
      return player.toggle();
    case 'slower':
      return review.stepSpeed(-1);
    case 'faster':
      return review.stepSpeed(1);
    case 'step':
      return player.step(command.delta);
    case 'loopA':
      return review.setLoopPoint('a', frameStart(player));
    case 'loopB':
      return review.setLoopPoint('b', frameStart(player));
    case 'clearLoop':
      return review.clearLoop();
    case 'note':
      player.pause();
      review.startNote(context.jobRowId, frameStart(player));
      return context.focusNote();
    case 'help':
      return context.toggleHelp();
    case 'mark':
      void review.markTake(context.jobRowId, command.change);
      return;
  }
}

/**
 * The reviewer's keydown: runs the key's command and answers whether it was one (the event is then
 * kept from the page). Keys typed into a field (a note's text) are the field's.
 */
export function onReviewerKey(
  event: ReviewerKey & { target?: unknown; preventDefault(): void },
  context: ReviewerContext,
): boolean {
  if (keyOfTarget(event.key, event.target)) return false;
  const command = reviewerCommandOf(event);
  if (!command) return false;
  event.preventDefault();
  runReviewerCommand(command, context);
  return true;
}

/**
 * Whether the focused element takes this key itself: every key typed into a text field (a note),
 * Space on a button (it presses it), the arrows on a slider (the scrub bar seeks).
 */
function keyOfTarget(key: string, target: unknown): boolean {
  if (!target || typeof target !== 'object') return false;
  const el = target as { tagName?: string; isContentEditable?: boolean; type?: string };
  if (el.isContentEditable || el.tagName === 'TEXTAREA' || el.tagName === 'SELECT') return true;
  if (el.tagName === 'BUTTON') return key === ' ' || key === 'Enter';
  if (el.tagName !== 'INPUT') return false;
  if (el.type === 'range') return key.startsWith('Arrow') || key === 'Home' || key === 'End';
  if (['checkbox', 'radio'].includes(el.type ?? '')) return key === ' ';
  return true;
}
