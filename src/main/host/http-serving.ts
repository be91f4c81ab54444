import { timingSafeEqual } from 'node:crypto';
import type { FileHandle } from 'node:fs/promises';
import { open } from 'node:fs/promises';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { HOST_EVENTS_PROTOCOL } from '../../shared/bridge/browser-host-protocol.js';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { mediaResponseHeaders, type ResolvedMedia } from '../core/library/media-resolver.js';

/**
 * The HTTP pieces both hosts share (the loopback browser host and the platform host): the built
 * renderer served from its folder only, response security headers, bounded JSON bodies, parsed
 * request targets, and a refusal that answers 4xx/5xx for one request without ending the process.
 */

export const MIME_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.txt': 'text/plain; charset=utf-8',
};

/** Writes the head, then the file's bytes (a range of them); a broken stream ends only this response. */
export async function streamFile(
  res: ServerResponse,
  handle: FileHandle,
  o: {
    status: number;
    headers: Record<string, string | number>;
    head: boolean;
    start?: number;
    end?: number;
  },
): Promise<void> {
  res.writeHead(o.status, o.headers);
  if (o.head) {
    res.end();
    return;
  }
  const bytes = handle.createReadStream({ start: o.start, end: o.end, autoClose: false });
  await pipeline(bytes, res).catch(() => res.destroy());
}

/** A request the host answers with this status and a bridge-shaped error (and stays up). */
export class Refusal extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** Sent with the answer (e.g. `Retry-After`, or `Connection: close` for a body left unread). */
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/**
 * The request target as a URL, or a 400: only origin-form targets (`/path?query`) are accepted, and
 * anything the WHATWG parser refuses (`//[`) is refused here instead of throwing in a handler.
 */
export function requestUrl(req: IncomingMessage): URL {
  const target = req.url ?? '';
  if (!target.startsWith('/')) throw new Refusal(400, 'host.bad_request', 'Malformed request target.');
  try {
    return new URL(`http://host.invalid${target}`);
  } catch {
    throw new Refusal(400, 'host.bad_request', 'Malformed request target.');
  }
}

export function decodedPath(pathname: string): string {
  try {
    return decodeURIComponent(pathname);
  } catch {
    throw new Refusal(400, 'host.bad_request', 'Malformed percent-encoding in the path.');
  }
}

/** A body of at most `limit` bytes; a larger announced or received body is a 413 (nothing is kept). */
export function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const announced = Number(req.headers['content-length'] ?? '0');
  if (announced > limit) return Promise.reject(new Refusal(413, 'host.too_large', 'Body too large.'));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        chunks.length = 0;
        req.removeAllListeners('data');
        req.pause();
        reject(new Refusal(413, 'host.too_large', 'Body too large.'));
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
    req.on('aborted', () => reject(new Error('aborted')));
    // the client went away before the whole body came: nothing more will
    req.on('close', () => {
      if (!req.complete) reject(new Error('aborted'));
    });
  });
}

export async function readJsonBody(req: IncomingMessage, limit: number): Promise<unknown> {
  const bytes = await readBody(req, limit);
  try {
    return JSON.parse(bytes.toString('utf8'));
  } catch {
    throw new Refusal(400, 'host.bad_body', 'Body is not JSON.');
  }
}

/** Security headers of every answer; the policy is the page's Content-Security-Policy. */
export function setSecurityHeaders(res: ServerResponse, policy: string): void {
  res.setHeader('Content-Security-Policy', policy);
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Referrer-Policy', 'no-referrer');
  res.setHeader('X-Frame-Options', 'DENY');
  res.setHeader('Cross-Origin-Opener-Policy', 'same-origin');
  res.setHeader('Cross-Origin-Resource-Policy', 'same-origin');
}

/** A JSON answer that no cache keeps. */
export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  extra: Record<string, string | string[]> = {},
): void {
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Cache-Control': 'no-store',
    ...extra,
  });
  res.end(JSON.stringify(body));
}

/** The built renderer: public code, no secret; only files inside `rendererDir` (an absolute path). */
export async function serveRendererFile(
  rendererDir: string,
  pathname: string,
  res: ServerResponse,
  head: boolean,
): Promise<void> {
  const relative = pathname === '/' ? 'index.html' : decodedPath(pathname).replace(/^\/+/, '');
  const file = path.resolve(rendererDir, relative);
  const handle = file.startsWith(rendererDir + path.sep)
    ? await open(file, 'r').catch(() => undefined)
    : undefined;
  if (!handle) throw new Refusal(404, 'host.not_found', 'Not found.');
  try {
    if (!(await handle.stat()).isFile()) throw new Refusal(404, 'host.not_found', 'Not found.');
    await streamFile(res, handle, {
      status: 200,
      headers: {
        'Content-Type': MIME_TYPES[path.extname(file)] ?? 'application/octet-stream',
        'Cache-Control': 'no-cache',
      },
      head,
    });
  } finally {
    await handle.close().catch(() => undefined);
  }
}

/** Answers a failed request: a Refusal as itself, anything else as a 500 that says nothing more. */
export function answerFailure(res: ServerResponse, error: unknown): void {
  const refusal =
    error instanceof Refusal ? error : new Refusal(500, 'host.internal', 'The host could not answer.');
  if (res.headersSent) {
    res.destroy();
    return;
  }
  // a refused body is not read: close the connection rather than drain it
  const close: Record<string, string> = refusal.status === 413 ? { Connection: 'close' } : {};
  sendJson(
    res,
    refusal.status,
    { ok: false, error: { code: refusal.code, message: refusal.message } },
    { ...close, ...refusal.headers },
  );
}

/** Ends a connection with a bare status line (a refused WebSocket upgrade, a malformed request). */
export function endWithStatus(socket: Duplex, status: string, headers: Record<string, string> = {}): void {
  const extra = Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  if (socket.writable && !socket.writableEnded)
    socket.end(`HTTP/1.1 ${status}\r\n${extra}Connection: close\r\nContent-Length: 0\r\n\r\n`);
  else socket.destroy();
}

/** What Node attaches to a server socket: the response in flight on it, if any. */
interface ServerSocket extends Duplex {
  _httpMessage?: { headersSent?: boolean } | null;
}

/**
 * A connection the server refused (the parser's error, a header or request timeout) ends only its
 * own socket, with the status Node itself would send: 431 for oversized headers, 408 for a timeout,
 * 400 otherwise. As Node's own default, nothing is written when the peer is gone (ECONNRESET) or
 * when a response in flight on this socket has begun (its headers are out): bytes appended to it
 * would be read as part of that answer.
 */
export function answerClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  const inFlight = (socket as ServerSocket)._httpMessage;
  if (error.code === 'ECONNRESET' || inFlight?.headersSent) {
    socket.destroy();
    return;
  }
  endWithStatus(
    socket,
    error.code === 'HPE_HEADER_OVERFLOW'
      ? '431 Request Header Fields Too Large'
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? '408 Request Timeout'
        : '400 Bad Request',
  );
}

/** The one-way events socket server of a host (upgrades are handled by the host's own checks). */
export function eventsSocketServer(): WebSocketServer {
  return new WebSocketServer({
    noServer: true,
    maxPayload: 64 * 1024,
    handleProtocols: (offered) => (offered.has(HOST_EVENTS_PROTOCOL) ? HOST_EVENTS_PROTOCOL : false),
  });
}

/** Whether an events socket may open, and what to do with it once open. */
export type EventsSocketVerdict =
  | { accept: true; opened(ws: WebSocket): void }
  | { accept: false; status: string; headers?: Record<string, string> };

/**
 * Answers upgrades to `/bridge/events`: `Host` and `Origin` first, before the target is even
 * parsed, then the host's own check of who is asking. The channel is one-way: anything the page
 * sends is ignored, a broken frame ends it. Returns the socket server (the host closes it).
 */
export function serveEventSockets(
  server: Server,
  checks: {
    hostIsOurs(req: IncomingMessage): boolean;
    originIsOurs(req: IncomingMessage): boolean;
    admit(req: IncomingMessage): EventsSocketVerdict | Promise<EventsSocketVerdict>;
  },
): WebSocketServer {
  const sockets = eventsSocketServer();
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => socket.destroy());
    const deny = (status: string) => endWithStatus(socket, status);
    if (!checks.hostIsOurs(req)) return deny('421 Misdirected Request');
    if (!checks.originIsOurs(req)) return deny('403 Forbidden');
    let pathname: string;
    try {
      pathname = requestUrl(req).pathname;
    } catch {
      return deny('400 Bad Request');
    }
    if (pathname !== '/bridge/events') return deny('404 Not Found');
    void Promise.resolve()
      .then(() => checks.admit(req))
      .then(
        (verdict) => {
          if (!verdict.accept) return endWithStatus(socket, verdict.status, verdict.headers);
          sockets.handleUpgrade(req, socket, head, (ws: WebSocket) => {
            ws.on('message', () => undefined);
            ws.on('error', () => ws.terminate());
            verdict.opened(ws);
          });
        },
        () => deny('500 Internal Server Error'),
      );
  });
  return sockets;
}

/** A library file, with byte ranges (the player seeks), served only as what the core sniffed. */
export async function serveMediaFile(
  req: IncomingMessage,
  res: ServerResponse,
  media: ResolvedMedia,
): Promise<void> {
  let handle: FileHandle;
  try {
    // opened once: the file may be deleted while it streams, the open handle still reads it
    handle = await open(media.path, 'r');
  } catch {
    throw new Refusal(404, 'host.not_found', 'Not found.');
  }
  try {
    const size = (await handle.stat()).size;
    const headers: Record<string, string | number> = {
      ...mediaResponseHeaders(media),
      'Accept-Ranges': 'bytes',
      'Cache-Control': 'private, max-age=3600',
    };
    const range = /^bytes=(\d*)-(\d*)$/.exec(req.headers.range ?? '');
    let start = 0;
    let end = size - 1;
    let status = 200;
    if (range && (range[1] || range[2])) {
      if (range[1]) {
        start = Number(range[1]);
        if (range[2]) end = Math.min(Number(range[2]), size - 1);
      } else start = Math.max(0, size - Number(range[2]));
      if (start > end || start >= size) {
        res.writeHead(416, { 'Content-Range': `bytes */${size}` });
        res.end();
        return;
      }
      status = 206;
      headers['Content-Range'] = `bytes ${start}-${end}/${size}`;
    }
    headers['Content-Length'] = size === 0 ? 0 : end - start + 1;
    const head = req.method === 'HEAD' || size === 0;
    await streamFile(res, handle, { status, headers, head, start, end });
  } finally {
    await handle.close().catch(() => undefined);
  }
}
