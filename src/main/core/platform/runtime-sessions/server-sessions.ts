import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash, randomBytes } from 'node:crypto';
import { setNewest } from '../../bounded-map.js';
import { AppError } from '../../errors.js';
import { ApiError } from '../../api-clients/api-errors.js';
import type { SecretNames, SecretStore } from '../../secrets/secret-store.js';
import type { RuntimeSession, SessionService } from './session-service.js';

/** Renew when at most this many seconds remain (the spec's reference client). */
export const RENEW_WHEN_REMAINING_SECONDS = 21_600;
/** The absolute renewal window from the first exchange. */
export const ABSOLUTE_WINDOW_SECONDS = 7 * 24 * 3600;
/**
 * How long a resolve of the session service vouches for a session here. Each session in use is
 * resolved again on its first use after this many seconds (never on a timer), so a person whose
 * access was revoked is told within this interval, and the platform sees at most one resolve per
 * minute per session in use. The exchange at sign-in is itself the first verification.
 */
export const RESOLVE_INTERVAL_SECONDS = 60;
/**
 * How long a cookie id the store does not hold is answered "unknown" without asking the store
 * again. A session made by `signIn` is never shadowed: its id is cleared from this cache.
 */
export const UNKNOWN_ID_TTL_MS = 30_000;
/** At most this many unknown ids are remembered (the oldest are dropped first). */
export const UNKNOWN_IDS_MAX = 10_000;
/** How often stored sessions that ended are swept (and once at start). */
export const SWEEP_INTERVAL_MS = 10 * 60_000;
/**
 * A session is swept this long after its expiry (a renewal needs a valid session, so none is
 * possible then; the margin covers a clock a little ahead of the platform's).
 */
export const SWEEP_EXPIRED_GRACE_MS = 5 * 60_000;
/** Without a `Retry-After`, a renewal that failed is tried again after this many seconds. */
export const RENEW_RETRY_DEFAULT_SECONDS = 30;
/** A `Retry-After` longer than this is capped (a renewal is still tried well before expiry). */
export const RENEW_RETRY_MAX_SECONDS = 600;
const SECRET_KEY_PREFIX = 'runtime-session:';
/** `runtime-session-of:<subjectKey>` → the id of the person's latest server-side session. */
const SUBJECT_INDEX_PREFIX = 'runtime-session-of:';

/**
 * A launch code as this backend accepts it: 1..1024 visible ASCII characters (no spaces, controls
 * or other scripts). The spec keeps the code opaque and only requires it non-empty; codes arrive
 * in a URL query, so anything else is not one the platform handed out.
 */
export function isWellFormedLaunchCode(code: unknown): code is string {
  return typeof code === 'string' && /^[\x21-\x7e]{1,1024}$/.test(code);
}

/** Who a server-side session belongs to: the RuntimeSession's snapshot, without its id. */
export interface SignedInUser {
  readonly subject: RuntimeSession['subject'];
  readonly appRoles: readonly string[];
  readonly expiresAt: string;
  /** Milliseconds since the epoch of the first exchange (the start of the 7-day window). */
  readonly firstExchangeAt: number;
}

/** A usable server-side session. `sessionId` stays in the backend: never answered, never logged. */
export interface ActiveSession extends SignedInUser {
  readonly status: 'active';
  readonly id: string;
  readonly sessionId: string;
  /** The per-session CSRF token the page sends as a header on every state-changing call. */
  readonly csrfToken: string;
}

/** Why the person must reopen the application from the application center. */
export type SessionOverReason = 'unknown' | 'expired' | 'window_passed' | 'revoked' | 'exchange_failed';
export interface SessionOver {
  readonly status: 'over';
  readonly reason: SessionOverReason;
}

/**
 * What a refusal of the session service means (spec C and the named codes of "Errors"): resolve
 * answers a uniform 404 for every session problem, and renew names the session's own codes
 * (`RUNTIME_SESSION_NOT_FOUND` 404, `RUNTIME_SESSION_REAUTHENTICATION_REQUIRED` 401,
 * `RUNTIME_SESSION_ACCESS_REVOKED` 403). Any other 401/403 refuses the backend's application
 * credential ("the credential must match {appKey}"): the backend's problem, never the person's, so
 * it ends no session. Anything else (429, 503, 409 renewal blocked, no answer) is undefined:
 * the session serves while it lasts and the call is tried again later.
 */
export function sessionRefusal(error: unknown): SessionOverReason | 'credential' | undefined {
  if (!(error instanceof ApiError)) return undefined;
  if (error.status === 404) return 'revoked';
  if (error.status === 401 && error.apiCode === 'RUNTIME_SESSION_REAUTHENTICATION_REQUIRED')
    return 'window_passed';
  if (error.status === 403 && error.apiCode === 'RUNTIME_SESSION_ACCESS_REVOKED') return 'revoked';
  if (error.status === 401 || error.status === 403) return 'credential';
  return undefined;
}

/** Which call of the backend found its application credential refused (for the operator's log). */
export type CredentialRefusedAt = 'resolve' | 'renew' | 'runtime';

interface StoredSession extends SignedInUser {
  sessionId: string;
  csrfToken: string;
}

export interface ServerSessionsOptions {
  service: SessionService;
  /** The platform backend's secret store: a restarted backend keeps its users signed in. */
  secrets: SecretStore & SecretNames;
  now?: () => number;
  /** A new cookie id (tests); 32 random bytes, base64url, by default. */
  newId?: () => string;
  /**
   * The platform refused the backend's application credential: told to the operator (no session
   * ends for it). Receives the call and the refusal's HTTP status and code, never a credential.
   */
  onCredentialRefused?: (at: CredentialRefusedAt, refusal: { status: number; code: string }) => void;
}

/**
 * The server-side session table of the platform host. The cookie carries only a random 256-bit
 * opaque id; behind it, the RuntimeSession of one person, kept in memory and in the secret store
 * (key `runtime-session:<id>`, the record base64url-encoded JSON).
 *
 * - `signIn` exchanges a launch code once. Any failure, including an unknown outcome, is not
 *   replayed: the page says to reopen the application.
 * - `current` renews when at most 21600 s remain (concurrent callers share one renewal), and not
 *   again before a failed renewal's `Retry-After`; past the 7-day window, or when the service
 *   names the session refused (`sessionRefusal`), the session is over — a refused application
 *   credential ends none.
 * - `current` resolves a session again on its first use more than `RESOLVE_INTERVAL_SECONDS` after
 *   its last resolve (sign-in and renewal count as one); a 404 ends it (access revoked).
 * - A cookie id the store does not hold is answered "unknown" from memory for `UNKNOWN_ID_TTL_MS`
 *   (at most `UNKNOWN_IDS_MAX` ids), so a client repeating junk cookies does not reach the store.
 * - `sweep` (at start and every `SWEEP_INTERVAL_MS`) deletes the stored sessions that ended.
 */
export class ServerSessions {
  private readonly memory = new Map<string, StoredSession>();
  private readonly renewals = new Map<string, Promise<ActiveSession | SessionOver>>();
  /** When each session was last vouched for by the service (memory only: a restart resolves again). */
  private readonly resolvedAt = new Map<string, number>();
  private readonly resolving = new Map<string, Promise<ActiveSession | SessionOver>>();
  /** After a failed renewal: not before this time (its `Retry-After`, or a bounded default). */
  private readonly renewRetryAt = new Map<string, number>();
  /** Cookie ids the store did not hold, until when they are answered "unknown" without asking it. */
  private readonly unknownIds = new Map<string, number>();
  private sweepTimer: NodeJS.Timeout | undefined;
  private readonly now: () => number;

  /** Sessions this process holds in memory now (a metric; a stored one not yet read is not counted). */
  get openCount(): number {
    return this.memory.size;
  }

  constructor(private readonly options: ServerSessionsOptions) {
    this.now = options.now ?? Date.now;
  }

  async signIn(launchCode: string): Promise<ActiveSession | SessionOver> {
    // malformed codes never reach the session service (an unauthenticated caller must not make the
    // backend call out with its credential for junk)
    if (!isWellFormedLaunchCode(launchCode)) return { status: 'over', reason: 'exchange_failed' };
    let session: RuntimeSession;
    try {
      session = await this.options.service.exchange(launchCode);
    } catch (error) {
      // refused, unknown outcome or an unreadable answer: the code may be spent, never replay it
      if (error instanceof AppError) return { status: 'over', reason: 'exchange_failed' };
      throw error;
    }
    const id = this.options.newId?.() ?? randomBytes(32).toString('base64url');
    const stored: StoredSession = {
      sessionId: session.sessionId,
      subject: session.subject,
      appRoles: session.appRoles,
      expiresAt: session.expiresAt,
      firstExchangeAt: this.now(),
      csrfToken: randomBytes(32).toString('base64url'),
    };
    await this.save(id, stored);
    this.resolvedAt.set(id, this.now());
    return active(id, stored);
  }

  /** The usable session behind a cookie's id (renewed if due), or why it is over. */
  async current(id: string | undefined): Promise<ActiveSession | SessionOver> {
    if (!id || !/^[A-Za-z0-9_-]{43}$/.test(id)) return { status: 'over', reason: 'unknown' };
    if (!this.memory.has(id) && this.knownUnknown(id)) return { status: 'over', reason: 'unknown' };
    const stored = await this.load(id);
    if (!stored) return { status: 'over', reason: 'unknown' };
    const now = this.now();
    if (now - stored.firstExchangeAt >= ABSOLUTE_WINDOW_SECONDS * 1000) return this.end(id, 'window_passed');
    const remaining = (Date.parse(stored.expiresAt) - now) / 1000;
    if (remaining > RENEW_WHEN_REMAINING_SECONDS) return this.resolvedIfDue(id, stored);
    // a renewal that failed is not tried again before its Retry-After: the session serves meanwhile
    const retryAt = this.renewRetryAt.get(id);
    if (retryAt !== undefined && now < retryAt && remaining > 0) return this.resolvedIfDue(id, stored);
    let renewal = this.renewals.get(id);
    if (!renewal) {
      renewal = this.renew(id, stored).finally(() => this.renewals.delete(id));
      this.renewals.set(id, renewal);
    }
    return renewal;
  }

  /**
   * The person's latest session, for the work the backend does on its own (resume and batch-get at
   * start, polling on after a request was answered, the events consumer; a request uses its own
   * cookie's session, see `asRequestOf`): renewed if due; undefined when they
   * have none any more — their jobs are then read with their recovery references.
   */
  async latestOf(subjectKey: string): Promise<ActiveSession | undefined> {
    const id = await this.options.secrets.get(SUBJECT_INDEX_PREFIX + subjectKey);
    if (!id) return undefined;
    const session = await this.current(id);
    return session.status === 'active' ? session : undefined;
  }

  /**
   * Deletes the stored sessions that ended — past their 7-day window, or expired (by more than
   * {@link SWEEP_EXPIRED_GRACE_MS}) so that no renewal is possible — and their person's index entry
   * when it names them, and index entries naming no session. Returns how many sessions it deleted.
   */
  async sweep(): Promise<number> {
    const now = this.now();
    let swept = 0;
    for (const name of await this.options.secrets.namesWithPrefix(SECRET_KEY_PREFIX)) {
      const id = name.slice(SECRET_KEY_PREFIX.length);
      if (this.renewals.has(id) || this.resolving.has(id)) continue;
      const stored = await this.load(id);
      const ended =
        !stored ||
        now - stored.firstExchangeAt >= ABSOLUTE_WINDOW_SECONDS * 1000 ||
        Date.parse(stored.expiresAt) + SWEEP_EXPIRED_GRACE_MS <= now;
      if (!ended) continue;
      if (stored) await this.end(id, 'expired');
      else await this.options.secrets.delete(name);
      swept += 1;
    }
    for (const index of await this.options.secrets.namesWithPrefix(SUBJECT_INDEX_PREFIX)) {
      const id = await this.options.secrets.get(index);
      if (!id || !(await this.options.secrets.has(SECRET_KEY_PREFIX + id)))
        await this.options.secrets.delete(index);
    }
    return swept;
  }

  /** Sweeps every `intervalMs` (the timer keeps no process alive) until {@link close}. */
  startSweeping(onError: (error: unknown) => void, intervalMs = SWEEP_INTERVAL_MS): void {
    if (this.sweepTimer) return;
    this.sweepTimer = setInterval(() => {
      this.sweep().catch(onError);
    }, intervalMs);
    this.sweepTimer.unref();
  }

  /** Stops the sweep timer. */
  close(): void {
    if (this.sweepTimer) clearInterval(this.sweepTimer);
    this.sweepTimer = undefined;
  }

  /** Signs out: forgets the session here and in the secret store. */
  async signOut(id: string): Promise<void> {
    await this.end(id, 'unknown');
  }

  /**
   * The runtime answered 401 to a call made with this session. The runtime's 401 means "credential
   * or session invalid" (spec, "Errors"), so the session service decides which: a resolve that
   * answers 404 (or a session code) ends the session; one that succeeds, or refuses the credential,
   * keeps it — the backend's credential was refused and the operator is told. `unknown`: the
   * service did not answer; the session is kept and the call may be tried again.
   */
  async refusedByRuntime(id: string): Promise<'over' | 'credential' | 'unknown'> {
    const stored = await this.load(id);
    if (!stored) return 'over';
    try {
      await this.options.service.resolve(stored.sessionId);
    } catch (error) {
      const refusal = sessionRefusal(error);
      if (refusal === undefined) return 'unknown';
      if (refusal !== 'credential') {
        await this.end(id, refusal);
        return 'over';
      }
      this.tellCredentialRefused('resolve', error);
      return 'credential';
    }
    this.resolvedAt.set(id, this.now());
    this.options.onCredentialRefused?.('runtime', { status: 401, code: 'runtime_refused_valid_session' });
    return 'credential';
  }

  private tellCredentialRefused(at: CredentialRefusedAt, error: unknown): void {
    if (error instanceof ApiError)
      this.options.onCredentialRefused?.(at, { status: error.status, code: error.apiCode });
  }

  /** The session as it is, resolved again first when the last resolve is older than the interval. */
  private resolvedIfDue(id: string, stored: StoredSession): Promise<ActiveSession | SessionOver> {
    const last = this.resolvedAt.get(id);
    if (last !== undefined && this.now() - last < RESOLVE_INTERVAL_SECONDS * 1000)
      return Promise.resolve(active(id, stored));
    let resolving = this.resolving.get(id);
    if (!resolving) {
      resolving = this.resolve(id, stored).finally(() => this.resolving.delete(id));
      this.resolving.set(id, resolving);
    }
    return resolving;
  }

  private async resolve(id: string, stored: StoredSession): Promise<ActiveSession | SessionOver> {
    const startedAt = this.now();
    try {
      await this.options.service.resolve(stored.sessionId);
    } catch (error) {
      // 404: unknown, expired or revoked alike (the spec's uniform answer) — the session is over
      const refusal = sessionRefusal(error);
      if (refusal !== undefined && refusal !== 'credential') return this.end(id, refusal);
      // the backend's credential refused, unavailable or unknown: the session serves, and is asked
      // again after the interval, or after the service's Retry-After when that is longer (the
      // platform's load per session stays bounded while it is down)
      if (refusal === 'credential') this.tellCredentialRefused('resolve', error);
      const wait = error instanceof ApiError ? (error.retryAfterSeconds ?? 0) : 0;
      this.resolvedAt.set(id, startedAt + Math.max(0, wait - RESOLVE_INTERVAL_SECONDS) * 1000);
      return active(id, stored);
    }
    this.resolvedAt.set(id, startedAt);
    return active(id, stored);
  }

  private async renew(id: string, stored: StoredSession): Promise<ActiveSession | SessionOver> {
    let renewed: RuntimeSession;
    try {
      renewed = await this.options.service.renew(stored.sessionId);
    } catch (error) {
      const refusal = sessionRefusal(error);
      if (refusal !== undefined && refusal !== 'credential') return this.end(id, refusal);
      if (refusal === 'credential') this.tellCredentialRefused('renew', error);
      // the credential refused, blocked, unavailable or unknown: the current session serves while
      // it lasts, and no call renews again before the service's Retry-After (spec, "Errors":
      // 429/503 "honour Retry-After, bounded back-off")
      const advised = error instanceof ApiError ? error.retryAfterSeconds : undefined;
      const wait = Math.min(RENEW_RETRY_MAX_SECONDS, Math.max(1, advised ?? RENEW_RETRY_DEFAULT_SECONDS));
      this.renewRetryAt.set(id, this.now() + wait * 1000);
      if (Date.parse(stored.expiresAt) > this.now()) return active(id, stored);
      return this.end(id, 'expired');
    }
    this.renewRetryAt.delete(id);
    const next: StoredSession = {
      ...stored,
      sessionId: renewed.sessionId,
      subject: renewed.subject,
      appRoles: renewed.appRoles,
      expiresAt: renewed.expiresAt,
    };
    await this.save(id, next);
    this.resolvedAt.set(id, this.now());
    return active(id, next);
  }

  /** Whether the id was found unknown less than {@link UNKNOWN_ID_TTL_MS} ago. */
  private knownUnknown(id: string): boolean {
    const until = this.unknownIds.get(id);
    if (until === undefined) return false;
    if (this.now() < until) return true;
    this.unknownIds.delete(id);
    return false;
  }

  private rememberUnknown(id: string): void {
    setNewest(this.unknownIds, id, this.now() + UNKNOWN_ID_TTL_MS, UNKNOWN_IDS_MAX);
  }

  private async save(id: string, stored: StoredSession): Promise<void> {
    this.unknownIds.delete(id);
    this.memory.set(id, stored);
    const encoded = Buffer.from(JSON.stringify(stored), 'utf8').toString('base64url');
    await this.options.secrets.set(SECRET_KEY_PREFIX + id, encoded);
    await this.options.secrets.set(SUBJECT_INDEX_PREFIX + subjectKeyOf(stored.subject), id);
  }

  private async load(id: string): Promise<StoredSession | undefined> {
    const known = this.memory.get(id);
    if (known) return known;
    const encoded = await this.options.secrets.get(SECRET_KEY_PREFIX + id);
    const stored = encoded ? decodeStored(encoded) : undefined;
    if (!stored) {
      this.rememberUnknown(id);
      return undefined;
    }
    this.memory.set(id, stored);
    return stored;
  }

  private async end(id: string, reason: SessionOverReason): Promise<SessionOver> {
    const stored = this.memory.get(id) ?? (await this.load(id));
    this.memory.delete(id);
    this.resolvedAt.delete(id);
    this.renewRetryAt.delete(id);
    await this.options.secrets.delete(SECRET_KEY_PREFIX + id).catch(() => false);
    this.rememberUnknown(id);
    if (stored) {
      const index = SUBJECT_INDEX_PREFIX + subjectKeyOf(stored.subject);
      if ((await this.options.secrets.get(index).catch(() => undefined)) === id)
        await this.options.secrets.delete(index).catch(() => false);
    }
    return { status: 'over', reason };
  }
}

function decodeStored(encoded: string): StoredSession | undefined {
  try {
    const stored = JSON.parse(Buffer.from(encoded, 'base64url').toString('utf8')) as StoredSession;
    if (typeof stored.sessionId !== 'string' || typeof stored.csrfToken !== 'string') return undefined;
    return stored;
  } catch {
    return undefined;
  }
}

function active(id: string, stored: StoredSession): ActiveSession {
  return {
    status: 'active',
    id,
    sessionId: stored.sessionId,
    csrfToken: stored.csrfToken,
    subject: stored.subject,
    appRoles: stored.appRoles,
    expiresAt: stored.expiresAt,
    firstExchangeAt: stored.firstExchangeAt,
  };
}

/**
 * The workspace key of a subject in the context its session names: sha256 of
 * "tenant\0account\0user\0context" hex, first 32 characters, where the context is
 * `org:<organizationId>` or `personal`. A person's personal work and each organization's work are
 * kept apart (journal, files, latest session).
 */
export function subjectKeyOf(subject: RuntimeSession['subject']): string {
  const context = subject.organizationId ? `org:${subject.organizationId}` : 'personal';
  return createHash('sha256')
    .update(`${subject.tenantId}\0${subject.accountId}\0${subject.userId}\0${context}`)
    .digest('hex')
    .slice(0, 32);
}

/** The key before workspaces were kept per context (tenant, account and user only): for migration. */
export function legacySubjectKeyOf(subject: RuntimeSession['subject']): string {
  return createHash('sha256')
    .update(`${subject.tenantId}\0${subject.accountId}\0${subject.userId}`)
    .digest('hex')
    .slice(0, 32);
}

/** The cookie's session of the request being answered; `answered` once its response is sent. */
interface RequestScope {
  readonly id: string;
  answered: boolean;
}
const requestScope = new AsyncLocalStorage<RequestScope>();

/**
 * Runs a request's work as the request's own session (the one its cookie names). While the request
 * is being answered, the workspace acts with this session only — never with another browser's or
 * another organization's session of the same person. Work the request leaves running afterwards
 * (a job polled on) is the backend's own work again and uses the person's latest session.
 */
export async function asRequestOf<T>(session: Pick<ActiveSession, 'id'>, work: () => Promise<T>): Promise<T> {
  const scope: RequestScope = { id: session.id, answered: false };
  try {
    return await requestScope.run(scope, work);
  } finally {
    scope.answered = true;
  }
}

/** The cookie id of the request being answered here, or undefined for the backend's own work. */
export function requestSessionId(): string | undefined {
  const scope = requestScope.getStore();
  return scope && !scope.answered ? scope.id : undefined;
}
