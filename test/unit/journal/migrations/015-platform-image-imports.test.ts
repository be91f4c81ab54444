import { describe, expect, it } from 'vitest';
import { migration015PlatformImageImports } from '../../../../src/main/core/journal/migrations/015-platform-image-imports.js';
import { PlatformImageImportsRepository } from '../../../../src/main/core/journal/platform-image-imports-repository.js';
import { columns, foreignKeys, migratedTo, tables } from './schema-helpers.js';

const SHA = 'a'.repeat(64);
const session = {
  idempotencyKey: 'fw-image-1',
  appId: 'app_1',
  versionId: 'appver_1',
  imageImportId: 'imgimp_1',
  fileSha256: SHA,
  sizeBytes: 2_621_440,
  partSizeBytes: 1_048_576,
  partCount: 3,
  status: 'pending',
};

describe('migration 015-platform-image-imports', () => {
  it('is version 15 and adds the imports and their parts, and no column for a URL or a token', () => {
    expect(migration015PlatformImageImports.version).toBe(15);
    const before = tables(migratedTo(14));
    const db = migratedTo(15);
    expect(
      tables(db)
        .filter((t) => !before.includes(t))
        .sort(),
    ).toEqual(['platform_image_import_parts', 'platform_image_imports']);
    const all = [
      ...Object.keys(columns(db, 'platform_image_imports')),
      ...Object.keys(columns(db, 'platform_image_import_parts')),
    ];
    expect(all.filter((c) => /url|token|signature/i.test(c))).toEqual([]);
    expect(foreignKeys(db, 'platform_image_import_parts')).toEqual([
      { table: 'platform_image_imports', from: 'idempotency_key', on_delete: 'CASCADE' },
    ]);
  });

  it('refuses a part of an unknown import, a part number below 1 and a digest that is not 64 characters', () => {
    const db = migratedTo(15);
    const repo = new PlatformImageImportsRepository(db, () => 1);
    expect(() => repo.recordPart('nope', { partNumber: 1, etag: '"x"', sizeBytes: 1 })).toThrow(
      /FOREIGN KEY/,
    );
    repo.open(session);
    expect(() =>
      repo.recordPart(session.idempotencyKey, { partNumber: 0, etag: '"x"', sizeBytes: 1 }),
    ).toThrow(/CHECK/);
    expect(() => repo.open({ ...session, idempotencyKey: 'k2', fileSha256: 'abc' })).toThrow(/CHECK/);
  });

  it('keeps the first session of a key, records parts once each (latest ETag), and the import result', () => {
    const db = migratedTo(15);
    const repo = new PlatformImageImportsRepository(db, () => 1);
    repo.open(session);
    expect(repo.open({ ...session, imageImportId: 'imgimp_other' }).imageImportId).toBe('imgimp_1');
    repo.recordPart(session.idempotencyKey, { partNumber: 2, etag: '"b"', sizeBytes: 1_048_576 });
    repo.recordPart(session.idempotencyKey, { partNumber: 1, etag: '"a"', sizeBytes: 1_048_576 });
    repo.recordPart(session.idempotencyKey, { partNumber: 2, etag: '"b2"', sizeBytes: 1_048_576 });
    expect(repo.parts(session.idempotencyKey)).toEqual([
      { partNumber: 1, etag: '"a"', sizeBytes: 1_048_576 },
      { partNumber: 2, etag: '"b2"', sizeBytes: 1_048_576 },
    ]);
    repo.setStatus(session.idempotencyKey, 'completed', {
      imageAssetId: 'imgasset_1',
      digest: `sha256:${SHA}`,
    });
    expect(repo.get(session.idempotencyKey)).toMatchObject({
      status: 'completed',
      imageAssetId: 'imgasset_1',
    });
  });
});
