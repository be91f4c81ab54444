import { randomUUID } from 'node:crypto';
import type { JobNoteView } from '../../../shared/bridge/domains/review.js';
import {
  NOTE_TEXT_MAX_CHARS,
  NOTES_PER_RESULT_MAX,
  isNoteRectInFrame,
  type NoteRect,
} from '../../../shared/library-review.js';
import { AppError } from '../errors.js';
import type { JobWithOutputs } from '../journal/jobs-repository.js';
import type { NotesRepository } from '../journal/notes-repository.js';
import type { SidecarWrites } from './sidecar-writes.js';

/** How far past a result's measured end a note may be pinned (a frame's length, rounded up). */
const END_TOLERANCE_SECONDS = 0.05;

export interface ResultNotesDeps {
  notes: Pick<NotesRepository, 'get' | 'forJob' | 'count' | 'add' | 'update' | 'delete'>;
  requireJob: (jobRowId: number) => JobWithOutputs;
  /**
   * The length of a result's verified video or audio in seconds, as measured; 0 for a still image
   * (its notes are all at 0); undefined when it cannot be measured now (no upper bound is checked).
   */
  mediaSeconds: (job: JobWithOutputs) => Promise<number | undefined>;
  sidecars: Pick<SidecarWrites, 'rewrite'>;
}

/**
 * Notes pinned to a time of a result (issue 41): "the hand melts at 3.2 s", optionally with a
 * rectangle drawn on that frame. Only a finished result of the library takes notes; the time must
 * lie within the result as measured. Each change is in the journal at once, then in the result's
 * sidecar (so `library reindex` restores the notes).
 */
export class ResultNotes {
  constructor(private readonly d: ResultNotesDeps) {}

  list(jobRowId: number): { items: JobNoteView[] } {
    this.d.requireJob(jobRowId);
    return { items: this.d.notes.forJob(jobRowId) };
  }

  async add(note: {
    jobRowId: number;
    atSeconds: number;
    text: string;
    rect?: NoteRect | null;
  }): Promise<JobNoteView> {
    const job = this.requireResult(note.jobRowId);
    if (this.d.notes.count(job.id) >= NOTES_PER_RESULT_MAX)
      throw new AppError(
        'library.too_many_notes',
        `This result has ${NOTES_PER_RESULT_MAX} notes, the most one result keeps; nothing was added.`,
      );
    const checked = await this.checked(job, note);
    const added = this.d.notes.add({ id: randomUUID(), jobRowId: job.id, ...checked });
    await this.d.sidecars.rewrite(job.id);
    return added;
  }

  async update(change: {
    noteId: string;
    atSeconds?: number;
    text?: string;
    rect?: NoteRect | null;
  }): Promise<JobNoteView> {
    const before = this.requireNote(change.noteId);
    const job = this.requireResult(before.jobRowId);
    const checked = await this.checked(job, {
      atSeconds: change.atSeconds ?? before.atSeconds,
      text: change.text ?? before.text,
      rect: change.rect === undefined ? before.rect : change.rect,
    });
    const updated = this.d.notes.update(before.id, checked);
    if (!updated) throw noSuchNote();
    await this.d.sidecars.rewrite(job.id);
    return updated;
  }

  async delete(noteId: string): Promise<{ deleted: boolean }> {
    const note = this.d.notes.get(noteId);
    if (!note) return { deleted: false };
    const deleted = this.d.notes.delete(noteId);
    await this.d.sidecars.rewrite(note.jobRowId);
    return { deleted };
  }

  private requireNote(noteId: string) {
    const note = this.d.notes.get(noteId);
    if (!note) throw noSuchNote();
    return note;
  }

  private requireResult(jobRowId: number): JobWithOutputs {
    const job = this.d.requireJob(jobRowId);
    if (job.status !== 'succeeded')
      throw new AppError('library.not_a_result', 'Only a finished result of the library takes notes.');
    return job;
  }

  /** The note as it will be kept: trimmed text, a time within the result, a rectangle in the frame. */
  private async checked(
    job: JobWithOutputs,
    note: { atSeconds: number; text: string; rect?: NoteRect | null },
  ): Promise<{ atSeconds: number; text: string; rect: NoteRect | null }> {
    const text = note.text.trim();
    if (!text || text.length > NOTE_TEXT_MAX_CHARS)
      throw new AppError('library.invalid_note', `A note is 1 to ${NOTE_TEXT_MAX_CHARS} characters of text.`);
    const rect = note.rect ?? null;
    if (rect && !isNoteRectInFrame(rect))
      throw new AppError('library.invalid_note', 'The rectangle must lie inside the frame.');
    if (!Number.isFinite(note.atSeconds) || note.atSeconds < 0)
      throw new AppError('library.invalid_note', 'A note’s time is a number of seconds from the start.');
    const length = await this.d.mediaSeconds(job);
    if (length !== undefined && note.atSeconds > length + END_TOLERANCE_SECONDS)
      throw new AppError(
        'library.invalid_note',
        length === 0
          ? 'This result is a still: its notes are at 0 s.'
          : `This result is ${length.toFixed(2)} s long; a note at ${note.atSeconds.toFixed(2)} s is past its end.`,
      );
    return {
      atSeconds: length === undefined ? note.atSeconds : Math.min(note.atSeconds, length),
      text,
      rect,
    };
  }
}

const noSuchNote = () =>
  new AppError('library.note_not_found', 'There is no such note (it may have been deleted).');
