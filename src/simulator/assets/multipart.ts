import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import path from 'node:path';
import busboy from 'busboy';
import { ApiError } from '../errors.js';
import { newId } from '../http.js';

export interface ReceivedFile {
  fieldName: string;
  filename: string;
  /** MIME type declared by the part header (not trusted for uploads; used by transcription). */
  declaredType: string;
  tmpPath: string;
  byteSize: number;
  sha256: string;
}

export interface MultipartResult {
  fields: Record<string, string>;
  files: ReceivedFile[];
}

/**
 * Streams a multipart body to temporary files (never held in memory), hashing as it goes.
 * Past `maxFileBytes` the request is answered 413.
 */
export async function receiveMultipart(
  req: IncomingMessage,
  tmpDir: string,
  maxFileBytes: number,
): Promise<MultipartResult> {
  const type = req.headers['content-type'] ?? '';
  if (!/^multipart\/form-data/i.test(type)) {
    throw new ApiError(415, 'unsupported_media_type', 'The body must be multipart/form-data with one file.', {
      details: { contentType: type },
    });
  }
  let parser: busboy.Busboy;
  try {
    parser = busboy({ headers: req.headers, limits: { fileSize: maxFileBytes + 1, files: 4, fields: 20 } });
  } catch {
    throw new ApiError(400, 'invalid_multipart', 'The multipart body could not be parsed.');
  }
  const fields: Record<string, string> = {};
  const files: ReceivedFile[] = [];
  const writes: Promise<void>[] = [];
  let tooLarge = false;

  const done = new Promise<void>((resolve, reject) => {
    parser.on('field', (name, value) => {
      fields[name] = value;
    });
    parser.on('file', (fieldName, stream, info) => {
      const tmpPath = path.join(tmpDir, newId('part'));
      const hash = createHash('sha256');
      let size = 0;
      const out = createWriteStream(tmpPath);
      const file: ReceivedFile = {
        fieldName,
        filename: info.filename ?? '',
        declaredType: (info.mimeType ?? '').toLowerCase(),
        tmpPath,
        byteSize: 0,
        sha256: '',
      };
      files.push(file);
      stream.on('data', (chunk: Buffer) => {
        size += chunk.length;
        hash.update(chunk);
      });
      // busboy signals 'limit' when a file reaches the limit, so it is set one byte past the maximum.
      stream.on('limit', () => {
        tooLarge = true;
      });
      writes.push(
        new Promise<void>((res, rej) => {
          out.on('finish', () => {
            file.byteSize = size;
            file.sha256 = hash.digest('hex');
            res();
          });
          out.on('error', rej);
        }),
      );
      stream.pipe(out);
    });
    parser.on('error', () =>
      reject(new ApiError(400, 'invalid_multipart', 'The multipart body could not be parsed.')),
    );
    parser.on('close', () => resolve());
  });
  req.pipe(parser);
  try {
    await done;
    await Promise.all(writes);
  } catch (error) {
    await Promise.all(files.map((file) => rm(file.tmpPath, { force: true })));
    throw error;
  }
  if (tooLarge) {
    await Promise.all(files.map((file) => rm(file.tmpPath, { force: true })));
    throw new ApiError(
      413,
      'payload_too_large',
      `The file exceeds the largest accepted size of ${maxFileBytes} bytes.`,
      {
        details: { maxBytes: maxFileBytes },
      },
    );
  }
  return { fields, files };
}

export async function discardFiles(files: ReceivedFile[]): Promise<void> {
  await Promise.all(files.map((file) => rm(file.tmpPath, { force: true })));
}
