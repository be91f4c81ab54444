import type { Migration } from './migration.js';

/**
 * Stage timings (issue 15, progress everywhere): when each stage of a job began, as this process
 * saw it, so the Queue shows how long the current stage has run (and the detail the finished
 * stages), and the expected remaining time can be read from this profile's earlier jobs.
 * - `job_stage_history`: one row per change of a job's (status, stage), written in the same
 *   transaction as the acceptance or the poll answer that showed it; `started_at` is the local
 *   time it was recorded (epoch ms). Gone with its job. Jobs recorded before this migration have
 *   no history (nothing is guessed for them).
 * - `jobs_by_profile_model_status`: the succeeded jobs of a profile and model, for the estimate.
 */
export const migration013JobStageHistory: Migration = {
  version: 13,
  name: 'job-stage-history',
  up(db) {
    db.exec(`
      CREATE TABLE job_stage_history (
        id          INTEGER PRIMARY KEY,
        job_row_id  INTEGER NOT NULL REFERENCES jobs (id) ON DELETE CASCADE,
        status      TEXT NOT NULL,
        stage       TEXT,
        started_at  INTEGER NOT NULL
      ) STRICT;
      CREATE INDEX job_stage_history_by_job ON job_stage_history (job_row_id, id);
      CREATE INDEX jobs_by_profile_model_status ON jobs (profile_id, model, status, id);
    `);
  },
};
