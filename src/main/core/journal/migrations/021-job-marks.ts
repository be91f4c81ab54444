import type { Migration } from './migration.js';

/**
 * Marks (issue 41): `job_marks` keeps what the person decided about a result — pick or reject
 * (none: unmarked), 0–5 stars and a colour label — one row per job that has any (a row of the
 * defaults is removed, not kept). The sidecar next to the result carries the same marks, so a
 * reindexed library keeps them. A row goes with its job.
 */
export const migration021JobMarks: Migration = {
  version: 21,
  name: 'job-marks',
  up(db) {
    db.exec(`
      CREATE TABLE job_marks (
        job_row_id INTEGER PRIMARY KEY NOT NULL REFERENCES jobs (id) ON DELETE CASCADE,
        flag       TEXT CHECK (flag IS NULL OR flag IN ('pick', 'reject')),
        stars      INTEGER NOT NULL DEFAULT 0 CHECK (stars BETWEEN 0 AND 5),
        label      TEXT CHECK (label IS NULL OR label IN ('red', 'yellow', 'green', 'blue', 'purple')),
        updated_at INTEGER NOT NULL
      ) STRICT;
    `);
  },
};
