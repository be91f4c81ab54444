/**
 * Collections of the Library (issue 41), on the real store and a fake bridge: a selection (click,
 * Shift+click, Ctrl+A) becomes a collection of the selected results in the order shown; a result
 * moved by keyboard sends the collection's whole new order (a refusal puts the old one back); a
 * name that is empty or too long is refused in place; a rectangle dragged on a frame is kept in
 * fractions of the frame.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { CollectionView } from '../../../src/shared/bridge/contract.js';
import { fake } from './fake-bridge.js';

vi.mock('../../../src/renderer/src/bridge', () => import('./fake-bridge.js'));

interface ReviewState {
  selection: number[];
  collections: CollectionView[] | null;
  collectionsError: string | null;
  toggleSelected(rowId: number, shown: readonly number[], range?: boolean): void;
  selectAll(shown: readonly number[]): void;
  createCollection(name: string, ids: number[]): Promise<CollectionView | null>;
  moveInCollection(id: string, rowId: number, delta: number): Promise<boolean>;
  reorderCollection(id: string, ids: number[]): Promise<boolean>;
}
type Store<S> = { getState(): S; setState(s: Partial<S>, replace?: boolean): void };

type Rect = { x: number; y: number; width: number; height: number };

// the renderer's modules are the web project's (DOM types): imported by name, typed here
const reviewModule = '../../../src/renderer/src/store/review-store.js';
const geometryModule = '../../../src/renderer/src/screens/library/review/note-geometry.js';
const store = (await import(reviewModule)) as {
  useReview: Store<ReviewState>;
  inShownOrder(selection: readonly number[], shown: readonly number[]): number[];
  nameProblem(name: string): string | null;
  moveTo(order: readonly number[], rowId: number, to: number): number[];
};
const geometry = (await import(geometryModule)) as {
  rectFromDrag(
    from: { x: number; y: number },
    to: { x: number; y: number },
    frame: { width: number; height: number },
  ): { x: number; y: number; width: number; height: number } | null;
  containedBox(w: number, h: number, mw: number, mh: number): Record<string, number>;
  nudgeRect(rect: Rect, key: string, resize: boolean): Rect | null;
  KEYBOARD_RECT: Rect;
};
const { useReview, inShownOrder, nameProblem, moveTo } = store;
const initial = useReview.getState();
const review = () => useReview.getState();
const calls = (method: string) => fake.calls.filter((c) => c.method === method).map((c) => c.params);

const collection = (jobRowIds: number[]): CollectionView => ({
  id: 'c-1',
  name: 'Selects',
  jobRowIds,
  sharedProjectId: null,
  createdAt: 1,
  updatedAt: 1,
});

beforeEach(() => {
  fake.reset();
  useReview.setState(initial, true);
});

describe('a selection becomes a collection', () => {
  const shown = [21, 22, 23, 24, 25];

  it('sends the selected results in the order the Library shows them', async () => {
    fake.answers.set('collections.create', (params) => collection(params.jobRowIds as number[]));
    review().toggleSelected(24, shown);
    review().toggleSelected(21, shown);
    review().toggleSelected(22, shown);
    review().toggleSelected(22, shown); // a second click takes it out again
    expect(inShownOrder(review().selection, shown)).toEqual([21, 24]);
    const ids = inShownOrder(review().selection, shown);
    const made = await review().createCollection('  Selects  ', ids);
    expect(calls('collections.create')).toEqual([{ name: 'Selects', jobRowIds: [21, 24] }]);
    expect(made?.jobRowIds).toEqual([21, 24]);
    expect(review().collections).toEqual([made]);
  });

  it('Shift+click selects from the last one toggled; Ctrl+A every result shown', () => {
    review().toggleSelected(22, shown);
    review().toggleSelected(25, shown, true);
    expect(inShownOrder(review().selection, shown)).toEqual([22, 23, 24, 25]);
    review().selectAll(shown);
    expect(review().selection).toEqual(shown);
  });

  it('a name that is empty or too long is refused before anything is sent', () => {
    expect(nameProblem('   ')).toBe('empty');
    expect(nameProblem('x'.repeat(121))).toBe('tooLong');
    expect(nameProblem(' Client cut ')).toBeNull();
  });

  it('a refusal of the core is kept to be shown, and nothing is added', async () => {
    fake.answers.set('collections.create', () => {
      throw new Error('A collection holds at most 1000 results.');
    });
    expect(await review().createCollection('Too many', [1])).toBeNull();
    expect(review().collectionsError).toBe('A collection holds at most 1000 results.');
    expect(review().collections).toBeNull();
  });
});

describe('reordering a collection by hand', () => {
  beforeEach(() => {
    useReview.setState({ collections: [collection([1, 2, 3])] });
  });

  it('Alt+← on the third result sends the whole new order, shown at once', async () => {
    let release!: (v: CollectionView) => void;
    fake.answers.set('collections.reorder', () => new Promise((resolve) => (release = resolve)));
    const moved = review().moveInCollection('c-1', 3, -1);
    expect(review().collections![0]!.jobRowIds).toEqual([1, 3, 2]);
    release(collection([1, 3, 2]));
    expect(await moved).toBe(true);
    expect(calls('collections.reorder')).toEqual([{ collectionId: 'c-1', jobRowIds: [1, 3, 2] }]);
  });

  it('moving the first one earlier sends nothing', async () => {
    expect(await review().moveInCollection('c-1', 1, -1)).toBe(true);
    expect(calls('collections.reorder')).toEqual([]);
  });

  it('a refused order puts the old one back and says why', async () => {
    fake.answers.set('collections.reorder', () => {
      throw new Error('The collection changed; open it again.');
    });
    expect(await review().moveInCollection('c-1', 1, 1)).toBe(false);
    expect(review().collections![0]!.jobRowIds).toEqual([1, 2, 3]);
    expect(review().collectionsError).toBe('The collection changed; open it again.');
  });

  it('a drop puts the dragged result at the place of the card it was dropped on', () => {
    expect(moveTo([1, 2, 3, 4], 1, 2)).toEqual([2, 3, 1, 4]);
    expect(moveTo([1, 2, 3, 4], 4, 0)).toEqual([4, 1, 2, 3]);
  });
});

describe('a rectangle drawn on the frame', () => {
  it('is kept in fractions of the frame, whichever way it was dragged, clamped to the frame', () => {
    const frame = { width: 800, height: 400 };
    expect(geometry.rectFromDrag({ x: 600, y: 300 }, { x: 200, y: 100 }, frame)).toEqual({
      x: 0.25,
      y: 0.25,
      width: 0.5,
      height: 0.5,
    });
    expect(geometry.rectFromDrag({ x: 700, y: 200 }, { x: 900, y: 500 }, frame)).toEqual({
      x: 0.875,
      y: 0.5,
      width: 0.125,
      height: 0.5,
    });
    // a click is no rectangle
    expect(geometry.rectFromDrag({ x: 10, y: 10 }, { x: 12, y: 11 }, frame)).toBeNull();
  });

  it('is marked by the keys too: arrows move it, Shift+arrows resize it, always inside the frame', () => {
    const start = geometry.KEYBOARD_RECT;
    expect(start).toEqual({ x: 0.35, y: 0.35, width: 0.3, height: 0.3 });
    expect(geometry.nudgeRect(start, 'ArrowRight', false)).toEqual({ ...start, x: 0.37 });
    expect(geometry.nudgeRect(start, 'ArrowUp', false)).toEqual({ ...start, y: 0.33 });
    expect(geometry.nudgeRect(start, 'ArrowDown', true)).toEqual({ ...start, height: 0.32 });
    expect(geometry.nudgeRect(start, 'ArrowLeft', true)).toEqual({ ...start, width: 0.28 });
    expect(geometry.nudgeRect(start, 'Enter', false)).toBeNull();
    // at the edge it stops; it never grows past the frame nor shrinks to nothing
    const atEdge = { x: 0.7, y: 0, width: 0.3, height: 0.02 };
    expect(geometry.nudgeRect(atEdge, 'ArrowRight', false)).toEqual(atEdge);
    expect(geometry.nudgeRect(atEdge, 'ArrowUp', false)).toEqual(atEdge);
    expect(geometry.nudgeRect(atEdge, 'ArrowRight', true)).toEqual(atEdge);
    expect(geometry.nudgeRect(atEdge, 'ArrowUp', true)).toEqual(atEdge);
  });

  it('is drawn on the picture, not on the bars around it', () => {
    // a 16:9 video in a 1000×1000 box: bars above and below
    const box = geometry.containedBox(1000, 1000, 1920, 1080);
    expect(box.left).toBeCloseTo(0);
    expect(box.top).toBeCloseTo(218.75);
    expect(box.width).toBeCloseTo(1000);
    expect(box.height).toBeCloseTo(562.5);
  });
});
