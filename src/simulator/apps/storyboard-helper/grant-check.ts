import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { SimulatorState } from '../../context.js';
import { ApiError } from '../../errors.js';
import { canonicalJson } from '../../http.js';
import { findApp } from '../../platform/fixtures.js';
import { resolvePeerGrantAsReceiver } from '../../platform/debug/peer-resolve.js';
import { SESSION_PATH } from '../../platform/router.js';
import { STORYBOARD_API_VERSION, STORYBOARD_APP_KEY } from './fixtures.js';

/** The header a caller (or the platform relay) carries the grant in. */
export const GRANT_HEADER = 'x-platform-app-grant';

/** How long the backend waits for the session service's resolve. */
const RESOLVE_TIMEOUT_MS = 30_000;

/** A grant as the session service resolves it (the plaintext is never part of it). */
export interface ResolvedCallGrant {
  grantId: string;
  callerAppKey: string;
  callerAppVersionId: string;
  calleeAppKey: string;
  calleeAppVersionId: string;
  apiVersion: string;
  subject: { userId: string; [field: string]: unknown };
  callerAppRoles: string[];
  scope: string;
  idempotencyKey: string;
  requestDigest: string;
  expiresAt: string;
  /** Absent for a production grant; `developer_debug` (or `developer_local`) for a debug grant. */
  sourceChannel?: string;
}

export interface GrantUse {
  grant: string;
  scope: string;
  requestDigest: string;
}

const sha256Digest = (bytes: Buffer | string) => 'sha256:' + createHash('sha256').update(bytes).digest('hex');

/**
 * The digest of a body-carrying call, computed from the exact bytes received: a body that parses
 * as JSON is digested in the spec's recommended canonical form (UTF-8 JSON, keys sorted, no
 * whitespace); any other body as its raw bytes.
 */
export function bodyDigest(raw: Buffer): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw.toString('utf8'));
  } catch {
    return sha256Digest(raw);
  }
  return sha256Digest(canonicalJson(parsed));
}

/**
 * The digest of a body-less read: the canonical JSON of `{method, path}` where `path` is the
 * path relative to the business base address as received (percent-encoding kept), with its
 * query string when there is one — e.g. `{"method":"GET","path":"/boards/brd_sim_lighthouse"}`.
 */
export function readDigest(method: string, path: string): string {
  return sha256Digest(canonicalJson({ method: method.toUpperCase(), path }));
}

const grantNotFound = () =>
  new ApiError(404, 'APP_GRANT_NOT_FOUND', 'No valid grant for this callee, scope and request digest.');

/**
 * What the backend re-checks itself on a resolved grant, whoever resolved it: it names this
 * application as callee, an API version it opens, and exactly the scope and digest of this call.
 */
export function checkResolvedGrant(resolved: ResolvedCallGrant, use: Omit<GrantUse, 'grant'>): void {
  if (
    resolved.calleeAppKey !== STORYBOARD_APP_KEY ||
    resolved.apiVersion !== STORYBOARD_API_VERSION ||
    resolved.scope !== use.scope ||
    resolved.requestDigest !== use.requestDigest ||
    typeof resolved.subject?.userId !== 'string'
  )
    throw grantNotFound();
}

/**
 * The production resolve, as a real callee does it: `POST {session_base_url}/apps/storyboard-helper/
 * app-grants:resolve` over HTTP on the simulator's own port, with storyboard-helper's own
 * application credential. The session service's refusals keep their named codes.
 */
async function resolveProductionGrant(
  state: SimulatorState,
  use: GrantUse,
  requestId: string,
): Promise<ResolvedCallGrant> {
  const app = findApp(STORYBOARD_APP_KEY);
  if (!app) throw new ApiError(500, 'APP_GRANT_RESOLVE_FAILED', 'storyboard-helper has no credential.');
  const url = `${new URL(state.baseUrl).origin}${SESSION_PATH}/apps/${STORYBOARD_APP_KEY}/app-grants:resolve`;
  let res: Response;
  try {
    res = await fetch(url, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${app.appCredential}`,
        'Content-Type': 'application/json',
        'X-Request-ID': requestId,
      },
      body: JSON.stringify(use),
      signal: AbortSignal.timeout(RESOLVE_TIMEOUT_MS),
    });
  } catch {
    throw unavailable('1');
  }
  const body = (await res.json().catch(() => undefined)) as Record<string, unknown> | undefined;
  if (res.status === 200 && body) return body as unknown as ResolvedCallGrant;
  if (res.status === 404) throw grantNotFound();
  if (res.status === 429 || res.status === 503 || res.status === 504)
    throw unavailable(res.headers.get('retry-after') ?? '1');
  // the backend's own credential or request refused: fail closed, never accept the call
  throw new ApiError(
    500,
    'APP_GRANT_RESOLVE_FAILED',
    `The session service refused the resolve (${res.status}${body && typeof body.code === 'string' ? ` ${body.code}` : ''}).`,
  );
}

function unavailable(retryAfter: string): ApiError {
  return new ApiError(
    503,
    'APP_GRANT_SERVICE_UNAVAILABLE',
    'The session service could not resolve the grant now; retry the same call later.',
    { retryable: true, headers: { 'Retry-After': retryAfter } },
  );
}

/**
 * Debug grants (section D). A relay-mode grant (`developer_debug`) arrives through the platform
 * relay with only the grant header and resolves in production (the session service answers it to
 * its callee like any grant). A peer grant (`developer_local`) is sent straight to the locally
 * running provider, which resolves it with its own CLI binding at
 * `POST …/debug-peer-grants:resolve`; the production resolve answers 404 for it. The simulator's
 * storyboard-helper stands in for that local provider: it resolves the peer grant as the binding
 * that opened the grant's receiver would (same checks, in process: it holds no CLI token).
 * Answers the resolved grant (with `sourceChannel`) or undefined.
 */
export async function resolveDebugGrant(
  state: SimulatorState,
  use: GrantUse,
): Promise<ResolvedCallGrant | undefined> {
  const resolved = resolvePeerGrantAsReceiver(state, use);
  return resolved ? { ...resolved, subject: { ...resolved.subject } } : undefined;
}

/**
 * Authorizes one business call before any side effect: the grant header must be present; the
 * grant must resolve (production, else the debug seam) for this callee with exactly `scope` and
 * the digest the backend computed itself from what it received; the resolved facts are then
 * re-checked here. Answers the resolved grant (its `subject` is the person acting).
 */
export async function authorizeCall(
  state: SimulatorState,
  req: IncomingMessage,
  requestId: string,
  scope: string,
  requestDigest: string,
): Promise<ResolvedCallGrant> {
  const header = req.headers[GRANT_HEADER];
  const grant = (Array.isArray(header) ? header[0] : header)?.trim();
  if (!grant)
    throw new ApiError(401, 'APP_GRANT_MISSING', 'A grant is required in the X-Platform-App-Grant header.');
  const use: GrantUse = { grant, scope, requestDigest };
  let resolved: ResolvedCallGrant;
  try {
    resolved = await resolveProductionGrant(state, use, requestId);
  } catch (error) {
    if (!(error instanceof ApiError) || error.code !== 'APP_GRANT_NOT_FOUND') throw error;
    const debug = await resolveDebugGrant(state, use);
    if (!debug) throw error;
    resolved = debug;
  }
  checkResolvedGrant(resolved, use);
  return resolved;
}
