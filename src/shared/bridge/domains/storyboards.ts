import { z } from 'zod';
import { NoParams } from './app.js';
import { SequenceView } from './sequences.js';

/**
 * Storyboards in, films out (issue 29): Framewright calls the `storyboard-helper` application on
 * behalf of the signed-in person, through platform grants (application-platform-api.md, section C's
 * `app-grants`). A board becomes a sequence (one shot per panel: its prompt, its image as the
 * shot's first frame); an assembled film (or one shot) goes back to the board as a panel result.
 * Offered where the backend declares the capability `storyboards` (the platform deployment).
 */

const Id = z.string().min(1).max(200);

export const StoryboardSummary = z.object({
  boardId: z.string(),
  title: z.string(),
  panelCount: z.number().int(),
  updatedAt: z.string(),
  /** The sequence an earlier import of this board made, while it exists. */
  importedSequenceId: z.string().nullable(),
});
export type StoryboardSummary = z.infer<typeof StoryboardSummary>;

/** Where a sequence came from: the board and each shot's panel (absent: not imported). */
export const SequenceBoardLink = z.object({
  boardId: z.string(),
  title: z.string(),
  /** Shot id → panel id, for the shots made from a panel. */
  panels: z.record(z.string(), z.string()),
});
export type SequenceBoardLink = z.infer<typeof SequenceBoardLink>;

export const SentToBoard = z.object({
  boardId: z.string(),
  panelId: z.string(),
  writeId: z.string(),
  /** The board had this write already (the same send again): nothing new was written. */
  replayed: z.boolean(),
});
export type SentToBoard = z.infer<typeof SentToBoard>;

export const storyboardsMethods = {
  /** The person's boards in Storyboard Helper (another person's are never listed). */
  'storyboards.list': { params: NoParams, result: z.object({ boards: z.array(StoryboardSummary) }) },
  /**
   * Makes a sequence of a board: one shot per panel (its prompt, its image as the first frame,
   * stored in the person's storage). Nothing is generated. Importing the same board again answers
   * the sequence made before (while it exists).
   */
  'storyboards.import': {
    params: z.object({ boardId: Id }).strict(),
    result: z.object({ sequence: SequenceView, link: SequenceBoardLink, reused: z.boolean() }),
  },
  /** The board a sequence was imported from (null: none). */
  'storyboards.linkOf': {
    params: z.object({ sequenceId: Id }).strict(),
    result: z.object({ link: SequenceBoardLink.nullable() }),
  },
  /**
   * Writes the sequence's assembled film (or, with `shotId`, that shot's verified result) back to
   * its board as a panel result: the shot's own panel, or the board's first panel for the film.
   */
  'storyboards.send': {
    params: z.object({ sequenceId: Id, shotId: Id.optional() }).strict(),
    result: SentToBoard,
  },
} as const;

export const storyboardsEvents = {} as const;
