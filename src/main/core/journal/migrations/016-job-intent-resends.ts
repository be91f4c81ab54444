import type { Migration } from './migration.js';

/**
 * Resends after `404 asset_not_found` (issue 27): a create refused because an input asset had
 * expired is sent again, after the inputs are uploaded again, as a new business attempt under a
 * key derived from the first (`<first key>.r<attempt>`), never under the first key with another
 * body. `job_intent_resends` ties the derived intent to the refused first intent and its attempt
 * number, in the same transaction that records the derived intent, so a crash between the refusal
 * and the resend replays the one derived key, never a third. A row goes with either intent.
 */
export const migration016JobIntentResends: Migration = {
  version: 16,
  name: 'job-intent-resends',
  up(db) {
    db.exec(`
      CREATE TABLE job_intent_resends (
        intent_id        INTEGER PRIMARY KEY NOT NULL REFERENCES job_intents (id) ON DELETE CASCADE,
        first_intent_id  INTEGER NOT NULL REFERENCES job_intents (id) ON DELETE CASCADE,
        attempt          INTEGER NOT NULL CHECK (attempt >= 2),
        CHECK (intent_id <> first_intent_id),
        UNIQUE (first_intent_id, attempt)
      ) STRICT;
    `);
  },
};
