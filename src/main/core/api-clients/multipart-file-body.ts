import { once } from 'node:events';
import { createReadStream, type ReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { Writable } from 'node:stream';
import { FormDataEncoder, type FileLike } from 'form-data-encoder';
import { PROGRESS_REPORTS_PER_SECOND, throttleProgress } from './progress-throttle.js';
import { FILE_READ_CHUNK_BYTES, writeFileInto } from './write-file-into.js';

/**
 * A file on disk as the File-like `form-data-encoder` lays out (its name, type and size make the
 * part's header and the body's length). Its bytes are sent by {@link writeFileInto}; `stream()`
 * is there because a FileLike must have one.
 */
class DiskFile implements FileLike {
  readonly [Symbol.toStringTag] = 'File';
  readonly lastModified: number;
  constructor(
    private readonly filePath: string,
    readonly name: string,
    readonly type: string,
    readonly size: number,
    mtimeMs: number,
  ) {
    this.lastModified = mtimeMs;
  }
  stream(): ReadStream {
    return createReadStream(this.filePath, { highWaterMark: FILE_READ_CHUNK_BYTES });
  }
}

/** A form with exactly one file field (the upload endpoint takes one file per request). */
class SingleFileForm {
  readonly [Symbol.toStringTag] = 'FormData';
  constructor(
    private readonly field: string,
    private readonly file: DiskFile,
  ) {}
  append(): void {
    throw new Error('An upload carries exactly one file.');
  }
  getAll(name: string) {
    return name === this.field ? [this.file] : [];
  }
  *entries(): Generator<[string, DiskFile]> {
    yield [this.field, this.file];
  }
  [Symbol.iterator]() {
    return this.entries();
  }
}

/** Told how many bytes of the body were handed to the socket so far, and the body's total length. */
export type UploadProgress = (sentBytes: number, totalBytes: number) => void;

/** At most this many progress reports per second (the final one is always reported). */
export const UPLOAD_PROGRESS_PER_SECOND = PROGRESS_REPORTS_PER_SECOND;

/** A request body streamed into its target (the request) with back-pressure, then ended. */
export interface StreamedBody {
  headers: Record<string, string>;
  /** Writes the whole body into `target` and ends it; rejects (leaving `target` to the caller) on error. */
  writeTo(target: Writable): Promise<void>;
}

/** Writes one buffer, waiting for `drain` when the target asks to. */
async function writeBuffer(target: Writable, bytes: Uint8Array): Promise<void> {
  if (!target.write(bytes)) await once(target, 'drain');
}

/**
 * A `multipart/form-data` body streamed from disk with a known `Content-Length`: the boundary and
 * the parts' headers come from the encoder (never set by hand); the file's bytes go from disk to
 * the request as read, without the encoder's re-chunking (which copies every byte), so memory
 * stays flat whatever the file size. With `onProgress`, the bytes of the whole body (parts'
 * headers included) are reported as they are handed to the request, at most
 * {@link UPLOAD_PROGRESS_PER_SECOND} times a second and always at the start and the end.
 */
export async function multipartFileBody(
  field: string,
  filePath: string,
  fileName: string,
  mimeType: string,
  onProgress?: UploadProgress,
): Promise<StreamedBody> {
  const info = await stat(filePath);
  const encoder = new FormDataEncoder(
    new SingleFileForm(field, new DiskFile(filePath, fileName, mimeType, info.size, info.mtimeMs)),
  );
  const length = encoder.headers['Content-Length']!;
  const total = Number(length);
  return {
    headers: {
      'content-type': encoder.headers['Content-Type'],
      'content-length': length,
    },
    async writeTo(target) {
      const progress = throttleProgress((sent: number) => onProgress?.(sent, total));
      let sent = 0;
      const count = (bytes: number) => {
        sent += bytes;
        if (sent < total) progress.report(sent);
      };
      progress.force(0);
      // values() yields the parts' headers and footer as bytes and the file itself unread
      for (const part of encoder.values()) {
        if (part instanceof DiskFile) {
          await writeFileInto(target, filePath, info.size, count);
        } else {
          const bytes = part as Uint8Array;
          await writeBuffer(target, bytes);
          count(bytes.byteLength);
        }
      }
      target.end();
      progress.force(sent);
    },
  };
}
