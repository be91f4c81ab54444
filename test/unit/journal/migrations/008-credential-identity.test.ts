import BetterSqlite3 from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { runMigrations } from '../../../../src/main/core/journal/migrator.js';
import { migrations } from '../../../../src/main/core/journal/migrations/index.js';
import { columns, indexColumns } from './schema-helpers.js';

function migrated(upTo: number) {
  const db = new BetterSqlite3(':memory:');
  db.pragma('foreign_keys = ON');
  runMigrations(
    db,
    migrations.filter((m) => m.version <= upTo),
  );
  return db;
}

describe('migration 008: credential identity', () => {
  it('adds the key store per profile and the credential fingerprint per upload, keeping older rows', () => {
    const db = migrated(6);
    db.prepare(
      `INSERT INTO profiles (id, name, kind, base_url, has_secret, created_at, updated_at)
       VALUES ('p', 'P', 'personal', 'https://x/v1', 1, 1, 1)`,
    ).run();
    db.prepare(
      `INSERT INTO uploads (sha256, byte_size, profile_id, model, upload_field, asset_id, asset_kind,
         mime_type, reused, uploaded_at, expires_at)
       VALUES (?, 1, 'p', 'm', 'file', 'asset-old', 'image', 'image/png', 0, 1, 9e15)`,
    ).run('a'.repeat(64));
    runMigrations(db, migrations);
    expect(columns(db, 'profiles').secret_backend).toMatchObject({ type: 'TEXT', notnull: false });
    expect(columns(db, 'uploads').credential_fingerprint).toMatchObject({ type: 'TEXT', notnull: false });
    expect(indexColumns(db, 'uploads_reusable')).toEqual([
      'profile_id',
      'model',
      'credential_fingerprint',
      'sha256',
      'upload_field',
      'expires_at',
    ]);
    // rows from before keep their data; an upload of unknown credential has no fingerprint
    expect(db.prepare("SELECT secret_backend FROM profiles WHERE id = 'p'").get()).toEqual({
      secret_backend: null,
    });
    expect(
      db.prepare("SELECT credential_fingerprint FROM uploads WHERE asset_id = 'asset-old'").get(),
    ).toEqual({
      credential_fingerprint: null,
    });
    expect(() =>
      db.prepare("UPDATE profiles SET secret_backend = 'plain-file' WHERE id = 'p'").run(),
    ).toThrow(/CHECK/);
    expect(() =>
      db
        .prepare(
          "UPDATE uploads SET credential_fingerprint = 'the-secret-itself' WHERE asset_id = 'asset-old'",
        )
        .run(),
    ).toThrow(/CHECK/);
  });
});
