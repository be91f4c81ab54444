import type { StateCreator } from 'zustand';
import type { SentToBoard, SequenceBoardLink, StoryboardSummary } from '../../../shared/bridge/contract';
import type { storyboardsActions } from './storyboards-actions';
import type { StudioState } from './index';

/** How one send to the board went: running, its answer (`replayed`: nothing new written), or why not. */
export type BoardSend =
  { state: 'sending' } | { state: 'sent'; result: SentToBoard } | { state: 'failed'; error: string };

/** Where a send's state is kept: the film of a sequence, or one of its shots. */
export const sendKey = (sequenceId: string, shotId?: string) => `${sequenceId}:${shotId ?? 'film'}`;

/**
 * Storyboards in, films out (offered where `capabilities.storyboards`): the person's boards in
 * Storyboard Helper, a board imported as a sequence (which then opens), the open sequence's board
 * link, and sending the film (or one shot) back. Errors are the core's plain sentences, kept. The
 * actions' work is in storyboards-actions.ts, loaded on first use (the first chunk is at its budget).
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
  let loaded: ReturnType<typeof storyboardsActions> | undefined;
  const actions = async () =>
    (loaded ??= (await import('./storyboards-actions')).storyboardsActions(set, get));
  return {
    boards: null,
    boardsLoading: false,
    boardsError: null,
    importingBoardId: null,
    boardLink: null,
    boardSends: {},
    loadBoards: async () => (await actions()).loadBoards(),
    importBoard: async (boardId) => (await actions()).importBoard(boardId),
    loadBoardLink: async (sequenceId) => (await actions()).loadBoardLink(sequenceId),
    sendToBoard: async (shotId) => (await actions()).sendToBoard(shotId),
  };
};
