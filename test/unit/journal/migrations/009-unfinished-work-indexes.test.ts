import { describe, expect, it } from 'vitest';
import { migration009UnfinishedWorkIndexes } from '../../../../src/main/core/journal/migrations/009-unfinished-work-indexes.js';
import { indexColumns, indexSql, migratedTo, tables } from './schema-helpers.js';

describe('migration 009-unfinished-work-indexes', () => {
  it('is version 9 and adds two partial indexes that hold only unfinished work, no table', () => {
    expect(migration009UnfinishedWorkIndexes.version).toBe(9);
    expect(tables(migratedTo(9))).toEqual(tables(migratedTo(8)));
    const db = migratedTo(9);
    expect(indexColumns(db, 'jobs_in_progress')).toEqual(['next_poll_at']);
    expect(indexSql(db, 'jobs_in_progress')).toMatch(
      /WHERE status IN \('queued', 'running', 'cancel_requested'\)/,
    );
    expect(indexColumns(db, 'outputs_with_temp_path')).toEqual(['job_row_id']);
    expect(indexSql(db, 'outputs_with_temp_path')).toMatch(/WHERE temp_path IS NOT NULL/);
  });

  it('indexes a journal that already holds jobs: only the unfinished ones enter the indexes', () => {
    const db = migratedTo(8);
    db.exec(`
      INSERT INTO profiles (id, name, kind, created_at, updated_at) VALUES ('p', 'P', 'simulator', 0, 0);
      WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 100)
      INSERT INTO job_intents (id, idempotency_key, profile_id, model, service_kind, canonical_body_json,
        state, created_at, updated_at)
      SELECT i, 'k-' || i, 'p', 'h3', 'video_generation', '{}', 'accepted', 0, 0 FROM n;
      INSERT INTO jobs (id, intent_id, profile_id, model, service_kind, job_id, request_id, status,
        next_poll_at, accepted_at, updated_at)
      SELECT id, id, 'p', 'h3', 'video_generation', 'job-' || id, 'req',
        CASE WHEN id IN (7, 3) THEN 'running' ELSE 'succeeded' END,
        CASE id WHEN 7 THEN 10 WHEN 3 THEN 20 END, 0, 0 FROM job_intents;
      INSERT INTO outputs (job_row_id, position, source, asset_id, download_state, temp_path, created_at, updated_at)
      SELECT id, 0, 'outputs', 'a-' || id, CASE id WHEN 5 THEN 'downloading' ELSE 'pending' END,
        CASE id WHEN 5 THEN '/incoming/5.part' END, 0, 0 FROM jobs;
    `);
    db.transaction(() => migration009UnfinishedWorkIndexes.up(db))();
    const inProgress = db
      .prepare(
        `SELECT id FROM jobs INDEXED BY jobs_in_progress
         WHERE status IN ('queued', 'running', 'cancel_requested') ORDER BY next_poll_at`,
      )
      .pluck()
      .all();
    expect(inProgress).toEqual([7, 3]);
    const partial = db
      .prepare('SELECT job_row_id FROM outputs INDEXED BY outputs_with_temp_path WHERE temp_path IS NOT NULL')
      .pluck()
      .all();
    expect(partial).toEqual([5]);
  });
});
