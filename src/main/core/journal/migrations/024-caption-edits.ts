import type { Migration } from './migration.js';

/**
 * Caption edits (issue 40): a caption cue's times moved by hand on the timeline. A cue is made from
 * its voice line (its text split into cues, or a file's transcript), so an edit names the line and
 * the cue's index in it, keeps the cue's text (the edit applies only while the cue still reads the
 * same: re-wording the line drops it) and holds its start and end in seconds from the line's start
 * (moving the line moves its captions along). It goes with its line.
 */
export const migration024CaptionEdits: Migration = {
  version: 24,
  name: 'caption-edits',
  up(db) {
    db.exec(`
      CREATE TABLE sequence_caption_edits (
        line_id       TEXT NOT NULL REFERENCES sequence_voice_lines (id) ON DELETE CASCADE,
        cue_index     INTEGER NOT NULL CHECK (cue_index >= 0),
        cue_text      TEXT NOT NULL CHECK (length(cue_text) <= 2000),
        start_offset  REAL NOT NULL,
        end_offset    REAL NOT NULL,
        updated_at    INTEGER NOT NULL,
        PRIMARY KEY (line_id, cue_index),
        CHECK (end_offset > start_offset)
      ) STRICT, WITHOUT ROWID;
    `);
  },
};
