import { createReadStream } from 'node:fs';
import { open, readFile, stat, type FileHandle } from 'node:fs/promises';
import { crc32, deflateRawSync } from 'node:zlib';
import { AppError } from '../errors.js';

/**
 * A minimal streaming ZIP writer (PKWARE APPNOTE 6.3): each file is read twice from disk — once
 * for its CRC-32, once copied into the archive — so no file is ever held in memory whole, and each
 * local header carries its real sizes (no data descriptors, which some readers refuse on stored
 * entries). Media are stored (they are compressed already); small text files (≤ 16 MiB: the HTML,
 * CSV, JSON and README a package writes) are deflated. Names are UTF-8 (flag bit 11). ZIP64
 * records are written when a size or offset passes 4 GiB or there are 65,535 entries or more.
 */

export interface ZipEntry {
  /** The name inside the archive, `/`-separated. */
  name: string;
  /** The file on disk. */
  file: string;
}

const DEFLATED_EXTENSIONS = /\.(html|csv|json|txt)$/i;
const DEFLATE_LIMIT = 16 * 1024 * 1024;
const MAX32 = 0xffff_ffff;
const MAX16 = 0xffff;

function dosDateTime(date: Date): { time: number; date: number } {
  const year = Math.max(1980, Math.min(2107, date.getFullYear()));
  return {
    time: (date.getHours() << 11) | (date.getMinutes() << 5) | Math.floor(date.getSeconds() / 2),
    date: ((year - 1980) << 9) | ((date.getMonth() + 1) << 5) | date.getDate(),
  };
}

function stopped(signal: AbortSignal | undefined): void {
  if (signal?.aborted)
    throw new AppError(
      'library.package_failed',
      'The zip of the review package was stopped; nothing was written.',
    );
}

async function crcOfFile(file: string, signal?: AbortSignal): Promise<{ crc: number; size: number }> {
  let crc = 0;
  let size = 0;
  for await (const chunk of createReadStream(file, { highWaterMark: 1024 * 1024 })) {
    stopped(signal);
    crc = crc32(chunk as Buffer, crc);
    size += (chunk as Buffer).length;
  }
  return { crc, size };
}

interface Written {
  name: Buffer;
  crc: number;
  method: number;
  compressed: number;
  size: number;
  offset: number;
  time: number;
  date: number;
}

/** The ZIP64 extended-information extra field with the given 8-byte values (none: no field). */
function zip64Extra(values: number[]): Buffer {
  if (values.length === 0) return Buffer.alloc(0);
  const extra = Buffer.alloc(4 + 8 * values.length);
  extra.writeUInt16LE(0x0001, 0);
  extra.writeUInt16LE(8 * values.length, 2);
  values.forEach((v, i) => extra.writeBigUInt64LE(BigInt(v), 4 + 8 * i));
  return extra;
}

/**
 * Writes `entries` into a new archive at `zipPath` (the caller writes it under a temporary name
 * and renames it). `zip64: 'always'` writes the ZIP64 records even for a small archive (how the
 * tests check them without a 4 GiB file).
 */
export async function writeZip(
  entries: ZipEntry[],
  zipPath: string,
  options: { signal?: AbortSignal; zip64?: 'auto' | 'always' } = {},
): Promise<{ bytes: number; entries: number }> {
  const always = options.zip64 === 'always';
  const out: FileHandle = await open(zipPath, 'wx');
  let offset = 0;
  const put = async (buffer: Buffer) => {
    let done = 0;
    while (done < buffer.length) {
      const { bytesWritten } = await out.write(buffer, done, buffer.length - done, offset + done);
      done += bytesWritten;
    }
    offset += buffer.length;
  };
  const written: Written[] = [];
  try {
    for (const entry of entries) {
      stopped(options.signal);
      const name = Buffer.from(entry.name, 'utf8');
      if (name.length > MAX16)
        throw new AppError('library.package_failed', `A name in the zip is too long: ${entry.name}`);
      const info = await stat(entry.file);
      const { time, date } = dosDateTime(info.mtime);
      const deflate = DEFLATED_EXTENSIONS.test(entry.name) && info.size <= DEFLATE_LIMIT;
      let crc: number;
      let size: number;
      let body: Buffer | undefined;
      if (deflate) {
        const bytes = await readFile(entry.file);
        crc = crc32(bytes);
        size = bytes.length;
        body = deflateRawSync(bytes);
      } else {
        ({ crc, size } = await crcOfFile(entry.file, options.signal));
      }
      const compressed = body ? body.length : size;
      const large = always || size >= MAX32 || compressed >= MAX32;
      const extra = zip64Extra(large ? [size, compressed] : []);
      const header = Buffer.alloc(30);
      header.writeUInt32LE(0x04034b50, 0);
      header.writeUInt16LE(large ? 45 : 20, 4);
      header.writeUInt16LE(0x0800, 6);
      header.writeUInt16LE(body ? 8 : 0, 8);
      header.writeUInt16LE(time, 10);
      header.writeUInt16LE(date, 12);
      header.writeUInt32LE(crc >>> 0, 14);
      header.writeUInt32LE(large ? MAX32 : compressed, 18);
      header.writeUInt32LE(large ? MAX32 : size, 22);
      header.writeUInt16LE(name.length, 26);
      header.writeUInt16LE(extra.length, 28);
      const at = offset;
      await put(Buffer.concat([header, name, extra]));
      if (body) await put(body);
      else {
        let copied = 0;
        for await (const chunk of createReadStream(entry.file, { highWaterMark: 1024 * 1024 })) {
          stopped(options.signal);
          copied += (chunk as Buffer).length;
          await put(chunk as Buffer);
        }
        if (copied !== size)
          throw new AppError(
            'library.package_failed',
            `${entry.name} changed while it was zipped; try again.`,
          );
      }
      written.push({ name, crc, method: body ? 8 : 0, compressed, size, offset: at, time, date });
    }

    const centralStart = offset;
    for (const w of written) {
      const big = [always || w.size >= MAX32, always || w.compressed >= MAX32, always || w.offset >= MAX32];
      const extra = zip64Extra([w.size, w.compressed, w.offset].filter((_, i) => big[i]));
      const header = Buffer.alloc(46);
      header.writeUInt32LE(0x02014b50, 0);
      header.writeUInt16LE((3 << 8) | 45, 4); // made by: Unix, 4.5
      header.writeUInt16LE(extra.length ? 45 : 20, 6);
      header.writeUInt16LE(0x0800, 8);
      header.writeUInt16LE(w.method, 10);
      header.writeUInt16LE(w.time, 12);
      header.writeUInt16LE(w.date, 14);
      header.writeUInt32LE(w.crc >>> 0, 16);
      header.writeUInt32LE(big[1] ? MAX32 : w.compressed, 20);
      header.writeUInt32LE(big[0] ? MAX32 : w.size, 24);
      header.writeUInt16LE(w.name.length, 28);
      header.writeUInt16LE(extra.length, 30);
      header.writeUInt16LE(0, 32); // comment
      header.writeUInt16LE(0, 34); // disk
      header.writeUInt16LE(0, 36); // internal attributes
      header.writeUInt32LE((0o100644 << 16) >>> 0, 38); // external: a regular file, rw-r--r--
      header.writeUInt32LE(big[2] ? MAX32 : w.offset, 42);
      await put(Buffer.concat([header, w.name, extra]));
    }
    const centralSize = offset - centralStart;
    const count = written.length;
    const needs64 = always || count >= MAX16 || centralStart >= MAX32 || centralSize >= MAX32;
    if (needs64) {
      const record = Buffer.alloc(56);
      record.writeUInt32LE(0x06064b50, 0);
      record.writeBigUInt64LE(44n, 4);
      record.writeUInt16LE((3 << 8) | 45, 12);
      record.writeUInt16LE(45, 14);
      record.writeUInt32LE(0, 16);
      record.writeUInt32LE(0, 20);
      record.writeBigUInt64LE(BigInt(count), 24);
      record.writeBigUInt64LE(BigInt(count), 32);
      record.writeBigUInt64LE(BigInt(centralSize), 40);
      record.writeBigUInt64LE(BigInt(centralStart), 48);
      const locator = Buffer.alloc(20);
      locator.writeUInt32LE(0x07064b50, 0);
      locator.writeUInt32LE(0, 4);
      locator.writeBigUInt64LE(BigInt(offset), 8);
      locator.writeUInt32LE(1, 16);
      await put(Buffer.concat([record, locator]));
    }
    const end = Buffer.alloc(22);
    end.writeUInt32LE(0x06054b50, 0);
    end.writeUInt16LE(0, 4);
    end.writeUInt16LE(0, 6);
    end.writeUInt16LE(needs64 ? MAX16 : count, 8);
    end.writeUInt16LE(needs64 ? MAX16 : count, 10);
    end.writeUInt32LE(needs64 ? MAX32 : centralSize, 12);
    end.writeUInt32LE(needs64 ? MAX32 : centralStart, 16);
    end.writeUInt16LE(0, 20);
    await put(end);
    await out.sync();
  } finally {
    await out.close();
  }
  return { bytes: offset, entries: written.length };
}
