import type { Migration } from './migration.js';

/**
 * Storyboards in, films out (issue 29): a sequence imported from a board of the Storyboard Helper
 * application keeps that link — `storyboard_imports` (one sequence per board while it exists: the
 * same board again answers it) and `storyboard_shot_panels` (which panel each shot came from, so a
 * shot's result goes back to its own panel). Both go with their sequence or shot.
 * `storyboard_sends` keeps each result written into a board (its content address and until when
 * its readUrl is valid), so the person's stored object is not collected while the board points at
 * it. No grant, session or signed address is kept: only the callee's ids, titles and sha256.
 */
export const migration017StoryboardLinks: Migration = {
  version: 17,
  name: 'storyboard-links',
  up(db) {
    db.exec(`
      CREATE TABLE storyboard_imports (
        sequence_id  TEXT PRIMARY KEY NOT NULL REFERENCES sequences (id) ON DELETE CASCADE,
        board_id     TEXT NOT NULL UNIQUE CHECK (length(board_id) BETWEEN 1 AND 200),
        title        TEXT NOT NULL CHECK (length(title) <= 1000),
        imported_at  INTEGER NOT NULL
      ) STRICT;
      CREATE TABLE storyboard_shot_panels (
        shot_id      TEXT PRIMARY KEY NOT NULL REFERENCES sequence_shots (id) ON DELETE CASCADE,
        sequence_id  TEXT NOT NULL REFERENCES storyboard_imports (sequence_id) ON DELETE CASCADE,
        panel_id     TEXT NOT NULL CHECK (length(panel_id) BETWEEN 1 AND 200),
        position     INTEGER NOT NULL CHECK (position >= 0)
      ) STRICT;
      CREATE INDEX storyboard_shot_panels_by_sequence ON storyboard_shot_panels (sequence_id, position);
      CREATE TABLE storyboard_sends (
        idempotency_key  TEXT PRIMARY KEY NOT NULL CHECK (length(idempotency_key) BETWEEN 1 AND 255),
        board_id         TEXT NOT NULL CHECK (length(board_id) BETWEEN 1 AND 200),
        panel_id         TEXT NOT NULL CHECK (length(panel_id) BETWEEN 1 AND 200),
        write_id         TEXT NOT NULL CHECK (length(write_id) BETWEEN 1 AND 200),
        sha256           TEXT NOT NULL CHECK (length(sha256) = 64),
        expires_at       INTEGER NOT NULL,
        sent_at          INTEGER NOT NULL
      ) STRICT;
      CREATE INDEX storyboard_sends_by_expiry ON storyboard_sends (expires_at);
    `);
  },
};
