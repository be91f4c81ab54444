import { describe, expect, it } from 'vitest';
import { migration007JobLeases } from '../../../../src/main/core/journal/migrations/007-job-leases.js';
import { columns, foreignKeys, indexColumns, migratedTo, tables } from './schema-helpers.js';

describe('migration 007-job-leases', () => {
  it('is version 7 and adds job_leases, one lease per intent, gone with its intent', () => {
    expect(migration007JobLeases.version).toBe(7);
    const before = tables(migratedTo(6));
    const db = migratedTo(7);
    expect(tables(db).filter((t) => !before.includes(t))).toEqual(['job_leases']);
    expect(Object.keys(columns(db, 'job_leases'))).toEqual([
      'intent_id',
      'owner',
      'owner_pid',
      'owner_host',
      'acquired_at',
      'expires_at',
    ]);
    expect(columns(db, 'job_leases').intent_id).toMatchObject({ pk: true });
    expect(foreignKeys(db, 'job_leases')).toEqual([
      { table: 'job_intents', from: 'intent_id', on_delete: 'CASCADE' },
    ]);
    expect(indexColumns(db, 'job_leases_by_owner')).toEqual(['owner']);

    db.prepare(
      "INSERT INTO profiles (id, name, kind, created_at, updated_at) VALUES ('p', 'P', 'simulator', 0, 0)",
    ).run();
    db.prepare(
      `INSERT INTO job_intents (id, idempotency_key, profile_id, model, service_kind, canonical_body_json,
         created_at, updated_at) VALUES (1, 'k-1', 'p', 'm', 'video_generation', '{}', 0, 0)`,
    ).run();
    const lease = db.prepare(
      `INSERT INTO job_leases (intent_id, owner, owner_pid, owner_host, acquired_at, expires_at)
       VALUES (@intent, 'owner-a', @pid, 'host', 0, 1)`,
    );
    lease.run({ intent: 1, pid: 10 });
    expect(() => lease.run({ intent: 1, pid: 10 })).toThrow(/UNIQUE|PRIMARY KEY/);
    expect(() => lease.run({ intent: 2, pid: 10 })).toThrow(/FOREIGN KEY/);
    db.prepare('DELETE FROM job_leases').run();
    expect(() => lease.run({ intent: 1, pid: 0 })).toThrow(/CHECK/);
    lease.run({ intent: 1, pid: 10 });
    db.prepare('DELETE FROM job_intents WHERE id = 1').run();
    expect(db.prepare('SELECT count(*) AS n FROM job_leases').get()).toEqual({ n: 0 });
  });
});
