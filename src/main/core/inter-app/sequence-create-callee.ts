import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { errorKindOf } from '../error-kinds.js';
import { AppError } from '../errors.js';
import { APP_GRANT_HEADER } from './grant-channel.js';
import { receivedBodyDigest } from './request-digest.js';
import {
  SentBoard,
  SEQUENCE_API_VERSION,
  SEQUENCE_CREATE_MAX_BYTES,
  SEQUENCE_CREATE_PATH,
  SEQUENCE_CREATE_SCOPE,
  type SequenceCreated,
} from './sequence-create-body.js';
import { SequenceCreateLedger } from './sequence-create-ledger.js';

/**
 * Framewright as a CALLEE (application-platform-api.md, section C): another application creates a
 * sequence from a board in a person's Framewright with `POST /inter-app/2026-01/sequences`. The
 * call carries only `X-Platform-App-Grant`; everything below happens before any side effect, in
 * this order:
 *  1. the grant header is present (else 401 `APP_GRANT_MISSING`);
 *  2. the body is read up to a bound (413) and digested as the spec recommends (its canonical JSON,
 *     else the raw bytes received: `receivedBodyDigest`);
 *  3. the grant is resolved with Framewright's own application credential for `sequence.create`
 *     and that digest (the session service's 404 → one 404 `APP_GRANT_NOT_FOUND`; 429/503/504 →
 *     503 `APP_GRANT_SERVICE_UNAVAILABLE` with `Retry-After`; any other refusal fails closed);
 *  4. the resolved grant is re-checked here: callee, scope, API version, digest, not expired, a
 *     subject — anything else is the same 404, revealing nothing;
 *  5. the body is parsed (415, 400).
 * Only then is the person's workspace (the grant's `subject`) opened and the sequence created,
 * once per (calling application, idempotency key) in that workspace: a replay answers the same id.
 * The grant is never logged, stored or answered.
 */

/** A person as a grant names them (the same fields the platform host keys workspaces by). */
export interface GrantSubject {
  tenantId: string;
  accountId: string;
  userId: string;
  organizationId?: string;
  workspaceId?: string;
  membershipId?: string;
  [field: string]: unknown;
}

/** A resolved grant as the session service answers it (field names of the parties: the simulator's). */
export interface ResolvedCalleeGrant {
  grantId: string;
  callerAppKey: string;
  calleeAppKey: string;
  apiVersion?: string;
  subject: { userId: string; [field: string]: unknown };
  scope: string;
  idempotencyKey: string;
  requestDigest: string;
  expiresAt: string;
}

export interface SequenceCreateCalleeOptions<W extends { dir: string }> {
  /** Framewright's own application key (the grant's callee must be it). */
  appKey: string;
  /**
   * `POST {session}/apps/{appKey}/app-grants:resolve` with Framewright's own credential
   * (the session-service client's `resolveGrant`). Refusals are thrown with their HTTP `status`
   * (and `retryAfterSeconds`), as that client's errors carry them.
   */
  resolveGrant(use: { grant: string; scope: string; requestDigest: string }): Promise<ResolvedCalleeGrant>;
  /** The workspace of the grant's subject (the same one that person's cookie reaches). */
  workspaceOf(subject: GrantSubject): W;
  /** Creates the sequence of the board in the workspace; answers its id. */
  importBoard(workspace: W, board: SentBoard): Promise<{ sequenceId: string }>;
  now?: () => number;
  /** Failures worth a look (never the grant, never the body). */
  warn?: (message: string, fields: Record<string, unknown>) => void;
  maxBodyBytes?: number;
  /** How long the body may take to arrive (default {@link SEQUENCE_CREATE_BODY_TIMEOUT_MS}). */
  bodyTimeoutMs?: number;
}

class CalleeRefusal extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

/**
 * A board the person's workspace could not take, answered by what the caller can do about it
 * (nothing was created in any case): the person has no live session (they open Framewright, then
 * the same send works); the board itself is refused (another send would be refused too); anything
 * else may pass on a retry of the same call.
 */
function importRefusal(error: unknown): CalleeRefusal {
  // no session, or one the runtime no longer takes (`runtime.no_session`, `platform.session_over`, …)
  if (error instanceof AppError && errorKindOf(error) === 'identity')
    return new CalleeRefusal(
      409,
      'subject_not_signed_in',
      "The person has no live session with Framewright, so the board's shots cannot be made for their models: nothing was created. Ask them to open Framewright, then send the same board again.",
    );
  if (error instanceof AppError && errorKindOf(error) === 'invalid_input')
    return new CalleeRefusal(422, 'board_refused', `${error.message}`);
  return new CalleeRefusal(
    500,
    'sequence_create_failed',
    'The sequence could not be created; retry the same call.',
  );
}

const grantNotFound = () =>
  new CalleeRefusal(404, 'APP_GRANT_NOT_FOUND', 'No valid grant for this callee, scope and request digest.');

function send(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  if (res.headersSent || res.destroyed) return;
  const payload = JSON.stringify(body);
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': String(Buffer.byteLength(payload)),
    'Cache-Control': 'no-store',
    ...headers,
  });
  res.end(payload);
}

/** Reads the body up to `limit` bytes (413 past it, declared or found while reading). */
/** A body (at most the bound) must have arrived within this long, else 408 and the connection closes. */
export const SEQUENCE_CREATE_BODY_TIMEOUT_MS = 15_000;

async function readCapped(req: IncomingMessage, limit: number, timeoutMs: number): Promise<Buffer> {
  const tooLarge = () =>
    new CalleeRefusal(413, 'payload_too_large', `The body exceeds ${limit} bytes.`, { Connection: 'close' });
  if (Number(req.headers['content-length'] ?? '0') > limit) throw tooLarge();
  const chunks: Buffer[] = [];
  let size = 0;
  let late = false;
  // a caller trickling its body would hold a call's place (and its buffer) for as long as it likes
  const timer = setTimeout(() => {
    late = true;
    req.destroy();
  }, timeoutMs);
  try {
    for await (const chunk of req) {
      size += (chunk as Buffer).length;
      if (size > limit) throw tooLarge();
      chunks.push(chunk as Buffer);
    }
  } catch (error) {
    if (late)
      throw new CalleeRefusal(408, 'request_timeout', 'The body did not arrive in time.', {
        Connection: 'close',
      });
    throw error;
  } finally {
    clearTimeout(timer);
  }
  if (late)
    throw new CalleeRefusal(408, 'request_timeout', 'The body did not arrive in time.', {
      Connection: 'close',
    });
  return Buffer.concat(chunks);
}

/** The session service's refusal of a resolve, by its status. */
function refusalOfResolve(error: unknown): CalleeRefusal {
  const shaped = error as { status?: unknown; retryAfterSeconds?: unknown };
  const status = typeof shaped.status === 'number' ? shaped.status : undefined;
  if (status === 404) return grantNotFound();
  if (status === undefined || status === 429 || status === 503 || status === 504) {
    // no answer at all (a transport failure) is a dependency down too
    const seconds =
      typeof shaped.retryAfterSeconds === 'number' ? Math.max(1, Math.ceil(shaped.retryAfterSeconds)) : 1;
    return new CalleeRefusal(
      503,
      'APP_GRANT_SERVICE_UNAVAILABLE',
      'The grant cannot be checked now; retry the same call later.',
      { 'Retry-After': String(seconds) },
    );
  }
  // Framewright's own credential or request refused: fail closed, never accept the call
  return new CalleeRefusal(500, 'APP_GRANT_RESOLVE_FAILED', 'The grant could not be checked.');
}

function subjectOf(subject: ResolvedCalleeGrant['subject']): GrantSubject | undefined {
  const text = (field: string) => {
    const value = subject[field];
    return typeof value === 'string' && value !== '' ? value : undefined;
  };
  const tenantId = text('tenantId');
  const accountId = text('accountId');
  const userId = text('userId');
  if (!tenantId || !accountId || !userId) return undefined;
  const optional = (field: 'organizationId' | 'workspaceId' | 'membershipId') => {
    const value = text(field);
    return value ? { [field]: value } : {};
  };
  return {
    tenantId,
    accountId,
    userId,
    ...optional('organizationId'),
    ...optional('workspaceId'),
    ...optional('membershipId'),
  };
}

/** The handler of `/inter-app/…` (the host routes the prefix to it): `POST /inter-app/2026-01/sequences`, else 404. */
export function createSequenceCreateCallee<W extends { dir: string }>(
  options: SequenceCreateCalleeOptions<W>,
): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  const ledger = new SequenceCreateLedger();
  const now = options.now ?? Date.now;
  const limit = options.maxBodyBytes ?? SEQUENCE_CREATE_MAX_BYTES;

  const authorize = async (req: IncomingMessage) => {
    const header = req.headers[APP_GRANT_HEADER.toLowerCase()];
    const grant = (Array.isArray(header) ? header[0] : header)?.trim();
    if (!grant) {
      req.resume();
      throw new CalleeRefusal(
        401,
        'APP_GRANT_MISSING',
        'A grant is required in the X-Platform-App-Grant header.',
      );
    }
    const raw = await readCapped(req, limit, options.bodyTimeoutMs ?? SEQUENCE_CREATE_BODY_TIMEOUT_MS);
    const digest = receivedBodyDigest(raw);
    let resolved: ResolvedCalleeGrant;
    try {
      resolved = await options.resolveGrant({ grant, scope: SEQUENCE_CREATE_SCOPE, requestDigest: digest });
    } catch (error) {
      throw refusalOfResolve(error);
    }
    // re-checked here whoever resolved it: this callee, this scope and version, these bytes, alive
    const subject = resolved && typeof resolved === 'object' ? subjectOf(resolved.subject ?? {}) : undefined;
    const expiresAt = Date.parse(resolved?.expiresAt ?? '');
    if (
      !subject ||
      resolved.calleeAppKey !== options.appKey ||
      resolved.scope !== SEQUENCE_CREATE_SCOPE ||
      (resolved.apiVersion !== undefined && resolved.apiVersion !== SEQUENCE_API_VERSION) ||
      resolved.requestDigest !== digest ||
      !(expiresAt > now()) ||
      typeof resolved.callerAppKey !== 'string' ||
      typeof resolved.idempotencyKey !== 'string' ||
      resolved.idempotencyKey === ''
    )
      throw grantNotFound();
    return { raw, digest, resolved, subject };
  };

  const parse = (req: IncomingMessage, raw: Buffer): SentBoard => {
    const type = String(req.headers['content-type'] ?? '').toLowerCase();
    if (!type.startsWith('application/json'))
      throw new CalleeRefusal(415, 'unsupported_media_type', 'The body must be application/json.');
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw.toString('utf8'));
    } catch {
      throw new CalleeRefusal(400, 'invalid_json', 'The body is not valid JSON.');
    }
    const checked = SentBoard.safeParse(parsed);
    if (!checked.success) {
      const issue = checked.error.issues[0];
      throw new CalleeRefusal(
        400,
        'invalid_request',
        issue ? `${issue.path.join('.') || 'body'}: ${issue.message}` : 'The body is not a board.',
      );
    }
    return checked.data;
  };

  return async (req, res) => {
    const requestId = `req_${randomBytes(12).toString('hex')}`;
    try {
      const pathname = new URL(req.url ?? '/', 'http://callee.invalid').pathname;
      if (pathname !== SEQUENCE_CREATE_PATH) {
        req.resume();
        throw new CalleeRefusal(
          404,
          'route_not_found',
          'Framewright offers no such inter-application route.',
        );
      }
      if (req.method !== 'POST') {
        req.resume();
        throw new CalleeRefusal(405, 'method_not_allowed', 'Use POST.', { Allow: 'POST' });
      }
      const { raw, digest, resolved, subject } = await authorize(req);
      const board = parse(req, raw);
      // every check passed: now, and only now, the person's workspace is opened
      const workspace = options.workspaceOf(subject);
      const earlier = ledger.find(workspace.dir, resolved.callerAppKey, resolved.idempotencyKey);
      const { entry, created } = earlier
        ? { entry: earlier, created: false }
        : await ledger.once(
            workspace.dir,
            {
              callerAppKey: resolved.callerAppKey,
              idempotencyKey: resolved.idempotencyKey,
              requestDigest: digest,
              boardId: board.boardId,
            },
            async () => (await options.importBoard(workspace, board)).sequenceId,
          );
      if (entry.requestDigest !== digest)
        throw new CalleeRefusal(
          409,
          'idempotency_conflict',
          "This grant's idempotency key already created another request.",
        );
      const answer: SequenceCreated = {
        sequenceId: entry.sequenceId,
        boardId: entry.boardId,
        replayed: !created,
      };
      send(res, created ? 201 : 200, answer);
    } catch (error) {
      const refusal = error instanceof CalleeRefusal ? error : importRefusal(error);
      if (refusal.status >= 500)
        options.warn?.('inter-app sequence create failed', {
          error: error instanceof Error ? error.name : typeof error,
        });
      send(res, refusal.status, { code: refusal.code, message: refusal.message, requestId }, refusal.headers);
    }
  };
}
