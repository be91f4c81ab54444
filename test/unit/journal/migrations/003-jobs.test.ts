import { describe, expect, it } from 'vitest';
import { migration003Jobs } from '../../../../src/main/core/journal/migrations/003-jobs.js';
import { columns, foreignKeys, indexColumns, indexSql, migratedTo, tables } from './schema-helpers.js';

function seed(db: ReturnType<typeof migratedTo>) {
  db.prepare(
    "INSERT INTO profiles (id, name, kind, created_at, updated_at) VALUES ('p', 'P', 'simulator', 0, 0)",
  ).run();
  db.prepare(
    `INSERT INTO job_intents (id, idempotency_key, profile_id, model, service_kind, canonical_body_json, created_at, updated_at)
     VALUES (1, 'key-1', 'p', 'm', 'video_generation', '{"prompt":"x"}', 0, 0)`,
  ).run();
}

const insertJob = `INSERT INTO jobs (intent_id, profile_id, model, service_kind, job_id, request_id, status, accepted_at, updated_at)
  VALUES (?, 'p', 'm', 'video_generation', ?, 'req', ?, 0, 0)`;

describe('migration 003-jobs', () => {
  it('is version 3', () => {
    expect(migration003Jobs.version).toBe(3);
  });

  it('adds optimizations, intents, jobs and outputs', () => {
    const before = tables(migratedTo(2));
    const db = migratedTo(3);
    expect(tables(db).filter((t) => !before.includes(t))).toEqual([
      'job_intents',
      'jobs',
      'outputs',
      'prompt_optimizations',
    ]);
    expect(columns(db, 'job_intents')).toMatchObject({
      idempotency_key: { notnull: true },
      canonical_body_json: { notnull: true },
      state: { notnull: true },
    });
    for (const column of [
      'job_id',
      'request_id',
      'job_url',
      'status',
      'stage',
      'next_poll_at',
      'retryable',
      'effective_spec_json',
    ]) {
      expect(columns(db, 'jobs')).toHaveProperty(column);
    }
    expect(columns(db, 'prompt_optimizations').client_request_id).toMatchObject({ pk: true });
    expect(
      foreignKeys(db, 'jobs')
        .map((f) => `${f.from}->${f.table}:${f.on_delete}`)
        .sort(),
    ).toEqual(['intent_id->job_intents:RESTRICT', 'profile_id->profiles:RESTRICT']);
    expect(foreignKeys(db, 'outputs')).toEqual([{ table: 'jobs', from: 'job_row_id', on_delete: 'CASCADE' }]);
  });

  it('has keyset indexes for listing and partial indexes holding only unfinished rows', () => {
    const db = migratedTo(3);
    expect(indexColumns(db, 'jobs_by_status')).toEqual(['status', 'id']);
    expect(indexColumns(db, 'jobs_by_profile')).toEqual(['profile_id', 'id']);
    expect(indexColumns(db, 'jobs_by_profile_status')).toEqual(['profile_id', 'status', 'id']);
    expect(indexSql(db, 'job_intents_unfinished')).toMatch(/WHERE state IN \('pending_create', 'unknown'\)/);
    expect(indexSql(db, 'outputs_unverified')).toMatch(
      /WHERE download_state IN \('pending', 'downloading'\)/,
    );
    expect(indexSql(db, 'prompt_optimizations_unfinished')).toMatch(
      /WHERE state IN \('pending', 'unknown'\)/,
    );
  });

  it('allows one idempotency key, one job per intent and one jobId per profile', () => {
    const db = migratedTo(3);
    seed(db);
    expect(() =>
      db
        .prepare(
          `INSERT INTO job_intents (idempotency_key, profile_id, model, service_kind, canonical_body_json, created_at, updated_at)
           VALUES ('key-1', 'p', 'm', 'video_generation', '{}', 0, 0)`,
        )
        .run(),
    ).toThrow(/UNIQUE/);
    db.prepare(insertJob).run(1, 'job-1', 'queued');
    expect(() => db.prepare(insertJob).run(1, 'job-2', 'queued')).toThrow(/UNIQUE/);
  });

  it('rejects unknown statuses and states, and a verified output without its checked file', () => {
    const db = migratedTo(3);
    seed(db);
    expect(() => db.prepare(insertJob).run(1, 'job-1', 'done')).toThrow(/CHECK/);
    expect(() => db.prepare("UPDATE job_intents SET state = 'sent' WHERE id = 1").run()).toThrow(/CHECK/);
    db.prepare(insertJob).run(1, 'job-1', 'succeeded');
    expect(() =>
      db
        .prepare(
          `INSERT INTO outputs (job_row_id, position, source, asset_id, download_state, created_at, updated_at)
           VALUES (1, 0, 'outputs', 'a', 'verified', 0, 0)`,
        )
        .run(),
    ).toThrow(/CHECK/);
  });

  it('keeps a profile that owns jobs, and checks clientRequestId like the spec', () => {
    const db = migratedTo(3);
    seed(db);
    expect(() => db.prepare("DELETE FROM profiles WHERE id = 'p'").run()).toThrow(/FOREIGN KEY/);
    const opt = db.prepare(
      `INSERT INTO prompt_optimizations (client_request_id, profile_id, model, generation_mode, canonical_body_json, created_at, updated_at)
       VALUES (?, 'p', 'm', 't2v', '{}', 0, 0)`,
    );
    opt.run('opt-0001');
    expect(() => opt.run('short')).toThrow(/CHECK/);
    expect(() => opt.run('has space in it')).toThrow(/CHECK/);
  });

  it('never lets an intent or optimization change its key, profile, model or body', () => {
    const db = migratedTo(3);
    seed(db);
    expect(() =>
      db.prepare(`UPDATE job_intents SET canonical_body_json = '{"prompt":"y"}' WHERE id = 1`).run(),
    ).toThrow(/never change/);
    expect(() => db.prepare("UPDATE job_intents SET idempotency_key = 'key-2' WHERE id = 1").run()).toThrow(
      /never change/,
    );
    db.prepare("UPDATE job_intents SET state = 'unknown', attempt_count = 1 WHERE id = 1").run();
    db.prepare(
      `INSERT INTO prompt_optimizations (client_request_id, profile_id, model, generation_mode, canonical_body_json, created_at, updated_at)
       VALUES ('opt-0001', 'p', 'm', 't2v', '{}', 0, 0)`,
    ).run();
    expect(() => db.prepare(`UPDATE prompt_optimizations SET canonical_body_json = '[]'`).run()).toThrow(
      /never change/,
    );
  });
});
