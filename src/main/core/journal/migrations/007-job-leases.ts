import type { Migration } from './migration.js';

/**
 * Job leases: which process works a job intent (its creation, polling and download) right now, so
 * that two processes on one data folder (the app and a CLI, or two CLIs) never work the same job.
 * A lease names its owner (a per-process id, with its pid and host so that a dead owner on this
 * machine is recognised at once) and expires unless renewed; an expired lease is free.
 */
export const migration007JobLeases: Migration = {
  version: 7,
  name: 'job-leases',
  up(db) {
    db.exec(`
      CREATE TABLE job_leases (
        intent_id    INTEGER PRIMARY KEY REFERENCES job_intents (id) ON DELETE CASCADE,
        owner        TEXT NOT NULL CHECK (length(owner) BETWEEN 1 AND 200),
        owner_pid    INTEGER NOT NULL CHECK (owner_pid > 0),
        owner_host   TEXT NOT NULL,
        acquired_at  INTEGER NOT NULL,
        expires_at   INTEGER NOT NULL
      ) STRICT;
      CREATE INDEX job_leases_by_owner ON job_leases (owner);
    `);
  },
};
