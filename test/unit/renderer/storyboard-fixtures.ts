/** Boards, a board link and sends as the core answers them (`storyboards.*`), for the renderer's tests. */
import type {
  AssemblyView,
  SentToBoard,
  SequenceBoardLink,
  StoryboardSummary,
} from '../../../src/shared/bridge/contract.js';
import { sequence, shot } from './sequence-fixtures.js';

export const board = (patch: Partial<StoryboardSummary> = {}): StoryboardSummary => ({
  boardId: 'brd_sim_lighthouse',
  title: 'Lighthouse',
  panelCount: 3,
  updatedAt: '2026-11-20T10:00:00.000Z',
  importedSequenceId: null,
  ...patch,
});
export const link: SequenceBoardLink = {
  boardId: 'brd_sim_lighthouse',
  title: 'Lighthouse',
  panels: { 'shot-1': 'pnl_1', 'shot-2': 'pnl_2' },
};
export const imported = sequence({
  sequenceId: 'seq-9',
  name: 'Lighthouse',
  shots: [
    shot({ prompt: 'A lighthouse at dusk', firstFramePosterUrl: '/media/poster-1' }),
    shot({ shotId: 'shot-2', position: 1, label: 'Shot 2', prompt: 'The lamp turns' }),
  ],
});
export const ready: AssemblyView = {
  assemblyId: 'asm-1',
  sequenceId: 'seq-9',
  state: 'ready',
  progress: 1,
  crossfadeSeconds: 0.5,
  mediaUrl: '/media/asm-1',
  fileName: 'Lighthouse.mp4',
  durationSeconds: 10,
  byteSize: 1000,
  sha256: 'a'.repeat(64),
  chapters: [],
  errorMessage: null,
  createdAt: 1,
  reused: false,
};
export const sent: SentToBoard = {
  boardId: 'brd_sim_lighthouse',
  panelId: 'pnl_1',
  writeId: 'wr_1',
  replayed: false,
};
