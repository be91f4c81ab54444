import { describe, expect, it } from 'vitest';
import { migration001Initial } from '../../../../src/main/core/journal/migrations/001-initial.js';
import { columns, foreignKeys, migratedTo, tables } from './schema-helpers.js';

describe('migration 001-initial', () => {
  it('is version 1', () => {
    expect(migration001Initial.version).toBe(1);
  });

  it('creates profiles, settings, drafts and the discovery cache', () => {
    const db = migratedTo(1);
    expect(tables(db)).toEqual(['discovery_cache', 'drafts', 'profiles', 'schema_migrations', 'settings']);
    expect(Object.keys(columns(db, 'profiles')).sort()).toEqual(
      [
        'base_url',
        'created_at',
        'debug_token_expires_at',
        'has_secret',
        'id',
        'kind',
        'name',
        'updated_at',
      ].sort(),
    );
    expect(foreignKeys(db, 'discovery_cache')).toEqual([
      { table: 'profiles', from: 'profile_id', on_delete: 'CASCADE' },
    ]);
  });

  it('has no column that could hold a secret', () => {
    const db = migratedTo(1);
    for (const table of tables(db)) {
      for (const column of Object.keys(columns(db, table))) {
        // A flag and an expiry time, not the secret itself.
        if (column === 'has_secret' || column === 'debug_token_expires_at') continue;
        expect(column).not.toMatch(/secret|token|password|api_?key|credential|authori[sz]ation/);
      }
    }
  });

  it('enforces profile kinds, a base URL for non-simulator profiles and unique names ignoring case', () => {
    const db = migratedTo(1);
    const insert = db.prepare(
      'INSERT INTO profiles (id, name, kind, base_url, created_at, updated_at) VALUES (?, ?, ?, ?, 0, 0)',
    );
    insert.run('a', 'Local', 'simulator', null);
    expect(() => insert.run('b', 'Other', 'robot', null)).toThrow(/CHECK/);
    expect(() => insert.run('c', 'Personal', 'personal', null)).toThrow(/CHECK/);
    expect(() => insert.run('d', 'local', 'simulator', null)).toThrow(/UNIQUE/);
    insert.run('e', 'Mine', 'personal', 'https://api.example.com/v1');
  });

  it('keeps JSON columns valid', () => {
    const db = migratedTo(1);
    expect(() => db.prepare("INSERT INTO settings VALUES ('k', '{not json', 0)").run()).toThrow(/CHECK/);
    expect(() => db.prepare("INSERT INTO drafts VALUES ('d', 'nope', 0, 0)").run()).toThrow(/CHECK/);
  });

  it('drops the discovery cache with its profile', () => {
    const db = migratedTo(1);
    db.prepare(
      "INSERT INTO profiles (id, name, kind, created_at, updated_at) VALUES ('p', 'P', 'simulator', 0, 0)",
    ).run();
    db.prepare("INSERT INTO discovery_cache VALUES ('p', 'services', 0, '{}')").run();
    db.prepare("DELETE FROM profiles WHERE id = 'p'").run();
    expect(db.prepare('SELECT count(*) FROM discovery_cache').pluck().get()).toBe(0);
  });
});
