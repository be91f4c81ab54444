import type { Migration } from './migration.js';

/**
 * Removed shots (issue 40: undo on the timeline): a shot taken out of a sequence is kept here with
 * its place, draft, origin and trim, so `sequences.restoreShot` puts the very same shot back (its
 * draft and verified result, nothing generated again). Restoring takes it out of this table; the
 * sequence's removal takes its removed shots along.
 */
export const migration025RemovedShots: Migration = {
  version: 25,
  name: 'removed-shots',
  up(db) {
    db.exec(`
      CREATE TABLE sequence_removed_shots (
        id                   TEXT PRIMARY KEY NOT NULL CHECK (length(id) BETWEEN 1 AND 128),
        sequence_id          TEXT NOT NULL REFERENCES sequences (id) ON DELETE CASCADE,
        position             INTEGER NOT NULL CHECK (position >= 0),
        draft_id             TEXT NOT NULL REFERENCES drafts (id) ON DELETE CASCADE,
        origin               TEXT NOT NULL CHECK (origin IN ('new', 'continue', 'bridge')),
        source_shot_ids_json TEXT NOT NULL CHECK (json_valid(source_shot_ids_json)),
        trim_json            TEXT CHECK (trim_json IS NULL OR json_valid(trim_json)),
        created_at           INTEGER NOT NULL,
        removed_at           INTEGER NOT NULL
      ) STRICT;
      CREATE INDEX sequence_removed_shots_by_sequence ON sequence_removed_shots (sequence_id);
    `);
  },
};
