import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createReadStream, existsSync, statSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { WebSocketServer, type WebSocket } from 'ws';
import type { BridgeDispatcher } from '../core/bridge/dispatcher.js';
import type { EventHub } from '../core/bridge/event-hub.js';
import { contentSecurityPolicy } from './content-security-policy.js';

/**
 * The loopback browser host: serves the built renderer and speaks the bridge contract to the real
 * core over HTTP (`POST /bridge/invoke`) and WebSocket (`/bridge/events`). It serves nothing else.
 *
 * Guards, each tested:
 *  - loopback only, random port;
 *  - a random per-run token on every call: the `framewright_host` HttpOnly cookie, obtained by
 *    exchanging the one-time code of the printed URL, or an `Authorization: Bearer` header;
 *  - `Host` must be this server's own loopback name and port, and `Origin` (when sent) its own
 *    origin, which defeats DNS rebinding and cross-site requests.
 */
export interface BrowserHostOptions {
  dispatcher: BridgeDispatcher;
  events: EventHub;
  /** The built renderer (out/renderer). */
  rendererDir: string;
  host?: string;
  port?: number;
  /**
   * `GET /media/<route>`: media of the library (and staged inputs) by journal ids only. The
   * resolver maps a route to a file the core wrote; a path in the URL is never read.
   */
  media?: { resolve(route: string): Promise<{ path: string; mimeType: string } | undefined> };
  /**
   * `POST /bridge/files?name=<file name>` with an `application/octet-stream` body: a dropped
   * file's bytes, streamed into the core's staging folder; answers a bridge envelope.
   */
  files?: { stage(source: IncomingMessage, fileName: string): Promise<unknown> };
}

export interface RunningBrowserHost {
  /** http://127.0.0.1:PORT */
  origin: string;
  port: number;
  /** The per-run token; give it only to trusted local clients (tests, the CLI). */
  token: string;
  /** Issues a new one-time login URL (the code is valid once, for 10 minutes). */
  issueLaunchUrl(): string;
  close(): Promise<void>;
}

export const HOST_COOKIE = 'framewright_host';
const MAX_BODY_BYTES = 1024 * 1024;
const CODE_LIFETIME_MS = 10 * 60 * 1000;

const MIME_TYPES: Record<string, string> = {
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

function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

function parseCookies(header: string | undefined): Map<string, string> {
  const cookies = new Map<string, string>();
  for (const part of (header ?? '').split(';')) {
    const index = part.indexOf('=');
    if (index > 0) cookies.set(part.slice(0, index).trim(), part.slice(index + 1).trim());
  }
  return cookies;
}

export async function startBrowserHost(options: BrowserHostOptions): Promise<RunningBrowserHost> {
  const bindHost = options.host ?? '127.0.0.1';
  if (!['127.0.0.1', 'localhost', '::1'].includes(bindHost)) {
    throw new Error(`The browser host binds to loopback only; "${bindHost}" is not a loopback address.`);
  }
  const rendererDir = path.resolve(options.rendererDir);
  if (!existsSync(path.join(rendererDir, 'index.html'))) {
    throw new Error(`No built renderer at ${rendererDir}. Run "npm run build" first.`);
  }
  const token = randomBytes(32).toString('base64url');
  const codes = new Map<string, number>();
  let port = 0;
  const allowedHosts = () => new Set([`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`]);
  const allowedOrigins = () => new Set([...allowedHosts()].map((h) => `http://${h}`));

  const hostIsOurs = (req: IncomingMessage) => allowedHosts().has(req.headers.host ?? '');
  const originIsOurs = (req: IncomingMessage) => {
    const origin = req.headers.origin;
    return origin === undefined || allowedOrigins().has(origin);
  };
  const carriesToken = (req: IncomingMessage) => {
    const auth = req.headers.authorization;
    if (auth?.startsWith('Bearer ') && safeEqual(auth.slice(7), token)) return true;
    const cookie = parseCookies(req.headers.cookie).get(HOST_COOKIE);
    return cookie !== undefined && safeEqual(cookie, token);
  };

  const securityHeaders = (res: ServerResponse) => {
    res.setHeader('Content-Security-Policy', contentSecurityPolicy({ allowLoopbackSocket: true }));
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Referrer-Policy', 'no-referrer');
    res.setHeader('X-Frame-Options', 'DENY');
    res.setHeader('Cross-Origin-Opener-Policy', 'same-origin');
    res.setHeader('Cross-Origin-Resource-Policy', 'same-origin');
  };
  const sendJson = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' });
    res.end(JSON.stringify(body));
  };
  const refuse = (res: ServerResponse, status: number, code: string, message: string) =>
    sendJson(res, status, { ok: false, error: { code, message } });

  const readJsonBody = (req: IncomingMessage): Promise<unknown> =>
    new Promise((resolve, reject) => {
      const chunks: Buffer[] = [];
      let size = 0;
      req.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > MAX_BODY_BYTES) {
          reject(new Error('too_large'));
          req.destroy();
          return;
        }
        chunks.push(chunk);
      });
      req.on('end', () => {
        try {
          resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')));
        } catch {
          reject(new Error('invalid_json'));
        }
      });
      req.on('error', reject);
    });

  const exchangeCode = (url: URL, res: ServerResponse): boolean => {
    const code = url.searchParams.get('code');
    if (code === null) return false;
    const expires = codes.get(code);
    codes.delete(code);
    if (expires === undefined || expires < Date.now()) {
      refuse(
        res,
        401,
        'host.invalid_code',
        'This login link was already used or has expired. Ask the terminal for a new one.',
      );
      return true;
    }
    res.writeHead(303, {
      'Set-Cookie': `${HOST_COOKIE}=${token}; HttpOnly; SameSite=Strict; Path=/`,
      Location: '/',
      'Cache-Control': 'no-store',
    });
    res.end();
    return true;
  };

  const serveStatic = (pathname: string, res: ServerResponse, head: boolean) => {
    const relative = pathname === '/' ? 'index.html' : decodeURIComponent(pathname).replace(/^\/+/, '');
    const file = path.resolve(rendererDir, relative);
    if (!file.startsWith(rendererDir + path.sep) || !existsSync(file) || !statSync(file).isFile()) {
      refuse(res, 404, 'host.not_found', 'Not found.');
      return;
    }
    res.writeHead(200, {
      'Content-Type': MIME_TYPES[path.extname(file)] ?? 'application/octet-stream',
      'Cache-Control': 'no-cache',
    });
    if (head) res.end();
    else createReadStream(file).pipe(res);
  };

  /** A library file, with byte ranges (the player seeks). */
  const serveMedia = async (req: IncomingMessage, res: ServerResponse, file: string, mimeType: string) => {
    const size = (await stat(file)).size;
    const headers: Record<string, string | number> = {
      'Content-Type': mimeType,
      'Accept-Ranges': 'bytes',
      'Cache-Control': 'private, max-age=3600',
    };
    const range = /^bytes=(\d*)-(\d*)$/.exec(req.headers.range ?? '');
    let start = 0;
    let end = size - 1;
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
      res.writeHead(206, {
        ...headers,
        'Content-Range': `bytes ${start}-${end}/${size}`,
        'Content-Length': end - start + 1,
      });
    } else res.writeHead(200, { ...headers, 'Content-Length': size });
    if (req.method === 'HEAD' || size === 0) res.end();
    else createReadStream(file, { start, end }).pipe(res);
  };

  const server = http.createServer(async (req, res) => {
    securityHeaders(res);
    if (!hostIsOurs(req))
      return refuse(res, 421, 'host.bad_host', 'Requests must address this host by its loopback name.');
    if (!originIsOurs(req)) return refuse(res, 403, 'host.bad_origin', 'Cross-origin requests are refused.');
    const url = new URL(req.url ?? '/', `http://${req.headers.host}`);
    if ((req.method === 'GET' || req.method === 'HEAD') && exchangeCode(url, res)) return;
    if (!carriesToken(req)) {
      return refuse(
        res,
        401,
        'host.unauthorized',
        'Missing or wrong host token. Open the login URL printed by the terminal.',
      );
    }
    if (url.pathname === '/bridge/invoke') {
      if (req.method !== 'POST') return refuse(res, 405, 'host.method', 'Use POST.');
      if (!(req.headers['content-type'] ?? '').startsWith('application/json')) {
        return refuse(res, 415, 'host.content_type', 'Bridge calls are JSON.');
      }
      let body: unknown;
      try {
        body = await readJsonBody(req);
      } catch (error) {
        const tooLarge = error instanceof Error && error.message === 'too_large';
        return refuse(
          res,
          tooLarge ? 413 : 400,
          'host.bad_body',
          tooLarge ? 'Body too large.' : 'Body is not JSON.',
        );
      }
      const { method, params } = (body ?? {}) as { method?: unknown; params?: unknown };
      return sendJson(res, 200, await options.dispatcher.dispatch(method, params));
    }
    if (url.pathname === '/bridge/files' && options.files) {
      if (req.method !== 'POST') return refuse(res, 405, 'host.method', 'Use POST.');
      // not a "simple" content type: a cross-site form or fetch cannot send it without a preflight
      if (!(req.headers['content-type'] ?? '').startsWith('application/octet-stream')) {
        return refuse(res, 415, 'host.content_type', 'Files are sent as application/octet-stream.');
      }
      const name = url.searchParams.get('name') ?? 'file';
      try {
        return sendJson(res, 200, { ok: true, result: await options.files.stage(req, name) });
      } catch (error) {
        const shaped = error as { code?: unknown; message?: unknown };
        return sendJson(res, 200, {
          ok: false,
          error: {
            code: typeof shaped.code === 'string' ? shaped.code : 'file.stage_failed',
            message: typeof shaped.message === 'string' ? shaped.message : 'The file could not be staged.',
          },
        });
      }
    }
    if (url.pathname.startsWith('/media/') && options.media) {
      if (req.method !== 'GET' && req.method !== 'HEAD') return refuse(res, 405, 'host.method', 'Use GET.');
      const found = await options.media.resolve(url.pathname.slice('/media/'.length)).catch(() => undefined);
      if (!found) return refuse(res, 404, 'host.not_found', 'Not found.');
      return serveMedia(req, res, found.path, found.mimeType);
    }
    if (req.method === 'GET' || req.method === 'HEAD')
      return serveStatic(url.pathname, res, req.method === 'HEAD');
    return refuse(res, 405, 'host.method', 'Method not allowed.');
  });

  const sockets = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024 });
  server.on('upgrade', (req, socket, head) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname !== '/bridge/events' || !hostIsOurs(req) || !originIsOurs(req) || !carriesToken(req)) {
      socket.write('HTTP/1.1 401 Unauthorized\r\nConnection: close\r\n\r\n');
      socket.destroy();
      return;
    }
    sockets.handleUpgrade(req, socket, head, (ws: WebSocket) => sockets.emit('connection', ws, req));
  });
  const unsubscribe = options.events.subscribe((event, payload) => {
    const message = JSON.stringify({ event, payload });
    for (const client of sockets.clients) if (client.readyState === client.OPEN) client.send(message);
  });
  sockets.on('connection', (ws: WebSocket) => {
    // The events channel is one-way; anything the page sends is ignored.
    ws.on('message', () => undefined);
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, bindHost, () => resolve());
  });
  port = (server.address() as AddressInfo).port;
  const origin = `http://127.0.0.1:${port}`;

  return {
    origin,
    port,
    token,
    issueLaunchUrl() {
      const code = randomBytes(24).toString('base64url');
      codes.set(code, Date.now() + CODE_LIFETIME_MS);
      return `${origin}/?code=${code}`;
    },
    async close() {
      unsubscribe();
      for (const client of sockets.clients) client.terminate();
      sockets.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
