import type { StoreApi } from 'zustand';
import { bridge } from '../bridge';
import type { StudioState } from './index';
import { sendKey, type BoardSend, type StoryboardsSlice } from './storyboards-slice';

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

type Actions = Pick<StoryboardsSlice, 'loadBoards' | 'importBoard' | 'loadBoardLink' | 'sendToBoard'>;

/**
 * The storyboards slice's actions (see storyboards-slice.ts): loaded on their first use, so they
 * cost the first chunk nothing (only the Sequences screen uses them).
 */
export function storyboardsActions(
  set: StoreApi<StudioState>['setState'],
  get: StoreApi<StudioState>['getState'],
): Actions {
  const setSend = (key: string, send: BoardSend) => set({ boardSends: { ...get().boardSends, [key]: send } });

  return {
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
}
