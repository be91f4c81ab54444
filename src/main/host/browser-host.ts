import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import {
  BRIDGE_MAX_BODY_BYTES,
  HOST_SESSION_PATH,
  HOST_TOKEN_PROTOCOL_PREFIX,
} from '../../shared/bridge/browser-host-protocol.js';
import { isStagePurpose, type StagePurpose } from '../../shared/bridge/api.js';
import type { BridgeDispatcher } from '../core/bridge/dispatcher.js';
import type { EventHub } from '../core/events/event-hub.js';
import { mediaSignatureOf, type ResolvedMedia } from '../core/library/media-resolver.js';
import { contentSecurityPolicy } from './content-security-policy.js';
import {
  answerClientError,
  answerFailure,
  serveEventSockets,
  decodedPath,
  readJsonBody,
  Refusal,
  requestUrl,
  safeEqual,
  sendJson,
  serveRendererFile,
  setSecurityHeaders,
  serveMediaFile,
} from './http-serving.js';
import { SERVER_OPTIONS, withServerLimits } from '../core/process/server-limits.js';

/**
 * The loopback browser host: serves the built renderer and speaks the bridge contract to the real
 * core over HTTP (`POST /bridge/invoke`) and WebSocket (`/bridge/events`). It serves nothing else.
 *
 * Guards, each tested:
 *  - loopback only, random port;
 *  - a random per-run token on every bridge call, as `Authorization: Bearer` (the page keeps it in
 *    memory after exchanging the printed URL's one-time code at `POST /bridge/session`; local tools
 *    are given it) or, on the events socket, as a WebSocket subprotocol. Never a cookie: a cookie
 *    of 127.0.0.1 reaches every port, hence every other local server;
 *  - `Host` must be this server's own loopback name and port, and `Origin` (when sent) its own
 *    origin, which defeats DNS rebinding and cross-site requests;
 *  - media URLs are capabilities the core signed; media are served only as what the core sniffed;
 *  - no request, however malformed, ends the process: every failure is a 4xx/5xx for that request.
 */
export interface BrowserHostOptions {
  dispatcher: BridgeDispatcher;
  /** Pushed events, forwarded to every signed-in page's socket. */
  events: Pick<EventHub, 'subscribe'>;
  /** The built renderer (out/renderer). */
  rendererDir: string;
  host?: string;
  port?: number;
  /**
   * `GET /media/<route>`: media of the library (and staged inputs) by journal ids only. The
   * resolver maps a route to a file the core wrote; a path in the URL is never read.
   */
  media?: { resolve(route: string, signature: string | null): Promise<ResolvedMedia | undefined> };
  /**
   * `POST /bridge/files?name=<file name>[&for=composer|playground]` with an
   * `application/octet-stream` body: a dropped file's bytes, streamed into the core's one staging
   * store (for Create, the default, or the Playground); answers a bridge envelope.
   */
  files?: { stage(source: IncomingMessage, fileName: string, purpose: StagePurpose): Promise<unknown> };
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

const CODE_LIFETIME_MS = 10 * 60 * 1000;
const SESSION_BODY_MAX_BYTES = 4 * 1024;

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
  /** The token from `Authorization: Bearer` (the page and local tools), or, on the events socket, a subprotocol. */
  const carriesToken = (req: IncomingMessage, allowSubprotocol = false) => {
    const auth = req.headers.authorization;
    if (auth?.startsWith('Bearer ') && safeEqual(auth.slice(7), token)) return true;
    if (!allowSubprotocol) return false;
    const offered = String(req.headers['sec-websocket-protocol'] ?? '').split(',');
    return offered.some((p) => {
      const value = p.trim();
      return (
        value.startsWith(HOST_TOKEN_PROTOCOL_PREFIX) &&
        safeEqual(value.slice(HOST_TOKEN_PROTOCOL_PREFIX.length), token)
      );
    });
  };

  const securityHeaders = (res: ServerResponse) =>
    setSecurityHeaders(res, contentSecurityPolicy({ allowLoopbackSocket: true }));
  /** `POST /bridge/session {code}`: a one-time code of a launch URL, exchanged once for the token. */
  const exchangeCode = async (req: IncomingMessage, res: ServerResponse) => {
    if (req.method !== 'POST') throw new Refusal(405, 'host.method', 'Use POST.');
    if (!(req.headers['content-type'] ?? '').startsWith('application/json'))
      throw new Refusal(415, 'host.content_type', 'The code is sent as JSON.');
    const body = (await readJsonBody(req, SESSION_BODY_MAX_BYTES)) as { code?: unknown } | null;
    const code = typeof body?.code === 'string' ? body.code : '';
    const expires = codes.get(code);
    codes.delete(code);
    if (expires === undefined || expires < Date.now()) {
      throw new Refusal(
        401,
        'host.invalid_code',
        'This login link was already used or has expired. Press Enter in the terminal that runs the studio for a new one.',
      );
    }
    sendJson(res, 200, { ok: true, result: { token } });
  };

  const serveStatic = (pathname: string, res: ServerResponse, head: boolean) =>
    serveRendererFile(rendererDir, pathname, res, head);

  const route = async (req: IncomingMessage, res: ServerResponse) => {
    if (!hostIsOurs(req))
      throw new Refusal(421, 'host.bad_host', 'Requests must address this host by its loopback name.');
    if (!originIsOurs(req)) throw new Refusal(403, 'host.bad_origin', 'Cross-origin requests are refused.');
    const url = requestUrl(req);
    const head = req.method === 'HEAD';
    if (url.pathname === HOST_SESSION_PATH) return exchangeCode(req, res);
    if (url.pathname.startsWith('/media/') && options.media) {
      // a media URL is a capability the core signed (or a random staging id): no token needed,
      // which `<img>` and `<video>` could not send anyway
      if (req.method !== 'GET' && !head) throw new Refusal(405, 'host.method', 'Use GET.');
      const found = await options.media
        .resolve(decodedPath(url.pathname.slice('/media/'.length)), mediaSignatureOf(url))
        .catch(() => undefined);
      if (!found) throw new Refusal(404, 'host.not_found', 'Not found.');
      return serveMediaFile(req, res, found);
    }
    if (!url.pathname.startsWith('/bridge/')) {
      if (req.method !== 'GET' && !head) throw new Refusal(405, 'host.method', 'Method not allowed.');
      return serveStatic(url.pathname, res, head);
    }
    if (!carriesToken(req)) {
      throw new Refusal(
        401,
        'host.unauthorized',
        'Missing or wrong host token. Open a one-time link from the terminal that runs the studio (press Enter there for a new one).',
      );
    }
    if (url.pathname === '/bridge/invoke') {
      if (req.method !== 'POST') throw new Refusal(405, 'host.method', 'Use POST.');
      if (!(req.headers['content-type'] ?? '').startsWith('application/json')) {
        throw new Refusal(415, 'host.content_type', 'Bridge calls are JSON.');
      }
      const body = await readJsonBody(req, BRIDGE_MAX_BODY_BYTES);
      const { method, params } = (body ?? {}) as { method?: unknown; params?: unknown };
      return sendJson(res, 200, await options.dispatcher.dispatch(method, params));
    }
    if (url.pathname === '/bridge/files' && options.files) {
      if (req.method !== 'POST') throw new Refusal(405, 'host.method', 'Use POST.');
      // not a "simple" content type: a cross-site form or fetch cannot send it without a preflight
      if (!(req.headers['content-type'] ?? '').startsWith('application/octet-stream')) {
        throw new Refusal(415, 'host.content_type', 'Files are sent as application/octet-stream.');
      }
      const name = url.searchParams.get('name') ?? 'file';
      const purpose = url.searchParams.get('for') ?? 'composer';
      if (!isStagePurpose(purpose))
        throw new Refusal(400, 'file.bad_purpose', 'Files are staged for "composer" or "playground".');
      try {
        return sendJson(res, 200, { ok: true, result: await options.files.stage(req, name, purpose) });
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
    throw new Refusal(404, 'host.not_found', 'Not found.');
  };

  const server = withServerLimits(
    http.createServer(SERVER_OPTIONS, (req, res) => {
      securityHeaders(res);
      route(req, res).catch((error: unknown) => answerFailure(res, error));
    }),
  );
  // a socket that errors (reset, half-closed) ends only its own request
  server.on('clientError', answerClientError);

  const sockets = serveEventSockets(server, {
    hostIsOurs,
    originIsOurs,
    admit: (req) =>
      carriesToken(req, true)
        ? { accept: true, opened: () => undefined }
        : { accept: false, status: '401 Unauthorized' },
  });
  const unsubscribe = options.events.subscribe((event, payload) => {
    const message = JSON.stringify({ event, payload });
    for (const client of sockets.clients) if (client.readyState === client.OPEN) client.send(message);
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
      for (const [unused, expires] of codes) if (expires < Date.now()) codes.delete(unused);
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
