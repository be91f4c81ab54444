import type { Database, Statement } from 'better-sqlite3';
import { NO_MARKS, type JobMarks, type MarkFlag, type MarkLabel } from '../../../shared/library-marks.js';

interface MarkRow {
  job_row_id: number;
  flag: MarkFlag | null;
  stars: number;
  label: MarkLabel | null;
}

const toMarks = (row: MarkRow): JobMarks => ({ flag: row.flag, stars: row.stars, label: row.label });

const isUnmarked = (marks: JobMarks) => marks.flag === null && marks.stars === 0 && marks.label === null;

/** The marks of library results (migration 021): pick or reject, stars, a colour label. */
export class MarksRepository {
  private readonly getStmt: Statement<[number], MarkRow>;
  private readonly forJobsStmt: Statement<[string], MarkRow>;
  private readonly upsertStmt: Statement;
  private readonly clearStmt: Statement<[number]>;

  constructor(
    db: Database,
    private readonly now: () => number = Date.now,
  ) {
    this.getStmt = db.prepare('SELECT * FROM job_marks WHERE job_row_id = ?');
    this.forJobsStmt = db.prepare(
      'SELECT * FROM job_marks WHERE job_row_id IN (SELECT value FROM json_each(?))',
    );
    this.upsertStmt = db.prepare(
      `INSERT INTO job_marks (job_row_id, flag, stars, label, updated_at)
       VALUES (@jobRowId, @flag, @stars, @label, @now)
       ON CONFLICT (job_row_id) DO UPDATE SET flag = excluded.flag, stars = excluded.stars,
         label = excluded.label, updated_at = excluded.updated_at`,
    );
    this.clearStmt = db.prepare('DELETE FROM job_marks WHERE job_row_id = ?');
  }

  /** A job's marks (the defaults when it has none). */
  get(jobRowId: number): JobMarks {
    const row = this.getStmt.get(jobRowId);
    return row ? toMarks(row) : { ...NO_MARKS };
  }

  /** The marks of each of these jobs that has any, by job row (one statement for a page). */
  forJobs(jobRowIds: readonly number[]): Map<number, JobMarks> {
    const found = new Map<number, JobMarks>();
    if (jobRowIds.length === 0) return found;
    for (const row of this.forJobsStmt.all(JSON.stringify(jobRowIds)))
      found.set(row.job_row_id, toMarks(row));
    return found;
  }

  /** Sets a job's marks as a whole; the defaults remove its row. The job must exist (foreign key). */
  set(jobRowId: number, marks: JobMarks): JobMarks {
    if (isUnmarked(marks)) this.clearStmt.run(jobRowId);
    else this.upsertStmt.run({ jobRowId, ...marks, now: this.now() });
    return this.get(jobRowId);
  }
}
