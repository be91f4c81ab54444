import type { IncomingMessage, ServerResponse } from 'node:http';
import { pipeline } from 'node:stream/promises';
import type { ObjectStorage } from './object-storage.js';
import { verifyReadUrl, type ReadUrlKey } from './signed-read-url.js';

export interface SignedObjectDeps {
  /** The accepted keys and each subject's revocation epoch (a plain key: that key alone). */
  signingKey: ReadUrlKey;
  /** The object storage of a subject, or undefined when the backend has no such subject. */
  storageFor(subjectKey: string): ObjectStorage | undefined;
  now?: () => Date;
}

/** Headers of every answer: nothing is cached, sniffed, framed or referred onwards. */
const COMMON_HEADERS = {
  'X-Content-Type-Options': 'nosniff',
  'Cache-Control': 'private, no-store',
  'Content-Security-Policy': "default-src 'none'; sandbox",
  'Referrer-Policy': 'no-referrer',
};

function refuse(res: ServerResponse, status: number, text: string, extra: Record<string, string> = {}): void {
  res.writeHead(status, { ...COMMON_HEADERS, 'Content-Type': 'text/plain; charset=utf-8', ...extra });
  res.end(`${text}\n`);
}

/** One `bytes=a-b` / `bytes=a-` / `bytes=-n` range within `size`; null when unsatisfiable, undefined when absent or not a single range. */
function singleRange(
  header: string | undefined,
  size: number,
): { start: number; end: number } | null | undefined {
  const m = header ? /^bytes=(\d*)-(\d*)$/.exec(header.trim()) : null;
  if (!m || (m[1] === '' && m[2] === '')) return undefined;
  let start: number;
  let end: number;
  if (m[1] === '') {
    start = Math.max(0, size - Number(m[2]));
    end = size - 1;
  } else {
    start = Number(m[1]);
    end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  }
  return start > end || start >= size ? null : { start, end };
}

/**
 * Serves one object of one subject to whoever holds its signed URL (the platform reads it: no
 * cookie, no session). GET and HEAD only; the URL is checked by {@link verifyReadUrl} against
 * the raw request target; a bad signature or an expired URL is 403, a malformed path or an
 * unknown object 404, with a short text that never echoes the URL.
 */
export async function serveSignedObject(
  req: IncomingMessage,
  res: ServerResponse,
  deps: SignedObjectDeps,
): Promise<void> {
  if (req.method !== 'GET' && req.method !== 'HEAD')
    return refuse(res, 405, 'Only GET and HEAD are allowed.', { Allow: 'GET, HEAD' });
  const target = req.url ?? '';
  const q = target.indexOf('?');
  const rawPath = q < 0 ? target : target.slice(0, q);
  const rawQuery = q < 0 ? '' : target.slice(q + 1);
  const verdict = verifyReadUrl(deps.signingKey, rawPath, rawQuery, (deps.now ?? (() => new Date()))());
  if (!verdict.ok) {
    if (verdict.reason === 'malformed') return refuse(res, 404, 'No such object.');
    return refuse(
      res,
      403,
      verdict.reason === 'expired' ? 'This link has expired.' : 'This link is not valid.',
    );
  }
  const object = await deps.storageFor(verdict.subjectKey)?.open(verdict.sha256);
  if (!object) return refuse(res, 404, 'No such object.');
  const range = singleRange(
    typeof req.headers.range === 'string' ? req.headers.range : undefined,
    object.byteSize,
  );
  if (range === null)
    return refuse(res, 416, 'Range not satisfiable.', { 'Content-Range': `bytes */${object.byteSize}` });
  const headers: Record<string, string | number> = {
    ...COMMON_HEADERS,
    'Content-Type': object.mimeType,
    'Accept-Ranges': 'bytes',
    'Content-Length': range ? range.end - range.start + 1 : object.byteSize,
  };
  if (range) headers['Content-Range'] = `bytes ${range.start}-${range.end}/${object.byteSize}`;
  res.writeHead(range ? 206 : 200, headers);
  if (req.method === 'HEAD') {
    res.end();
    return;
  }
  await pipeline(object.stream(range ?? undefined), res).catch(() => res.destroy());
}
