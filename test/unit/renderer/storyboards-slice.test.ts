/**
 * Storyboards in Sequences: the person's boards listed, a board imported as a sequence that then
 * opens, the open sequence's board named, and the film (or one shot) sent back with its state —
 * sending, sent, replayed, or the core's own sentence. Offered only where the backend declares
 * `capabilities.storyboards`.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type {
  SentToBoard,
  SequenceBoardLink,
  SequenceView,
  StoryboardSummary,
} from '../../../src/shared/bridge/contract.js';
import { fake } from './fake-bridge.js';
import { sequence } from './sequence-fixtures.js';
import { rendererModule } from './static-render.js';
import { board, imported, link, ready, sent } from './storyboard-fixtures.js';

vi.mock('../../../src/renderer/src/bridge', () => import('./fake-bridge.js'));

type Send = { state: string; result?: SentToBoard; error?: string };
interface State {
  [name: string]: unknown;
  openSequenceId: string | null;
  sequence: SequenceView | null;
  sequenceError: string | null;
  boards: StoryboardSummary[] | null;
  boardsError: string | null;
  importingBoardId: string | null;
  boardLink: { sequenceId: string; link: SequenceBoardLink | null } | null;
  boardSends: Record<string, Send>;
  loadBoards(): Promise<void>;
  importBoard(boardId: string): Promise<boolean>;
  loadBoardLink(sequenceId: string): Promise<void>;
  sendToBoard(shotId?: string): Promise<boolean>;
  openSequence(sequenceId: string): Promise<void>;
}
const { useStudio } = await rendererModule<{
  useStudio: {
    getState(): State;
    setState(s: Record<string, unknown>, replace?: boolean): void;
  };
}>('store/index.js');
const initial = useStudio.getState();
const state = () => useStudio.getState();
const calls = (method: string) => fake.calls.filter((c) => c.method === method).map((c) => c.params);

/** seq-9 open, imported from the Lighthouse board, with `view` as the core's answer. */
function openImported(view: SequenceView = imported) {
  useStudio.setState({
    openSequenceId: view.sequenceId,
    sequence: view,
    boardLink: { sequenceId: view.sequenceId, link },
  });
}
beforeEach(() => {
  useStudio.setState(initial, true);
  fake.reset();
});

describe('importing a board', () => {
  it('lists the person’s boards as the core answers them', async () => {
    fake.answers.set('storyboards.list', () => ({ boards: [board()] }));
    await state().loadBoards();
    expect(state().boards).toEqual([board()]);
    expect(state().boardsError).toBeNull();
  });

  it('opens the new sequence with its shots and its board, and marks the board imported', async () => {
    fake.answers.set('storyboards.list', () => ({ boards: [board()] }));
    fake.answers.set('sequences.list', () => []);
    await state().loadBoards();
    fake.answers.set('storyboards.import', () => ({ sequence: imported, link, reused: false }));
    expect(await state().importBoard('brd_sim_lighthouse')).toBe(true);
    expect(calls('storyboards.import')).toEqual([{ boardId: 'brd_sim_lighthouse' }]);
    expect(state().openSequenceId).toBe('seq-9');
    expect(state().sequence).toEqual(imported);
    expect(state().boardLink).toEqual({ sequenceId: 'seq-9', link });
    expect(state().boards?.[0]?.importedSequenceId).toBe('seq-9');
    expect(state().importingBoardId).toBeNull();
    // nothing generated: the import is the only call that changes anything
    expect(calls('sequences.generate')).toEqual([]);
  });

  it('imports once however often Import is pressed while it runs', async () => {
    let answer: (v: unknown) => void = () => undefined;
    fake.answers.set('storyboards.import', () => new Promise((resolve) => (answer = resolve)));
    fake.answers.set('sequences.list', () => []);
    const first = state().importBoard('brd_sim_lighthouse');
    expect(await state().importBoard('brd_sim_lighthouse')).toBe(false);
    answer({ sequence: imported, link, reused: false });
    expect(await first).toBe(true);
    expect(calls('storyboards.import')).toHaveLength(1);
  });

  it('keeps the core’s sentence when listing or importing fails, and opens nothing', async () => {
    fake.answers.set('storyboards.list', () => {
      throw new Error('Storyboard Helper is busy; try again in 30 seconds.');
    });
    await state().loadBoards();
    expect(state().boardsError).toBe('Storyboard Helper is busy; try again in 30 seconds.');
    fake.answers.set('storyboards.import', () => {
      throw new Error('Framewright may not read this board.');
    });
    expect(await state().importBoard('brd_other')).toBe(false);
    expect(state().boardsError).toBe('Framewright may not read this board.');
    expect(state().openSequenceId).toBeNull();
  });
});

describe('the board link of the open sequence', () => {
  it('is asked for the open sequence and kept for it only', async () => {
    useStudio.setState({ openSequenceId: 'seq-9' });
    fake.answers.set('storyboards.linkOf', () => ({ link }));
    await state().loadBoardLink('seq-9');
    expect(calls('storyboards.linkOf')).toEqual([{ sequenceId: 'seq-9' }]);
    expect(state().boardLink).toEqual({ sequenceId: 'seq-9', link });
    // a sequence not imported has none, and the earlier link is not shown for it
    useStudio.setState({ openSequenceId: 'seq-2' });
    fake.answers.set('storyboards.linkOf', () => ({ link: null }));
    await state().loadBoardLink('seq-2');
    expect(state().boardLink).toEqual({ sequenceId: 'seq-2', link: null });
  });
});

describe('sending to the board', () => {
  it('sends the film, then one shot, each with its own state', async () => {
    openImported(sequence({ ...imported, assembly: ready, assemblyCurrent: true }));
    fake.answers.set('storyboards.send', (p) =>
      p.shotId ? { ...sent, panelId: 'pnl_2', writeId: 'wr_2' } : sent,
    );
    expect(await state().sendToBoard()).toBe(true);
    expect(await state().sendToBoard('shot-2')).toBe(true);
    expect(calls('storyboards.send')).toEqual([
      { sequenceId: 'seq-9' },
      { sequenceId: 'seq-9', shotId: 'shot-2' },
    ]);
    expect(state().boardSends['seq-9:film']).toEqual({ state: 'sent', result: sent });
    expect(state().boardSends['seq-9:shot-2']?.result?.panelId).toBe('pnl_2');
  });

  it('shows sending while it runs, sends once, and says replayed when the board had it already', async () => {
    openImported();
    let answer: (v: unknown) => void = () => undefined;
    fake.answers.set('storyboards.send', () => new Promise((resolve) => (answer = resolve)));
    const first = state().sendToBoard();
    await vi.waitFor(() => expect(state().boardSends['seq-9:film']).toEqual({ state: 'sending' }));
    expect(await state().sendToBoard()).toBe(false);
    answer({ ...sent, replayed: true });
    await first;
    expect(calls('storyboards.send')).toHaveLength(1);
    expect(state().boardSends['seq-9:film']).toEqual({ state: 'sent', result: { ...sent, replayed: true } });
  });

  it('keeps the core’s sentence when a send fails', async () => {
    openImported();
    fake.answers.set('storyboards.send', () => {
      throw new Error('Storyboard Helper did not declare that Framewright may write boards.');
    });
    expect(await state().sendToBoard('shot-1')).toBe(false);
    expect(state().boardSends['seq-9:shot-1']).toEqual({
      state: 'failed',
      error: 'Storyboard Helper did not declare that Framewright may write boards.',
    });
  });
});
