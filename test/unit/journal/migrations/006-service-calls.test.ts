import { describe, expect, it } from 'vitest';
import { migration006ServiceCalls } from '../../../../src/main/core/journal/migrations/006-service-calls.js';
import { columns, foreignKeys, indexColumns, migratedTo, tables } from './schema-helpers.js';

function withProfile(db: ReturnType<typeof migratedTo>) {
  db.prepare(
    "INSERT INTO profiles (id, name, kind, created_at, updated_at) VALUES ('p', 'P', 'simulator', 0, 0)",
  ).run();
  return db;
}

const insert = (db: ReturnType<typeof migratedTo>, values: Record<string, unknown> = {}) =>
  db
    .prepare(
      `INSERT INTO service_calls (profile_id, model, operation, state, request_summary_json, started_at)
       VALUES (@profile, @model, @operation, @state, @request, 1)`,
    )
    .run({ profile: 'p', model: 'm', operation: 'embeddings', state: 'sent', request: '{}', ...values });

describe('migration 006-service-calls', () => {
  it('is version 6 and adds the service_calls table with its listing indexes', () => {
    expect(migration006ServiceCalls.version).toBe(6);
    const before = tables(migratedTo(5));
    const db = migratedTo(6);
    expect(tables(db).filter((t) => !before.includes(t))).toEqual(['service_calls']);
    const cols = columns(db, 'service_calls');
    expect(Object.keys(cols)).toEqual([
      'id',
      'profile_id',
      'model',
      'operation',
      'state',
      'request_summary_json',
      'request_id',
      'status_code',
      'error_code',
      'error_message',
      'response_summary_json',
      'usage_json',
      'started_at',
      'finished_at',
    ]);
    expect(cols.request_summary_json).toMatchObject({ notnull: true });
    expect(cols.finished_at).toMatchObject({ notnull: false });
    expect(foreignKeys(db, 'service_calls')).toEqual([
      { table: 'profiles', from: 'profile_id', on_delete: 'CASCADE' },
    ]);
    expect(indexColumns(db, 'service_calls_by_profile')).toEqual(['profile_id', 'id']);
    expect(indexColumns(db, 'service_calls_by_profile_operation')).toEqual(['profile_id', 'operation', 'id']);
  });

  it('checks operation, state and JSON, and cascades with the profile', () => {
    const db = withProfile(migratedTo(6));
    insert(db);
    expect(() => insert(db, { operation: 'chat' })).toThrow(/CHECK/);
    expect(() => insert(db, { state: 'pending' })).toThrow(/CHECK/);
    expect(() => insert(db, { request: 'not json' })).toThrow(/CHECK/);
    expect(() => insert(db, { profile: 'nobody' })).toThrow(/FOREIGN KEY/);
    expect(() => db.prepare("UPDATE service_calls SET usage_json = '{'").run()).toThrow(/CHECK/);
    db.prepare("DELETE FROM profiles WHERE id = 'p'").run();
    expect(db.prepare('SELECT count(*) FROM service_calls').pluck().get()).toBe(0);
  });
});
