import type { Migration } from './migration.js';

/**
 * Storyboards in, films out (issue 29): a sequence imported from a board of the Storyboard Helper
 * application keeps that link — `storyboard_imports` (one sequence per board while it exists: the
 * same board again answers it) and `storyboard_shot_panels` (which panel each shot came from, so a
 * shot's result goes back to its own panel). Both go with their sequence or shot. No grant, session
 * or signed address is kept: only the callee's ids and the board's title.
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
    `);
  },
};
