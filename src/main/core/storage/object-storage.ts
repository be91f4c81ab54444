import { createHash, randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream, type ReadStream } from 'node:fs';
import { mkdir, open, readdir, rename, rm, stat, utimes } from 'node:fs/promises';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { fileTypeFromFile } from 'file-type';
import { normalizeMimeType } from '../../../shared/h3/draft.js';
import { AppError } from '../errors.js';
import type { StorageQuota } from './storage-usage.js';

/** A content address: the lowercase hex SHA-256 of the bytes. */
export const SHA256_HEX = /^[0-9a-f]{64}$/;
/** The largest object kept (the composer's largest staged file). */
export const MAX_OBJECT_BYTES = 512 * 1024 * 1024;
/** What an object whose content `file-type` does not recognise is served as. */
export const UNKNOWN_MIME = 'application/octet-stream';

export interface StoredObject {
  sha256: string;
  byteSize: number;
  /** Sniffed from the content with `file-type` (as the studio's staging does); never from a name. */
  mimeType: string;
}

export interface OpenedObject extends StoredObject {
  /** The bytes, whole or one inclusive range. */
  stream(range?: { start: number; end: number }): ReadStream;
}

/**
 * One subject's content-addressed object storage: `<root>/<sha256[0..2]>/<sha256>`. An object is
 * written to a temporary file, fsynced and renamed into place, so a reader never sees half an
 * object; the same bytes are stored once.
 */
export class ObjectStorage {
  private readonly tmpDir: string;
  /** Placing an object and the collector's removal take turns, so a reused object is never removed under a write. */
  private turn: Promise<unknown> = Promise.resolve();

  constructor(
    readonly root: string,
    private readonly maxBytes: number = MAX_OBJECT_BYTES,
    /** The person's storage quota (counted as bytes arrive; an object already stored costs nothing). */
    private readonly quota?: StorageQuota,
  ) {
    this.tmpDir = path.join(root, '.tmp');
  }

  /** Where the object of `sha256` lives; anything but a lowercase 64-hex digest is refused. */
  pathOf(sha256: string): string {
    if (!SHA256_HEX.test(sha256)) throw new AppError('file.bad_id', 'Not an object address (sha256).');
    return path.join(this.root, sha256.slice(0, 2), sha256);
  }

  /** Stores a file (by path) or a stream; returns its address, size and sniffed type. */
  async putFile(source: string | Readable): Promise<StoredObject> {
    if (typeof source === 'string') {
      const info = await stat(source).catch(() => undefined);
      if (!info?.isFile()) throw new AppError('file.not_found', `No such file: ${path.basename(source)}`);
    }
    const input = typeof source === 'string' ? createReadStream(source) : source;
    await mkdir(this.tmpDir, { recursive: true });
    const tmp = path.join(this.tmpDir, randomUUID());
    const hash = createHash('sha256');
    let byteSize = 0;
    const maxBytes = this.maxBytes;
    const quota = this.quota;
    await quota?.ready;
    // counted as it is written; released again when the same bytes were stored already
    quota?.admit(0, 1);
    let counted = 0;
    const counter = new Transform({
      transform(chunk: Buffer, _enc, done) {
        byteSize += chunk.length;
        if (byteSize > maxBytes)
          return done(new AppError('file.too_large', `The object is larger than ${maxBytes} bytes.`));
        try {
          quota?.admit(chunk.length, 0);
        } catch (error) {
          return done(error as Error);
        }
        counted += chunk.length;
        hash.update(chunk);
        done(null, chunk);
      },
    });
    try {
      await pipeline(input, counter, createWriteStream(tmp, { mode: 0o600 }));
      if (byteSize === 0) throw new AppError('file.empty', 'The object is empty.');
      const handle = await open(tmp, 'r+');
      try {
        await handle.sync();
      } finally {
        await handle.close();
      }
      const sha256 = hash.digest('hex');
      const mimeType = await sniffMime(tmp);
      const final = this.pathOf(sha256);
      await mkdir(path.dirname(final), { recursive: true });
      await this.inTurn(async () => {
        const existing = await stat(final).catch(() => undefined);
        if (existing?.isFile() && existing.size === byteSize) {
          await rm(tmp, { force: true });
          // written again now: the collector's grace period counts from this use
          const now = new Date();
          await utimes(final, now, now).catch(() => undefined);
          quota?.release(counted, 1);
        } else {
          await rename(tmp, final);
          if (existing) quota?.release(existing.size, 1);
        }
      });
      return { sha256, byteSize, mimeType };
    } catch (error) {
      await rm(tmp, { force: true });
      quota?.release(counted, 1);
      throw error;
    }
  }

  /** Every stored object (and leftover temporary file): its address, size and last write. */
  async list(): Promise<{ sha256?: string; path: string; byteSize: number; modifiedAt: number }[]> {
    const out: { sha256?: string; path: string; byteSize: number; modifiedAt: number }[] = [];
    const add = async (file: string, sha256?: string) => {
      const info = await stat(file).catch(() => undefined);
      if (info?.isFile())
        out.push({
          ...(sha256 ? { sha256 } : {}),
          path: file,
          byteSize: info.size,
          modifiedAt: info.mtimeMs,
        });
    };
    for (const prefix of await readdir(this.root).catch(() => [] as string[])) {
      if (prefix === '.tmp') {
        for (const name of await readdir(this.tmpDir).catch(() => [] as string[]))
          await add(path.join(this.tmpDir, name));
        continue;
      }
      if (!/^[0-9a-f]{2}$/.test(prefix)) continue;
      for (const name of await readdir(path.join(this.root, prefix)).catch(() => [] as string[]))
        if (SHA256_HEX.test(name) && name.startsWith(prefix))
          await add(path.join(this.root, prefix, name), name);
    }
    return out;
  }

  /**
   * Removes a listed file (an object, or a leftover temporary file) unless it was written again
   * after `notAfter` (a write reusing it), and releases its quota. True when it was removed.
   */
  remove(entry: { path: string }, notAfter: number): Promise<boolean> {
    const inside = path.relative(this.root, entry.path);
    if (inside.startsWith('..') || path.isAbsolute(inside)) throw new Error('Not a file of this storage.');
    return this.inTurn(async () => {
      const info = await stat(entry.path).catch(() => undefined);
      if (!info?.isFile() || info.mtimeMs > notAfter) return false;
      await rm(entry.path, { force: true });
      this.quota?.release(info.size, 1);
      return true;
    });
  }

  private inTurn<T>(work: () => Promise<T>): Promise<T> {
    const run = this.turn.then(work, work);
    this.turn = run.catch(() => undefined);
    return run;
  }

  /** The stored object of `sha256`, or undefined when there is none (or the address is malformed). */
  async open(sha256: string): Promise<OpenedObject | undefined> {
    if (!SHA256_HEX.test(sha256)) return undefined;
    const file = this.pathOf(sha256);
    const info = await stat(file).catch(() => undefined);
    if (!info?.isFile()) return undefined;
    const mimeType = await sniffMime(file);
    return {
      sha256,
      byteSize: info.size,
      mimeType,
      stream: (range) => createReadStream(file, range ? { start: range.start, end: range.end } : {}),
    };
  }
}

async function sniffMime(file: string): Promise<string> {
  const detected = await fileTypeFromFile(file).catch(() => undefined);
  return detected?.mime ? normalizeMimeType(detected.mime) : UNKNOWN_MIME;
}
