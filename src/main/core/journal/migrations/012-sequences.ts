import type { Migration } from './migration.js';

/**
 * Sequences (issue 15): an ordered list of shots, each a studio draft, and the sequence's
 * assemblies (one MP4 rendered offline from the shots' verified results).
 * - `sequences`: a named list; deleting one removes its shots and assemblies (their drafts, jobs
 *   and library files of the shots stay);
 * - `sequence_shots`: one row per shot, `position` unique in its sequence (0-based, no gaps),
 *   `origin` how it was made and `source_shot_ids_json` the shots it was made from;
 * - `sequence_assemblies`: one per rendered combination (`fingerprint` = the shots' results, their
 *   order, the cross-fade and the canvas), so re-assembling an unchanged sequence reuses its file.
 */
export const migration012Sequences: Migration = {
  version: 12,
  name: 'sequences',
  up(db) {
    db.exec(`
      CREATE TABLE sequences (
        id          TEXT PRIMARY KEY NOT NULL CHECK (length(id) BETWEEN 1 AND 128),
        name        TEXT NOT NULL CHECK (length(trim(name)) BETWEEN 1 AND 120),
        created_at  INTEGER NOT NULL,
        updated_at  INTEGER NOT NULL
      ) STRICT;

      CREATE TABLE sequence_shots (
        id                    TEXT PRIMARY KEY NOT NULL CHECK (length(id) BETWEEN 1 AND 128),
        sequence_id           TEXT NOT NULL REFERENCES sequences (id) ON DELETE CASCADE,
        position              INTEGER NOT NULL CHECK (position >= 0),
        draft_id              TEXT NOT NULL REFERENCES drafts (id) ON DELETE RESTRICT,
        origin                TEXT NOT NULL CHECK (origin IN ('new', 'continue', 'bridge')),
        source_shot_ids_json  TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(source_shot_ids_json)),
        created_at            INTEGER NOT NULL,
        UNIQUE (sequence_id, position)
      ) STRICT;
      CREATE INDEX sequence_shots_by_draft ON sequence_shots (draft_id);

      CREATE TABLE sequence_assemblies (
        id                 TEXT PRIMARY KEY NOT NULL CHECK (length(id) BETWEEN 1 AND 128),
        sequence_id        TEXT NOT NULL REFERENCES sequences (id) ON DELETE CASCADE,
        fingerprint        TEXT NOT NULL,
        state              TEXT NOT NULL CHECK (state IN ('assembling', 'ready', 'failed')),
        crossfade_seconds  REAL NOT NULL CHECK (crossfade_seconds >= 0),
        -- set once ready: the verified file in the library folder and its facts
        local_path         TEXT,
        sidecar_path       TEXT,
        sha256             TEXT,
        byte_size          INTEGER,
        duration_seconds   REAL,
        chapters_json      TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(chapters_json)),
        error_message      TEXT,
        created_at         INTEGER NOT NULL,
        updated_at         INTEGER NOT NULL,
        CHECK (state <> 'ready' OR (local_path IS NOT NULL AND sha256 IS NOT NULL AND byte_size IS NOT NULL))
      ) STRICT;
      CREATE INDEX sequence_assemblies_by_sequence ON sequence_assemblies (sequence_id, created_at DESC);
      CREATE INDEX sequence_assemblies_by_fingerprint ON sequence_assemblies (sequence_id, fingerprint);
    `);
  },
};
