import { describe, expect, it } from 'vitest';
import { migration002LocalFilesAndUploads } from '../../../../src/main/core/journal/migrations/002-local-files-and-uploads.js';
import { columns, foreignKeys, indexColumns, migratedTo, tables } from './schema-helpers.js';

const SHA = 'c'.repeat(64);

describe('migration 002-local-files-and-uploads', () => {
  it('is version 2', () => {
    expect(migration002LocalFilesAndUploads.version).toBe(2);
  });

  it('adds local_files and uploads', () => {
    const before = tables(migratedTo(1));
    const db = migratedTo(2);
    expect(tables(db).filter((t) => !before.includes(t))).toEqual(['local_files', 'uploads']);
    expect(Object.keys(columns(db, 'local_files'))).toEqual([
      'id',
      'path',
      'sha256',
      'byte_size',
      'modified_at',
      'detected_mime',
      'kind',
      'probe_json',
      'hashed_at',
    ]);
    expect(columns(db, 'uploads')).toMatchObject({
      sha256: { notnull: true },
      profile_id: { notnull: true },
      model: { notnull: true },
      asset_id: { notnull: true },
      expires_at: { notnull: true },
      reused: { notnull: true },
      uploaded_at: { notnull: true },
    });
    expect(foreignKeys(db, 'uploads')).toEqual([
      { table: 'profiles', from: 'profile_id', on_delete: 'CASCADE' },
    ]);
  });

  it('indexes the reuse lookup by profile, model, bytes, field and expiry', () => {
    const db = migratedTo(2);
    expect(indexColumns(db, 'uploads_reusable')).toEqual([
      'profile_id',
      'model',
      'sha256',
      'upload_field',
      'expires_at',
    ]);
    expect(indexColumns(db, 'local_files_by_sha256')).toEqual(['sha256']);
  });

  it('rejects malformed hashes and unknown upload fields', () => {
    const db = migratedTo(2);
    const file = db.prepare(
      'INSERT INTO local_files (path, sha256, byte_size, modified_at, hashed_at) VALUES (?, ?, 1, 0, 0)',
    );
    file.run('/a', SHA);
    expect(() => file.run('/b', 'C'.repeat(64))).toThrow(/CHECK/);
    expect(() => file.run('/c', 'abc')).toThrow(/CHECK/);
    db.prepare(
      "INSERT INTO profiles (id, name, kind, created_at, updated_at) VALUES ('p', 'P', 'simulator', 0, 0)",
    ).run();
    const upload = db.prepare(
      `INSERT INTO uploads (sha256, byte_size, profile_id, model, upload_field, asset_id, asset_kind, mime_type,
         reused, uploaded_at, expires_at) VALUES (?, 1, 'p', 'm', ?, ?, 'image', 'image/png', 0, 0, 1)`,
    );
    upload.run(SHA, 'image', 'asset-1');
    expect(() => upload.run(SHA, 'attachment', 'asset-2')).toThrow(/CHECK/);
    expect(() => upload.run(SHA, 'image', 'asset-1')).toThrow(/UNIQUE/);
  });
});
