import type { Migration } from './migration.js';

/**
 * Delivery formats (issue 31): `sequence_deliveries` keeps each delivery of a sequence — a preset
 * (16:9, 9:16, 1:1) with its fit (pad or crop), the loudness target, whether captions were burned
 * in, the reuse key (a hash of the assembly's sha256, the mix plan's key, the preset, the fit, the
 * target and the captions choice: the same key answers the earlier file) and, once ready, the
 * verified file in the library folder with its sidecar, sha256 and the loudness measured on it.
 * The deliveries go with their sequence.
 */
export const migration020SequenceDeliveries: Migration = {
  version: 20,
  name: 'sequence-deliveries',
  up(db) {
    db.exec(`
      CREATE TABLE sequence_deliveries (
        id               TEXT PRIMARY KEY NOT NULL CHECK (length(id) BETWEEN 1 AND 128),
        sequence_id      TEXT NOT NULL REFERENCES sequences (id) ON DELETE CASCADE,
        preset           TEXT NOT NULL CHECK (preset IN ('16x9', '9x16', '1x1')),
        fit              TEXT NOT NULL CHECK (fit IN ('pad', 'crop')),
        loudness_target  REAL NOT NULL CHECK (loudness_target BETWEEN -70 AND 0),
        burn_captions    INTEGER NOT NULL CHECK (burn_captions IN (0, 1)),
        reuse_key        TEXT NOT NULL CHECK (length(reuse_key) = 64),
        state            TEXT NOT NULL CHECK (state IN ('rendering', 'ready', 'failed', 'cancelled')),
        -- set once ready: the verified file in the library folder and its facts
        local_path       TEXT,
        sidecar_path     TEXT,
        sha256           TEXT CHECK (sha256 IS NULL OR length(sha256) = 64),
        byte_size        INTEGER,
        duration_seconds REAL,
        measured_lufs    REAL,
        error_message    TEXT,
        created_at       INTEGER NOT NULL,
        updated_at       INTEGER NOT NULL,
        CHECK (state <> 'ready' OR (local_path IS NOT NULL AND sha256 IS NOT NULL AND byte_size IS NOT NULL))
      ) STRICT;
      CREATE INDEX sequence_deliveries_by_sequence ON sequence_deliveries (sequence_id, created_at DESC);
      CREATE INDEX sequence_deliveries_by_reuse_key ON sequence_deliveries (sequence_id, reuse_key);
    `);
  },
};
