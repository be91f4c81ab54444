import { createWriteStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import yazl from 'yazl';
import { AppError } from '../errors.js';

/**
 * A review package as one .zip (the platform's download), written by yazl as a stream: each file
 * is read from disk while the archive is written, so no video is ever held in memory whole. Media
 * are stored (they are compressed already); the package's text (HTML, CSV, JSON, README) is
 * deflated. yazl writes UTF-8 names and ZIP64 records where a size or count needs them.
 */

export interface ZipEntry {
  /** The name inside the archive, `/`-separated. */
  name: string;
  /** The file on disk. */
  file: string;
}

const DEFLATED_EXTENSIONS = /\.(html|csv|json|txt)$/i;

const stoppedError = () =>
  new AppError('library.package_failed', 'The zip of the review package was stopped; nothing was written.');

/**
 * Writes `entries` into a new archive at `zipPath` (which must not exist: the caller writes it
 * under a temporary name and renames it). `zip64: 'always'` writes the ZIP64 records even for a
 * small archive (how the tests check them without a 4 GiB file).
 */
export async function writeZip(
  entries: ZipEntry[],
  zipPath: string,
  options: { signal?: AbortSignal; zip64?: 'auto' | 'always' } = {},
): Promise<{ bytes: number; entries: number }> {
  if (options.signal?.aborted) throw stoppedError();
  const zip = new yazl.ZipFile();
  for (const entry of entries) {
    const info = await stat(entry.file);
    zip.addFile(entry.file, entry.name, {
      compress: DEFLATED_EXTENSIONS.test(entry.name),
      mtime: info.mtime,
      forceZip64Format: options.zip64 === 'always',
    });
  }
  zip.end({ forceZip64Format: options.zip64 === 'always', comment: '' });
  const out = createWriteStream(zipPath, { flags: 'wx' });
  const output = zip.outputStream as unknown as Readable;
  const stop = () => output.destroy(stoppedError());
  options.signal?.addEventListener('abort', stop, { once: true });
  try {
    await pipeline(output, out);
  } catch (error) {
    if (options.signal?.aborted) throw stoppedError();
    throw error;
  } finally {
    options.signal?.removeEventListener('abort', stop);
  }
  return { bytes: out.bytesWritten, entries: entries.length };
}
