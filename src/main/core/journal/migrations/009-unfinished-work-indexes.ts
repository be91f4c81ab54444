import type { Migration } from './migration.js';

/**
 * Indexes that hold only unfinished work, so that what a start (or `framewright resume`) and the
 * lease sweep read costs the same whether the library holds a thousand finished jobs or a million:
 * - `jobs_in_progress`: the jobs still to poll (queued, running, cancel requested), in the order
 *   they are due (`next_poll_at`, never-scheduled first), so the resume list needs no sort;
 * - `outputs_with_temp_path`: the outputs whose partial download file exists, so the start-up
 *   sweep of `.incoming/` finds the live ones without reading every verified output.
 */
export const migration009UnfinishedWorkIndexes: Migration = {
  version: 9,
  name: 'unfinished-work-indexes',
  up(db) {
    db.exec(`
      CREATE INDEX jobs_in_progress ON jobs (next_poll_at)
        WHERE status IN ('queued', 'running', 'cancel_requested');
      CREATE INDEX outputs_with_temp_path ON outputs (job_row_id) WHERE temp_path IS NOT NULL;
    `);
  },
};
