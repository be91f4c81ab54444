import type { Migration } from './migration.js';

/**
 * Variations (issue 15): "Generate ×N" makes N job intents from one draft that differ only in
 * seed. `job_variations` ties each intent to its group (one per draft key), its position in it
 * (0-based) and the group's size, so the Queue and the Library show the N jobs as one group after
 * a restart. A row goes with its intent.
 */
export const migration014JobVariations: Migration = {
  version: 14,
  name: 'job-variations',
  up(db) {
    db.exec(`
      CREATE TABLE job_variations (
        intent_id  INTEGER PRIMARY KEY NOT NULL REFERENCES job_intents (id) ON DELETE CASCADE,
        group_id   TEXT NOT NULL CHECK (length(group_id) BETWEEN 1 AND 128),
        position   INTEGER NOT NULL CHECK (position >= 0),
        count      INTEGER NOT NULL CHECK (count BETWEEN 2 AND 8),
        CHECK (position < count),
        UNIQUE (group_id, position)
      ) STRICT;
    `);
  },
};
