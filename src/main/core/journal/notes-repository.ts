import type { Database, Statement } from 'better-sqlite3';
import type { NoteRect } from '../../../shared/library-review.js';

/** A note pinned to a time of a result (migration 022). */
export interface JobNote {
  id: string;
  jobRowId: number;
  atSeconds: number;
  text: string;
  rect: NoteRect | null;
  createdAt: number;
  updatedAt: number;
}

interface NoteRow {
  id: string;
  job_row_id: number;
  at_seconds: number;
  text: string;
  rect_x: number | null;
  rect_y: number | null;
  rect_width: number | null;
  rect_height: number | null;
  created_at: number;
  updated_at: number;
}

const toNote = (row: NoteRow): JobNote => ({
  id: row.id,
  jobRowId: row.job_row_id,
  atSeconds: row.at_seconds,
  text: row.text,
  rect:
    row.rect_x === null
      ? null
      : { x: row.rect_x, y: row.rect_y!, width: row.rect_width!, height: row.rect_height! },
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

const rectColumns = (rect: NoteRect | null) => ({
  rectX: rect?.x ?? null,
  rectY: rect?.y ?? null,
  rectWidth: rect?.width ?? null,
  rectHeight: rect?.height ?? null,
});

/** `%` and `_` of a LIKE pattern matched as themselves. */
const likeEscaped = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** Notes at a frame of library results (migration 022): many per result, in time order. */
export class NotesRepository {
  private readonly getStmt: Statement<[string], NoteRow>;
  private readonly forJobStmt: Statement<[number], NoteRow>;
  private readonly countStmt: Statement<[number], { n: number }>;
  private readonly insertStmt: Statement;
  private readonly updateStmt: Statement;
  private readonly deleteStmt: Statement<[string]>;
  private readonly searchStmt: Statement<[string, number], { job_row_id: number }>;

  constructor(
    db: Database,
    private readonly now: () => number = Date.now,
  ) {
    this.getStmt = db.prepare('SELECT * FROM job_notes WHERE id = ?');
    this.forJobStmt = db.prepare(
      'SELECT * FROM job_notes WHERE job_row_id = ? ORDER BY at_seconds, created_at, id',
    );
    this.countStmt = db.prepare('SELECT count(*) AS n FROM job_notes WHERE job_row_id = ?');
    this.insertStmt = db.prepare(
      `INSERT INTO job_notes (id, job_row_id, at_seconds, text, rect_x, rect_y, rect_width, rect_height, created_at, updated_at)
       VALUES (@id, @jobRowId, @atSeconds, @text, @rectX, @rectY, @rectWidth, @rectHeight, @createdAt, @updatedAt)`,
    );
    this.updateStmt = db.prepare(
      `UPDATE job_notes SET at_seconds = @atSeconds, text = @text, rect_x = @rectX, rect_y = @rectY,
         rect_width = @rectWidth, rect_height = @rectHeight, updated_at = @updatedAt WHERE id = @id`,
    );
    this.deleteStmt = db.prepare('DELETE FROM job_notes WHERE id = ?');
    this.searchStmt = db.prepare(
      `SELECT DISTINCT job_row_id FROM job_notes WHERE text LIKE ? ESCAPE '\\'
       ORDER BY job_row_id DESC LIMIT ?`,
    );
  }

  get(id: string): JobNote | undefined {
    const row = this.getStmt.get(id);
    return row && toNote(row);
  }

  /** A result's notes, in time order. */
  forJob(jobRowId: number): JobNote[] {
    return this.forJobStmt.all(jobRowId).map(toNote);
  }

  count(jobRowId: number): number {
    return this.countStmt.get(jobRowId)!.n;
  }

  /**
   * Adds a note (the job must exist: foreign key). `createdAt`/`updatedAt` are kept when given
   * (a reindex restores notes as they were).
   */
  add(note: Omit<JobNote, 'createdAt' | 'updatedAt'> & { createdAt?: number; updatedAt?: number }): JobNote {
    const now = this.now();
    this.insertStmt.run({
      id: note.id,
      jobRowId: note.jobRowId,
      atSeconds: note.atSeconds,
      text: note.text,
      ...rectColumns(note.rect),
      createdAt: note.createdAt ?? now,
      updatedAt: note.updatedAt ?? note.createdAt ?? now,
    });
    return this.get(note.id)!;
  }

  /** Replaces a note's time, text and rectangle (undefined: no such note). */
  update(id: string, change: Pick<JobNote, 'atSeconds' | 'text' | 'rect'>): JobNote | undefined {
    const changed = this.updateStmt.run({
      id,
      atSeconds: change.atSeconds,
      text: change.text,
      ...rectColumns(change.rect),
      updatedAt: this.now(),
    }).changes;
    return changed ? this.get(id) : undefined;
  }

  delete(id: string): boolean {
    return this.deleteStmt.run(id).changes > 0;
  }

  /** The results whose notes contain `text` (case-insensitive for ASCII), newest first. */
  jobsWithText(text: string, limit = 500): number[] {
    return this.searchStmt.all(`%${likeEscaped(text)}%`, limit).map((r) => r.job_row_id);
  }
}
