import type { Migration } from './migration.js';

/**
 * Notes at a frame (issue 41): `job_notes` keeps what the person saw at a moment of a result —
 * its time in seconds, the text, and optionally a rectangle drawn on the frame (in fractions of
 * the frame, 0..1 from its top-left corner, all four or none). Many per result, read in time
 * order; searched with the prompts. The result's sidecar carries them too, so a reindexed library
 * keeps them. A note goes with its job.
 */
export const migration022JobNotes: Migration = {
  version: 22,
  name: 'job-notes',
  up(db) {
    db.exec(`
      CREATE TABLE job_notes (
        id          TEXT PRIMARY KEY NOT NULL CHECK (length(id) BETWEEN 1 AND 128),
        job_row_id  INTEGER NOT NULL REFERENCES jobs (id) ON DELETE CASCADE,
        at_seconds  REAL NOT NULL CHECK (at_seconds >= 0),
        text        TEXT NOT NULL CHECK (length(trim(text)) BETWEEN 1 AND 2000),
        rect_x      REAL,
        rect_y      REAL,
        rect_width  REAL,
        rect_height REAL,
        created_at  INTEGER NOT NULL,
        updated_at  INTEGER NOT NULL,
        CHECK ((rect_x IS NULL) = (rect_y IS NULL) AND (rect_x IS NULL) = (rect_width IS NULL)
               AND (rect_x IS NULL) = (rect_height IS NULL)),
        CHECK (rect_x IS NULL OR (rect_x >= 0 AND rect_y >= 0 AND rect_width > 0 AND rect_height > 0
               AND rect_x + rect_width <= 1.000001 AND rect_y + rect_height <= 1.000001))
      ) STRICT;
      CREATE INDEX job_notes_by_job ON job_notes (job_row_id, at_seconds);
    `);
  },
};
