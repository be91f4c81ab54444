import http, {
  type IncomingHttpHeaders,
  type IncomingMessage,
  type OutgoingHttpHeaders,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { closeWhenDone } from './cleanup.js';

/** A request as it reached the proxy (its body read whole); it is forwarded with these headers. */
export interface ProxiedRequest {
  method: string;
  /** The path and query, as received and forwarded. */
  url: string;
  /** The path without the query. */
  pathname: string;
  /** A copy `onRequest` may change (e.g. a credential exchanged): what the upstream receives. */
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** The upstream's answer. An answer whose `body()` nobody reads streams through unchanged. */
export interface UpstreamAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  /** The whole body (with `ownOrigin`, JSON already names the proxy's origin). */
  body(): Promise<Buffer>;
}

/** An answer the proxy sends itself: a Buffer or string body as it is, anything else as JSON. */
export interface ProxyReply {
  status: number;
  headers?: OutgoingHttpHeaders;
  body: unknown;
}

/**
 * What `onResponse` does with the upstream's answer: nothing (it is passed on), a reply of its own,
 * `'drop'` (the answer is read whole, then the connection destroyed: served, but the caller never
 * learns how) or `'hold'` (read and never answered until the proxy closes: a server that hangs).
 */
export type ResponseOutcome = ProxyReply | 'drop' | 'hold' | void;

export interface ProxyHooks {
  /** Sees (and may rewrite) each request; a reply answers it at once, not forwarded. */
  onRequest?(request: ProxiedRequest): ProxyReply | void | Promise<ProxyReply | void>;
  /** Sees each upstream answer before the caller does. */
  onResponse?(answer: UpstreamAnswer, request: ProxiedRequest): ResponseOutcome | Promise<ResponseOutcome>;
  /** JSON answers and `Location` name the proxy's origin where the upstream names its own. */
  ownOrigin?: boolean;
}

/** A running proxy: `base` is the upstream base with the proxy's host, `origin` the proxy's. */
export interface ForwardingProxy {
  base: string;
  origin: string;
  close(): Promise<void>;
}

/**
 * A loopback HTTP proxy in front of `upstreamBase` that forwards every request and pipes the answer
 * back, with hooks to record, rewrite or answer requests and answers; closed when done.
 */
export async function forwardingProxy(
  upstreamBase: string,
  hooks: ProxyHooks = {},
): Promise<ForwardingProxy> {
  const upstream = new URL(upstreamBase);
  const held: ServerResponse[] = [];
  let origin = '';

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = req.url ?? '/';
    const request: ProxiedRequest = {
      method: req.method ?? 'GET',
      url,
      pathname: url.split('?')[0]!,
      headers: { ...req.headers },
      body: await readAll(req),
    };
    const early = await hooks.onRequest?.(request);
    if (early) return reply(res, early);
    const forwarded = http.request(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: request.method,
        path: request.url,
        headers: { ...request.headers, host: upstream.host },
      },
      (answer) => void respond(answer, request, res).catch(() => res.destroy()),
    );
    forwarded.on('error', () => res.destroy());
    res.on('close', () => forwarded.destroy());
    forwarded.end(request.body);
  }

  async function respond(answer: IncomingMessage, request: ProxiedRequest, res: ServerResponse) {
    const status = answer.statusCode ?? 502;
    const headers = { ...answer.headers };
    const json = String(headers['content-type'] ?? '').includes('json');
    let whole: Promise<Buffer> | undefined;
    const body = () =>
      (whole ??= readAll(answer).then((bytes) =>
        hooks.ownOrigin && json
          ? Buffer.from(bytes.toString('utf8').replaceAll(upstream.origin, origin))
          : bytes,
      ));
    if (hooks.ownOrigin) {
      if (typeof headers.location === 'string')
        headers.location = headers.location.replace(upstream.origin, origin);
      if (json) void body();
    }
    const outcome = await hooks.onResponse?.({ status, headers, body }, request);
    if (outcome === 'hold') {
      held.push(res);
      await body();
      return;
    }
    if (outcome === 'drop') {
      await body();
      res.destroy();
      return;
    }
    if (outcome) {
      if (!whole) answer.resume();
      return reply(res, outcome);
    }
    if (whole) return reply(res, { status, headers, body: await whole });
    res.writeHead(status, headers);
    answer.pipe(res);
  }

  const server = http.createServer((req, res) => void handle(req, res).catch(() => res.destroy()));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const base = new URL(upstreamBase);
  base.host = new URL(origin).host;
  return closeWhenDone({
    base: base.toString().replace(/\/$/, ''),
    origin,
    close: async () => {
      for (const res of held.splice(0)) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  });
}

async function readAll(stream: AsyncIterable<unknown>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

function reply(res: ServerResponse, { status, headers = {}, body }: ProxyReply): void {
  const raw = Buffer.isBuffer(body) || typeof body === 'string';
  const bytes = Buffer.isBuffer(body)
    ? body
    : Buffer.from(typeof body === 'string' ? body : JSON.stringify(body));
  const out: OutgoingHttpHeaders = { ...(raw ? {} : { 'content-type': 'application/json' }), ...headers };
  delete out['transfer-encoding'];
  res.writeHead(status, { ...out, 'content-length': String(bytes.length) });
  res.end(bytes);
}
