import type { Migration } from './migration.js';

/**
 * A sequence's sound track (issue 31), besides each shot's own sound:
 * - `sequence_soundtracks`: one row per sequence that has one — the music bed (`library`: the
 *   verified audio of a job in the library, `music_job_row_id`; `generated`: an audio job of the
 *   music model made for it, found through `music_idempotency_key`, which is recorded before the
 *   billed call so a second press continues the same job), the music's gain, and how far the music
 *   ducks under a voice (`duck_db`, a positive number of dB);
 * - `sequence_voice_lines`: voice-over lines placed at `at_seconds` with their gain; `generated`
 *   lines are speech jobs of their `text` (key recorded first, like the music), `file` lines a
 *   dropped audio file kept in the library (`file_path`, `file_sha256`) whose text comes from the
 *   transcription service once (`transcript_json`: its segments, relative to the line's start).
 * Both go with their sequence. No URL, session or grant is kept.
 */
export const migration019SequenceSoundtracks: Migration = {
  version: 19,
  name: 'sequence-soundtracks',
  up(db) {
    db.exec(`
      CREATE TABLE sequence_soundtracks (
        sequence_id            TEXT PRIMARY KEY NOT NULL REFERENCES sequences (id) ON DELETE CASCADE,
        music_source           TEXT CHECK (music_source IN ('library', 'generated')),
        music_job_row_id       INTEGER,
        music_prompt           TEXT CHECK (length(music_prompt) <= 2000),
        music_model            TEXT CHECK (length(music_model) <= 200),
        music_idempotency_key  TEXT CHECK (length(music_idempotency_key) BETWEEN 1 AND 255),
        music_gain_db          REAL NOT NULL DEFAULT -12 CHECK (music_gain_db BETWEEN -60 AND 12),
        duck_db                REAL NOT NULL DEFAULT 12 CHECK (duck_db BETWEEN 0 AND 60),
        updated_at             INTEGER NOT NULL,
        CHECK (music_source IS NOT 'library' OR music_job_row_id IS NOT NULL),
        CHECK (music_source IS NOT 'generated' OR (music_idempotency_key IS NOT NULL AND music_prompt IS NOT NULL))
      ) STRICT;

      CREATE TABLE sequence_voice_lines (
        id               TEXT PRIMARY KEY NOT NULL CHECK (length(id) BETWEEN 1 AND 128),
        sequence_id      TEXT NOT NULL REFERENCES sequences (id) ON DELETE CASCADE,
        source           TEXT NOT NULL CHECK (source IN ('generated', 'file')),
        text             TEXT NOT NULL DEFAULT '' CHECK (length(text) <= 2000),
        at_seconds       REAL NOT NULL CHECK (at_seconds >= 0),
        gain_db          REAL NOT NULL DEFAULT 0 CHECK (gain_db BETWEEN -60 AND 12),
        model            TEXT CHECK (length(model) <= 200),
        speaker          TEXT CHECK (length(speaker) <= 200),
        idempotency_key  TEXT UNIQUE CHECK (length(idempotency_key) BETWEEN 1 AND 255),
        file_path        TEXT,
        file_name        TEXT CHECK (length(file_name) <= 500),
        file_sha256      TEXT CHECK (length(file_sha256) = 64),
        transcript_json  TEXT CHECK (transcript_json IS NULL OR json_valid(transcript_json)),
        created_at       INTEGER NOT NULL,
        updated_at       INTEGER NOT NULL,
        CHECK (source <> 'generated' OR (idempotency_key IS NOT NULL AND length(text) >= 1)),
        CHECK (source <> 'file' OR (file_path IS NOT NULL AND file_sha256 IS NOT NULL))
      ) STRICT;
      CREATE INDEX sequence_voice_lines_by_sequence ON sequence_voice_lines (sequence_id, at_seconds);
    `);
  },
};
