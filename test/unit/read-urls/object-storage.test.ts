import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { beforeEach, describe, expect, it } from 'vitest';
import { ObjectStorage } from '../../../src/main/core/storage/object-storage.js';
import { tempFolder } from '../../support/worlds/temp-folder.js';

let dir: string;
beforeEach(() => {
  dir = tempFolder('fw-objects-');
});

/** A 1×1 PNG (real content, so the type is sniffed, not guessed). */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const readAll = async (s: NodeJS.ReadableStream) => {
  const chunks: Buffer[] = [];
  for await (const c of s) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
};

describe('ObjectStorage', () => {
  it('stores a file at <root>/<sha[0..2]>/<sha> with its size and sniffed type, and opens it', async () => {
    const png = path.join(dir, 'frame.png');
    writeFileSync(png, PNG);
    const bytes = PNG;
    const storage = new ObjectStorage(path.join(dir, 'objects'));
    const stored = await storage.putFile(png);
    expect(stored).toEqual({ sha256: sha(bytes), byteSize: bytes.length, mimeType: 'image/png' });
    expect(readFileSync(path.join(dir, 'objects', stored.sha256.slice(0, 2), stored.sha256))).toEqual(bytes);
    const opened = await storage.open(stored.sha256);
    expect(opened).toMatchObject(stored);
    expect(await readAll(opened!.stream())).toEqual(bytes);
    expect(await readAll(opened!.stream({ start: 1, end: 3 }))).toEqual(bytes.subarray(1, 4));
  });

  it('types by content, never by name, and stores the same bytes once (from a path or a stream)', async () => {
    const bytes = PNG;
    const misnamed = path.join(dir, 'photo.mp4');
    writeFileSync(misnamed, bytes);
    const storage = new ObjectStorage(path.join(dir, 'objects'));
    const a = await storage.putFile(misnamed);
    const b = await storage.putFile(Readable.from([bytes.subarray(0, 10), bytes.subarray(10)]));
    expect(a.mimeType).toBe('image/png');
    expect(b).toEqual(a);
    expect(readdirSync(path.join(dir, 'objects', a.sha256.slice(0, 2)))).toEqual([a.sha256]);
    expect(readdirSync(path.join(dir, 'objects', '.tmp'))).toEqual([]);
  });

  it('serves unrecognised content as application/octet-stream', async () => {
    const storage = new ObjectStorage(dir);
    const stored = await storage.putFile(Readable.from([Buffer.from('just some words')]));
    expect(stored.mimeType).toBe('application/octet-stream');
  });

  it('refuses empty and oversized content and leaves nothing behind', async () => {
    const storage = new ObjectStorage(dir, 10);
    await expect(storage.putFile(Readable.from([Buffer.alloc(0)]))).rejects.toMatchObject({
      code: 'file.empty',
    });
    await expect(storage.putFile(Readable.from([Buffer.alloc(11, 1)]))).rejects.toMatchObject({
      code: 'file.too_large',
    });
    await expect(storage.putFile(path.join(dir, 'missing.png'))).rejects.toMatchObject({
      code: 'file.not_found',
    });
    expect(readdirSync(dir)).toEqual(['.tmp']);
    expect(readdirSync(path.join(dir, '.tmp'))).toEqual([]);
  });

  it('opens nothing for an unknown or malformed address', async () => {
    const storage = new ObjectStorage(dir);
    expect(await storage.open('0'.repeat(64))).toBeUndefined();
    expect(await storage.open('../../etc/passwd')).toBeUndefined();
    expect(await storage.open('A'.repeat(64))).toBeUndefined();
    expect(() => storage.pathOf('../x')).toThrow(/address/);
  });
});
