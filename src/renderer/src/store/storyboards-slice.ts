import type { StateCreator } from 'zustand';
import type { SentToBoard, SequenceBoardLink, StoryboardSummary } from '../../../shared/bridge/contract';
import { bridge } from '../bridge';
import type { StudioState } from './index';

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** How one send to the board went: running, its answer (`replayed`: nothing new written), or why not. */
export type BoardSend =
  { state: 'sending' } | { state: 'sent'; result: SentToBoard } | { state: 'failed'; error: string };

/** Where a send's state is kept: the film of a sequence, or one of its shots. */
export const sendKey = (sequenceId: string, shotId?: string) => `${sequenceId}:${shotId ?? 'film'}`;

/**
 * Storyboards in, films out (offered where `capabilities.storyboards`): the person's boards in
 * Storyboard Helper, a board imported as a sequence (which then opens), the open sequence's board
 * link, and sending the film (or one shot) back. Errors are the core's plain sentences, kept.
 */
export interface StoryboardsSlice {
  /** The person's boards (null before the first answer). */
  boards: StoryboardSummary[] | null;
  boardsLoading: boolean;
  /** Why listing or importing failed, as the core said it; cleared by the next try. */
  boardsError: string | null;
  /** The board being imported now (its button waits). */
  importingBoardId: string | null;
  /** The board link of a sequence, as last answered (`link` null: not imported). */
  boardLink: { sequenceId: string; link: SequenceBoardLink | null } | null;
  /** Each send's state, by `sendKey(sequenceId, shotId?)`. */
  boardSends: Record<string, BoardSend>;
  loadBoards(): Promise<void>;
  /** Imports a board; the new (or earlier) sequence opens with its shots. */
  importBoard(boardId: string): Promise<boolean>;
  /** Asks which board a sequence came from. */
  loadBoardLink(sequenceId: string): Promise<void>;
  /** Sends the open sequence's assembled film, or with `shotId` that shot's result, to its board. */
  sendToBoard(shotId?: string): Promise<boolean>;
}

export const createStoryboardsSlice: StateCreator<StudioState, [], [], StoryboardsSlice> = (set, get) => {
  const setSend = (key: string, send: BoardSend) => set({ boardSends: { ...get().boardSends, [key]: send } });

  return {
    boards: null,
    boardsLoading: false,
    boardsError: null,
    importingBoardId: null,
    boardLink: null,
    boardSends: {},

    async loadBoards() {
      set({ boardsLoading: true, boardsError: null });
      try {
        const { boards } = await bridge.invoke('storyboards.list', {});
        set({ boards });
      } catch (error) {
        set({ boardsError: message(error) });
      } finally {
        set({ boardsLoading: false });
      }
    },

    async importBoard(boardId) {
      if (get().importingBoardId) return false;
      set({ importingBoardId: boardId, boardsError: null });
      try {
        const { sequence, link } = await bridge.invoke('storyboards.import', { boardId });
        set({
          openSequenceId: sequence.sequenceId,
          sequence,
          sequenceError: null,
          generateOutcome: null,
          boardLink: { sequenceId: sequence.sequenceId, link },
          boards: (get().boards ?? []).map((b) =>
            b.boardId === boardId ? { ...b, importedSequenceId: sequence.sequenceId } : b,
          ),
        });
        void get().loadSequences();
        return true;
      } catch (error) {
        set({ boardsError: message(error) });
        return false;
      } finally {
        set({ importingBoardId: null });
      }
    },

    async loadBoardLink(sequenceId) {
      if (get().boardLink?.sequenceId !== sequenceId) set({ boardLink: null });
      try {
        const { link } = await bridge.invoke('storyboards.linkOf', { sequenceId });
        if (get().openSequenceId === sequenceId) set({ boardLink: { sequenceId, link } });
      } catch (error) {
        if (get().openSequenceId === sequenceId) set({ sequenceError: message(error) });
      }
    },

    async sendToBoard(shotId) {
      const sequenceId = get().openSequenceId;
      if (!sequenceId) return false;
      const key = sendKey(sequenceId, shotId);
      if (get().boardSends[key]?.state === 'sending') return false;
      setSend(key, { state: 'sending' });
      try {
        const result = await bridge.invoke('storyboards.send', { sequenceId, ...(shotId ? { shotId } : {}) });
        setSend(key, { state: 'sent', result });
        return true;
      } catch (error) {
        setSend(key, { state: 'failed', error: message(error) });
        return false;
      }
    },
  };
};
