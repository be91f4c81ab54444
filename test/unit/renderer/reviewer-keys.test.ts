/**
 * The full-screen reviewer by keyboard (issue 41), on the real store and a fake bridge: → / L and
 * ← / J move between takes; P X U and 0–5 mark the take they were pressed on, even when the next
 * key moved on before the save was answered; N starts a note at the frame shown and Enter's save
 * pins it there; A and B set the loop's ends in order and reaching B goes back to A; [ and ] step
 * the speed within 0.25×–2×; keys typed into a note's field are the field's.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { JobView } from '../../../src/shared/bridge/contract.js';
import { fake } from './fake-bridge.js';

vi.mock('../../../src/renderer/src/bridge', () => import('./fake-bridge.js'));

interface Key {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
  shiftKey?: boolean;
  target?: unknown;
  preventDefault(): void;
}
interface Player {
  time: number;
  duration: number;
  fps: number;
  toggle(): void;
  pause(): void;
  step(delta: number): void;
}
interface ReviewState {
  reviewer: { ids: number[]; index: number } | null;
  speed: number;
  loop: { a: number | null; b: number | null };
  pendingMarks: number;
  noteDraft: { jobRowId: number; atSeconds: number; rect: unknown } | null;
  notes: Record<number, { text: string; atSeconds: number }[]>;
  openReviewer(ids: number[], start?: number): void;
  saveNote(text: string): Promise<string | null>;
}
type Store<S> = { getState(): S; setState(s: Partial<S>, replace?: boolean): void };

// the renderer's modules are the web project's (DOM types): imported by name, typed here
const storeModule = '../../../src/renderer/src/store/index.js';
const reviewModule = '../../../src/renderer/src/store/review-store.js';
const keysModule = '../../../src/renderer/src/screens/library/review/reviewer-keys.js';
const { useStudio } = (await import(storeModule)) as {
  useStudio: Store<{ libraryItems: JobView[] | null }>;
};
const { useReview, loopTarget } = (await import(reviewModule)) as {
  useReview: Store<ReviewState>;
  loopTarget(time: number, loop: { a: number | null; b: number | null }): number | null;
};
const { onReviewerKey } = (await import(keysModule)) as {
  onReviewerKey(event: Key, context: unknown): boolean;
};

const initialStudio = useStudio.getState();
const initialReview = useReview.getState();
const review = () => useReview.getState();
const calls = (method: string) => fake.calls.filter((c) => c.method === method).map((c) => c.params);
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

function take(rowId: number): JobView {
  return {
    rowId,
    title: `Take ${rowId}`,
    model: 'h3-video',
    marks: { flag: null, stars: 0, label: null },
    outputs: [],
  } as unknown as JobView;
}

const player = {
  time: 0,
  duration: 5,
  fps: 24,
  toggles: 0,
  pauses: 0,
  steps: [] as number[],
  toggle: () => void (player.toggles += 1),
  pause: () => void (player.pauses += 1),
  step: (delta: number) => void player.steps.push(delta),
} satisfies Player & Record<string, unknown>;

let helpToggles = 0;
/** Presses a key in the reviewer on the take it shows now (as the dialog's keydown does). */
function press(key: string, extra: Partial<Key> = {}): boolean {
  const shown = review().reviewer!;
  return onReviewerKey(
    { key, ctrlKey: false, metaKey: false, altKey: false, preventDefault() {}, ...extra },
    {
      jobRowId: shown.ids[shown.index]!,
      player,
      toggleHelp: () => (helpToggles += 1),
      focusNote: () => undefined,
    },
  );
}
const shownRow = () => review().reviewer!.ids[review().reviewer!.index];

beforeEach(() => {
  fake.reset();
  useStudio.setState(initialStudio, true);
  useReview.setState(initialReview, true);
  useStudio.setState({ libraryItems: [11, 12, 13].map(take) });
  Object.assign(player, { time: 0, toggles: 0, pauses: 0, steps: [] });
  helpToggles = 0;
  review().openReviewer([11, 12, 13], 11);
});

describe('the reviewer by keyboard', () => {
  it('→ and L show the next take, ← and J the previous one, clamped at both ends', () => {
    expect(shownRow()).toBe(11);
    press('ArrowLeft');
    expect(shownRow()).toBe(11);
    press('ArrowRight');
    expect(shownRow()).toBe(12);
    press('l');
    expect(shownRow()).toBe(13);
    press('L');
    expect(shownRow()).toBe(13);
    press('j');
    expect(shownRow()).toBe(12);
    // with a modifier the key is the browser's
    expect(press('ArrowRight', { altKey: true })).toBe(false);
    expect(shownRow()).toBe(12);
  });

  it('opened on a card, it starts at that card', () => {
    review().openReviewer([11, 12, 13], 13);
    expect(shownRow()).toBe(13);
  });

  it('a mark pressed just before → is saved for the take it was pressed on, not the next one', async () => {
    const held: ((view: JobView) => void)[] = [];
    fake.answers.set('library.mark', () => new Promise((resolve) => held.push(resolve)));
    press('p');
    press('ArrowRight');
    press('5');
    press('ArrowRight');
    expect(shownRow()).toBe(13);
    expect(calls('library.mark')).toEqual([
      { jobRowId: 11, flag: 'pick' },
      { jobRowId: 12, stars: 5 },
    ]);
    expect(review().pendingMarks).toBe(2);
    held[0]!({ ...take(11), marks: { flag: 'pick', stars: 0, label: null } });
    held[1]!({ ...take(12), marks: { flag: null, stars: 5, label: null } });
    await settle();
    expect(review().pendingMarks).toBe(0);
    const items = useStudio.getState().libraryItems!;
    expect(items.find((j) => j.rowId === 11)!.marks.flag).toBe('pick');
    expect(items.find((j) => j.rowId === 12)!.marks.stars).toBe(5);
    expect(items.find((j) => j.rowId === 13)!.marks).toEqual({ flag: null, stars: 0, label: null });
  });

  it('two marks of one take are sent in the order pressed (the second waits for the first)', async () => {
    const held: (() => void)[] = [];
    fake.answers.set(
      'library.mark',
      (params) =>
        new Promise((resolve) =>
          held.push(() =>
            resolve({ ...take(11), marks: { flag: params.flag ?? null, stars: 0, label: null } }),
          ),
        ),
    );
    press('p');
    press('u');
    await settle();
    expect(calls('library.mark')).toEqual([{ jobRowId: 11, flag: 'pick' }]);
    held[0]!();
    await settle();
    expect(calls('library.mark')).toEqual([
      { jobRowId: 11, flag: 'pick' },
      { jobRowId: 11, flag: null },
    ]);
    held[1]!();
    await settle();
    expect(useStudio.getState().libraryItems!.find((j) => j.rowId === 11)!.marks.flag).toBeNull();
  });

  it('N pauses and starts a note at the frame shown; its save pins the text there', async () => {
    fake.answers.set('library.notes.add', (params) => ({
      id: 'n-1',
      jobRowId: params.jobRowId,
      atSeconds: params.atSeconds,
      text: params.text,
      rect: params.rect ?? null,
      createdAt: 1,
      updatedAt: 1,
    }));
    press('ArrowRight');
    player.time = 2.51; // frame 60 at 24 fps starts at 2.5 s
    press('n');
    expect(player.pauses).toBe(1);
    expect(review().noteDraft).toEqual({ jobRowId: 12, atSeconds: 2.5, rect: null });
    // an empty note is refused in place, and nothing is sent
    expect(await review().saveNote('   ')).toBe('empty');
    expect(calls('library.notes.add')).toEqual([]);
    expect(await review().saveNote('  The hand melts  ')).toBeNull();
    expect(calls('library.notes.add')).toEqual([{ jobRowId: 12, atSeconds: 2.5, text: 'The hand melts' }]);
    expect(review().noteDraft).toBeNull();
    expect(review().notes[12]).toMatchObject([{ atSeconds: 2.5, text: 'The hand melts' }]);
  });

  it('a refused note keeps its draft (nothing typed is lost) and says why', async () => {
    fake.answers.set('library.notes.add', () => {
      throw new Error('The result is not finished.');
    });
    press('n');
    expect(await review().saveNote('Too dark')).toBe('failed');
    expect(review().noteDraft).toMatchObject({ jobRowId: 11 });
    expect((review() as unknown as { notesError: string }).notesError).toBe('The result is not finished.');
  });

  it('keys typed into the note field are the field’s, not the reviewer’s', () => {
    const textarea = { tagName: 'TEXTAREA' };
    expect(press('l', { target: textarea })).toBe(false);
    expect(press('p', { target: textarea })).toBe(false);
    expect(shownRow()).toBe(11);
    expect(calls('library.mark')).toEqual([]);
    // Space on a button presses it; elsewhere it plays or pauses
    expect(press(' ', { target: { tagName: 'BUTTON' } })).toBe(false);
    expect(press(' ', { target: { tagName: 'DIV' } })).toBe(true);
    expect(player.toggles).toBe(1);
  });

  it('A and B set the loop at the frames shown, kept in order; reaching B goes back to A; C clears it', () => {
    player.time = 3;
    press('a');
    player.time = 1;
    press('b');
    expect(review().loop).toEqual({ a: 1, b: 3 });
    expect(loopTarget(2.9, review().loop)).toBeNull();
    expect(loopTarget(3, review().loop)).toBe(1);
    press('c');
    expect(review().loop).toEqual({ a: null, b: null });
    expect(loopTarget(4, review().loop)).toBeNull();
    // a loop belongs to its take: moving on leaves it
    press('a');
    player.time = 2;
    press('b');
    press('ArrowRight');
    expect(review().loop).toEqual({ a: null, b: null });
  });

  it('[ and ] step the speed between 0.25× and 2×; , and . step a frame; ? shows the keys', () => {
    expect(review().speed).toBe(1);
    press(']');
    press(']');
    expect(review().speed).toBe(2);
    press(']');
    expect(review().speed).toBe(2);
    for (let i = 0; i < 6; i++) press('[');
    expect(review().speed).toBe(0.25);
    press(',');
    press('.');
    expect(player.steps).toEqual([-1, 1]);
    press('?');
    expect(helpToggles).toBe(1);
  });
});
