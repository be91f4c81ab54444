import http, { type IncomingHttpHeaders, type OutgoingHttpHeaders } from 'node:http';
import https from 'node:https';
import { readBody } from '../../http.js';
import { PlatformError } from '../errors.js';
import type { PlatformContext, PlatformRoute } from '../router.js';
import { errorDoc } from '../schemas.js';
import { identityOf, liveCliSession, openedForDebug, sameIdentity } from './debug-auth.js';
import { businessBaseUrl } from './business-targets.js';
import { DEBUG_PATH } from './paths.js';

/** At most this much of a target's response body is relayed ("Limits", Relay row). */
export const RELAY_MAX_RESPONSE_BYTES = 16 * 1024 * 1024;
/** Largest request body the relay forwards (the spec gives none; the response limit is reused). */
export const RELAY_MAX_REQUEST_BYTES = 16 * 1024 * 1024;
/** One attempt, bounded like the reference client's total timeout. */
export const RELAY_TIMEOUT_MS = 30_000;

const GRANT_HEADER = 'x-platform-app-grant';

/** Hop-by-hop headers (RFC 9110 §7.6.1) and the ones the relay recomputes. */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'te',
  'trailer',
  'upgrade',
  'host',
  'content-length',
  'expect',
]);

/** Headers that rewrite what the target does or who it thinks called (method and URL overrides, client addresses). */
const REWRITING_HEADERS = new Set([
  'x-http-method-override',
  'x-http-method',
  'x-method-override',
  'x-original-method',
  'x-original-url',
  'x-rewrite-url',
  'x-real-ip',
  'x-client-ip',
  'x-cluster-client-ip',
  'client-ip',
  'true-client-ip',
  'cf-connecting-ip',
  'via',
]);

/**
 * Request headers never forwarded (spec, Relay: it "strips the developer `Authorization`, cookies
 * and internal identity headers"): the developer's credentials in any header (`Authorization`,
 * `X-Api-Key`, `X-Access-Token`, `X-Debug-Token`, anything named like a token, key, secret,
 * password, session or credential) and cookies; every header that could carry an identity the
 * target might trust (internal `X-Platform-*` headers except the grant, forwarding and
 * client-address headers, `X-User-*`-style identity headers, the simulator's switches); and
 * method or URL overrides, which would make the target do something other than what was relayed.
 * Other business headers of the callee's own interface pass.
 */
export function isStrippedRequestHeader(name: string): boolean {
  const n = name.toLowerCase();
  if (HOP_BY_HOP.has(n)) return true;
  if (n === GRANT_HEADER) return false;
  return (
    n === 'authorization' ||
    n === 'proxy-authorization' ||
    n === 'cookie' ||
    n === 'cookie2' ||
    n === 'forwarded' ||
    REWRITING_HEADERS.has(n) ||
    /(^|-)(token|api-?key|secret|password|passwd|session|credential|credentials|signature|auth)(-|$)/.test(
      n,
    ) ||
    n.startsWith('x-platform-') ||
    n.startsWith('x-forwarded-') ||
    n.startsWith('x-simulator-') ||
    /^x-(user|account|tenant|workspace|organization|membership|subject|identity|auth|app-key|app-id)(-|$)/.test(
      n,
    )
  );
}

/** Response headers never passed back: hop-by-hop ones and cookies (the relay carries no cookie either way). */
const isStrippedResponseHeader = (name: string) => {
  const n = name.toLowerCase();
  return HOP_BY_HOP.has(n) || n === 'set-cookie' || n === 'set-cookie2';
};

const grantNotFound = () =>
  new PlatformError(
    404,
    'APP_GRANT_NOT_FOUND',
    'No valid debug grant of this CLI session for this callee and apiVersion (invalid, expired, withdrawn or wrong callee).',
  );

function forwardedHeaders(
  headers: IncomingHttpHeaders,
  grant: string,
  bodyLength: number,
): OutgoingHttpHeaders {
  const out: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers))
    if (value !== undefined && !isStrippedRequestHeader(name)) out[name] = value;
  out[GRANT_HEADER] = grant;
  if (bodyLength > 0) out['content-length'] = String(bodyLength);
  return out;
}

/** The part of the request path after `/inter-app/{calleeAppKey}/{apiVersion}/`, as sent (still encoded). */
function rawBusinessPath(pc: PlatformContext): string {
  const pathname = new URL(pc.req.url ?? '/', 'http://simulator.local').pathname;
  const marker = `${DEBUG_PATH}/inter-app/`;
  const rest = pathname.slice(pathname.indexOf(marker) + marker.length);
  const segments = rest.split('/').slice(2);
  for (const segment of segments) {
    let decoded: string;
    try {
      decoded = decodeURIComponent(segment);
    } catch {
      decoded = '..';
    }
    if (decoded === '.' || decoded === '..' || decoded.includes('/') || decoded.includes('\\'))
      throw new PlatformError(
        400,
        'INVALID_REQUEST',
        'The business path may not leave the callee (dot or encoded slash segments).',
      );
  }
  return segments.join('/');
}

interface Upstream {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** One request to the target: no redirect followed, no retry, at most 16 MiB of response body. */
function send(target: URL, method: string, headers: OutgoingHttpHeaders, body: Buffer): Promise<Upstream> {
  return new Promise((resolve, reject) => {
    const lib = target.protocol === 'https:' ? https : http;
    const req = lib.request(target, { method, headers, timeout: RELAY_TIMEOUT_MS, agent: false });
    const fail = (error: PlatformError) => {
      req.destroy();
      reject(error);
    };
    req.on('timeout', () =>
      fail(
        new PlatformError(
          504,
          'DEBUG_RELAY_UPSTREAM_TIMEOUT',
          'The target did not answer in time; the relay does not retry.',
        ),
      ),
    );
    req.on('error', () =>
      reject(
        new PlatformError(
          502,
          'DEBUG_RELAY_UPSTREAM_FAILED',
          'The target could not be reached or broke the connection; the relay does not retry.',
        ),
      ),
    );
    req.on('response', (res) => {
      const status = res.statusCode ?? 502;
      if (status >= 300 && status < 400) {
        res.resume();
        fail(
          new PlatformError(
            502,
            'DEBUG_RELAY_REDIRECT_REFUSED',
            'The target answered a redirect; the relay follows none and does not pass it on.',
            {
              details: { upstreamStatus: status },
            },
          ),
        );
        return;
      }
      const tooLarge = () =>
        fail(
          new PlatformError(
            502,
            'DEBUG_RELAY_RESPONSE_TOO_LARGE',
            'The target answered more than 16 MiB of body; nothing of it is relayed.',
            {
              details: { limitBytes: RELAY_MAX_RESPONSE_BYTES },
            },
          ),
        );
      if (Number(res.headers['content-length'] ?? 0) > RELAY_MAX_RESPONSE_BYTES) return tooLarge();
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > RELAY_MAX_RESPONSE_BYTES) {
          res.destroy();
          tooLarge();
          return;
        }
        chunks.push(chunk);
      });
      res.on('end', () => resolve({ status, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', () => undefined);
    });
    req.end(body.length > 0 ? body : undefined);
  });
}

/** `ALL {debug_base_url}/inter-app/{calleeAppKey}/{apiVersion}/{businessPath}`. */
async function relay(pc: PlatformContext): Promise<void> {
  const cli = liveCliSession(pc);
  const header = pc.req.headers[GRANT_HEADER];
  const grant = Array.isArray(header) ? header[0] : header;
  if (!grant)
    throw new PlatformError(
      401,
      'APP_GRANT_MISSING',
      'The relay needs the X-Platform-App-Grant header (a debug app grant).',
    );
  const debug = pc.state.platform.debug;
  const g = debug.grantByPlaintext(grant);
  if (
    !g ||
    g.sourceChannel !== 'developer_debug' ||
    g.callerAppKey !== cli.appKey ||
    g.callerAppVersionId !== cli.appVersionId ||
    !sameIdentity(g, identityOf(cli)) ||
    g.calleeAppKey !== pc.params.calleeAppKey ||
    g.apiVersion !== pc.params.apiVersion ||
    g.expiresAtMs <= debug.now() ||
    !openedForDebug(pc.state, g.calleeAppKey, g.apiVersion, [g.scope])
  )
    throw grantNotFound();
  const path = rawBusinessPath(pc);
  const search = new URL(pc.req.url ?? '/', 'http://simulator.local').search;
  const target = new URL(`${businessBaseUrl(pc.state, g.calleeAppKey)}/${path}${search}`);
  const method = (pc.req.method ?? 'GET').toUpperCase();
  const body = await readBody(pc.req, RELAY_MAX_REQUEST_BYTES);
  const upstream = await send(target, method, forwardedHeaders(pc.req.headers, grant, body.length), body);
  const headers: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(upstream.headers))
    if (value !== undefined && !isStrippedResponseHeader(name)) headers[name] = value;
  headers['content-length'] = String(upstream.body.length);
  pc.res.writeHead(upstream.status, headers);
  pc.res.end(method === 'HEAD' ? undefined : upstream.body);
}

export const relayRoutes: PlatformRoute[] = [
  {
    method: 'ALL',
    auth: 'route',
    greedyTail: true,
    path: `${DEBUG_PATH}/inter-app/{calleeAppKey}/{apiVersion}/{businessPath}`,
    surface: 'relay',
    handler: relay,
    doc: {
      operationId: 'relayInterAppCall',
      summary:
        "Relay a debug call to the callee's production business interface (any method; no redirect followed; no retry; <= 16 MiB of response body)",
      tags: ['debug'],
      headers: [
        {
          name: 'X-Platform-App-Grant',
          required: true,
          description: 'A debug app grant (developer_debug) of this CLI session',
        },
      ],
      responses: {
        ...Object.fromEntries(
          [200, 201, 202, 204].map((status) => [
            status,
            {
              description:
                "The callee's answer, status and body passed through (any non-3xx status, 4xx and 5xx included); Authorization, cookies and identity headers were not forwarded, Set-Cookie is not returned",
              contentType: '*/*',
            },
          ]),
        ),
        400: errorDoc('INVALID_REQUEST: a dot segment or encoded slash in the business path'),
        401: errorDoc(
          'APP_GRANT_MISSING without X-Platform-App-Grant; UNAUTHENTICATED without a live CLI session',
        ),
        404: errorDoc(
          'APP_GRANT_NOT_FOUND: invalid, expired, withdrawn, another caller, callee or apiVersion',
        ),
        413: errorDoc('Request body over 16 MiB'),
        429: errorDoc('Rate limited (Retry-After)'),
        502: errorDoc(
          'DEBUG_RELAY_REDIRECT_REFUSED (the target redirected), DEBUG_RELAY_RESPONSE_TOO_LARGE (> 16 MiB), DEBUG_RELAY_UPSTREAM_FAILED',
        ),
        503: errorDoc('DEBUG_RELAY_UNAVAILABLE (Retry-After)'),
        504: errorDoc('DEBUG_RELAY_UPSTREAM_TIMEOUT, or gateway timeout'),
      },
    },
  },
];
