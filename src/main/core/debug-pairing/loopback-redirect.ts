import { timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AppError } from '../errors.js';
import { hostIsOneOf, SERVER_OPTIONS, withServerLimits } from '../process/server-limits.js';

/** The one path the listener answers; every other path is 404. */
export const PAIRING_REDIRECT_PATH = '/framewright/debug-pairing';

export interface LoopbackRedirect {
  /** `http://127.0.0.1:PORT/framewright/debug-pairing`: the `redirectUri` of the pairing. */
  readonly redirectUri: string;
  /** The authorization code, once (the listener has closed when it settles). */
  readonly code: Promise<string>;
  /** Stops waiting: `code` rejects with `pairing.cancelled` (nothing happens if it already settled). */
  cancel(): void;
}

export interface LoopbackRedirectOptions {
  /** The `state` sent to the portal; a redirect carrying another one is refused (and waited past). */
  readonly state: string;
  /** How long to wait for the developer's approval (ms). */
  readonly timeoutMs: number;
}

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

function page(res: ServerResponse, status: number, title: string, text: string): void {
  const html =
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head>` +
    `<body><h1>${title}</h1><p>${text}</p></body></html>`;
  res.writeHead(status, {
    'Content-Type': 'text/html; charset=utf-8',
    'Content-Length': String(Buffer.byteLength(html)),
    'Cache-Control': 'no-store',
    // the address bar holds the code: no page this one links to may learn it
    'Referrer-Policy': 'no-referrer',
    'Content-Security-Policy': "default-src 'none'",
    Connection: 'close',
  });
  res.end(html);
}

/**
 * The CLI's loopback redirect listener of a PKCE pairing (RFC 8252 section 7.3): on 127.0.0.1
 * only, on a random port, answering one path. It accepts exactly one authorization code — the one
 * whose `state` is this pairing's — then closes; it gives up after `timeoutMs`. The code is handed
 * to the caller only: nothing here logs or writes it.
 */
export async function listenForRedirect(options: LoopbackRedirectOptions): Promise<LoopbackRedirect> {
  let settle: { resolve(code: string): void; reject(error: Error): void } | undefined;
  const code = new Promise<string>((resolve, reject) => (settle = { resolve, reject }));
  // a caller that stops listening must not see an unhandled rejection
  code.catch(() => undefined);
  let done = false;

  let ownHosts: string[] = [];
  const server = createServer(SERVER_OPTIONS, (req: IncomingMessage, res: ServerResponse) => {
    // only a request addressed to this listener (a DNS-rebinding page names another host)
    if (!hostIsOneOf(req.headers.host, ownHosts)) {
      page(res, 421, 'Not this address', 'This listener answers only requests addressed to it.');
      return;
    }
    if (done) {
      page(res, 410, 'Pairing finished', 'This pairing has already received its code.');
      return;
    }
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (req.method !== 'GET' || url.pathname !== PAIRING_REDIRECT_PATH) {
      page(res, 404, 'Not found', 'Nothing is served here.');
      return;
    }
    const state = url.searchParams.get('state') ?? '';
    const received = url.searchParams.get('code') ?? '';
    if (!sameText(state, options.state) || !received) {
      // not this pairing's redirect: refused, and the real one is still awaited
      page(res, 400, 'Not this pairing', 'This address does not belong to the pairing in progress.');
      return;
    }
    finish(() => settle!.resolve(received));
    page(
      res,
      200,
      'Pairing approved',
      'Framewright received the approval. You can close this tab and return to Framewright.',
    );
  });

  const finish = (then: () => void): void => {
    if (done) return;
    done = true;
    clearTimeout(timer);
    server.close();
    // the approving browser's kept-alive connection must not hold the port open
    setImmediate(() => server.closeAllConnections());
    then();
  };

  const timer = setTimeout(
    () =>
      finish(() =>
        settle!.reject(
          new AppError(
            'pairing.timeout',
            `No approval arrived within ${Math.round(options.timeoutMs / 1000)} s; nothing was stored. Start the pairing again.`,
          ),
        ),
      ),
    options.timeoutMs,
  );
  timer.unref();

  // one approving browser: a handful of connections, none held idle
  withServerLimits(server, { maxConnections: 16, keepAliveTimeoutMs: 1_000 });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  ownHosts = [`127.0.0.1:${port}`, `localhost:${port}`];
  return {
    redirectUri: `http://127.0.0.1:${port}${PAIRING_REDIRECT_PATH}`,
    code,
    cancel: () =>
      finish(() =>
        settle!.reject(new AppError('pairing.cancelled', 'The pairing was cancelled; nothing was stored.')),
      ),
  };
}
