import type BetterSqlite3 from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migration013JobStageHistory } from '../../../../src/main/core/journal/migrations/013-job-stage-history.js';
import { columns, foreignKeys, indexColumns, migratedTo, tables } from './schema-helpers.js';

const seedJob = (db: BetterSqlite3.Database) =>
  db.exec(`
    INSERT INTO profiles (id, name, kind, created_at, updated_at) VALUES ('p', 'P', 'simulator', 0, 0);
    INSERT INTO job_intents (id, idempotency_key, profile_id, model, service_kind, canonical_body_json,
      state, created_at, updated_at) VALUES (1, 'k-1', 'p', 'm', 'video_generation', '{}', 'accepted', 0, 0);
    INSERT INTO jobs (id, intent_id, profile_id, model, service_kind, job_id, request_id, status,
      accepted_at, updated_at) VALUES (7, 1, 'p', 'm', 'video_generation', 'job-1', 'req-1', 'queued', 0, 0);
  `);

describe('migration 013-job-stage-history', () => {
  it('is version 13 and adds the stage history of a job, and an index for the estimate', () => {
    expect(migration013JobStageHistory.version).toBe(13);
    const before = tables(migratedTo(12));
    const db = migratedTo(13);
    expect(tables(db).filter((t) => !before.includes(t))).toEqual(['job_stage_history']);
    expect(columns(db, 'job_stage_history')).toEqual({
      id: { type: 'INTEGER', notnull: false, pk: true },
      job_row_id: { type: 'INTEGER', notnull: true, pk: false },
      status: { type: 'TEXT', notnull: true, pk: false },
      stage: { type: 'TEXT', notnull: false, pk: false },
      started_at: { type: 'INTEGER', notnull: true, pk: false },
    });
    expect(foreignKeys(db, 'job_stage_history')).toEqual([
      { table: 'jobs', from: 'job_row_id', on_delete: 'CASCADE' },
    ]);
    expect(indexColumns(db, 'job_stage_history_by_job')).toEqual(['job_row_id', 'id']);
    expect(indexColumns(db, 'jobs_by_profile_model_status')).toEqual(['profile_id', 'model', 'status', 'id']);
  });

  it('keeps existing jobs (with no history); a history row needs its job and goes with it', () => {
    const db = migratedTo(12);
    seedJob(db);
    db.transaction(() => migration013JobStageHistory.up(db))();
    expect(db.prepare('SELECT count(*) AS n FROM job_stage_history').get()).toEqual({ n: 0 });
    expect(db.prepare('SELECT status FROM jobs WHERE id = 7').get()).toEqual({ status: 'queued' });

    const add = db.prepare(
      'INSERT INTO job_stage_history (job_row_id, status, stage, started_at) VALUES (?, ?, ?, ?)',
    );
    add.run(7, 'queued', 'queued', 1000);
    add.run(7, 'running', null, 2000);
    expect(() => add.run(8, 'queued', 'queued', 1000)).toThrow(/FOREIGN KEY/);
    expect(() => add.run(7, null, 'x', 1000)).toThrow(/NOT NULL/);
    expect(() => add.run(7, 'running', 'x', 'soon')).toThrow(/cannot store TEXT value in INTEGER column/);
    db.prepare('DELETE FROM jobs WHERE id = 7').run();
    expect(db.prepare('SELECT count(*) AS n FROM job_stage_history').get()).toEqual({ n: 0 });
  });
});
