import { randomBytes } from 'node:crypto';
import { iso, type SimClock } from '../clock.js';
import {
  appRolesOf,
  FIXTURE_SUBJECTS,
  findApp,
  type FixtureApp,
  type FixtureUser,
  type Subject,
} from './fixtures.js';
import type { PlatformLog, PlatformLogRecord } from './platform-log.js';
import { hashSecret, PlatformSecrets } from './secrets.js';

/** How long a session launch code can be exchanged (the spec does not give it). */
export const LAUNCH_CODE_LIFETIME_SECONDS = 5 * 60;
/** A new session lives 24 hours. */
export const SESSION_LIFETIME_SECONDS = 24 * 3600;
/** Renewal is refused 7 days after the first exchange of the chain. */
export const RENEWAL_WINDOW_SECONDS = 7 * 24 * 3600;
/** After a renewal the old session stays usable at most this long. */
export const RENEWAL_OVERLAP_SECONDS = 60;
/** Successful resolves are answered from a cache at most this long (never past `expiresAt`). */
export const RESOLVE_CACHE_MS = 1000;

/** What an administrator did to a person's access to an application (simulator switch). */
export type AccessState = 'granted' | 'revoked' | 'renewal_blocked';

/** A launch code as kept (and persisted): only the hash of the code. */
export interface LaunchCodeRecord {
  /** sha256 of the launch code (the code itself is answered once, at issue, and never kept). */
  codeHash: string;
  appKey: string;
  appVersionId: string;
  user: FixtureUser;
  expiresAtMs: number;
  consumed: boolean;
}

/** A launch code just issued: the record and, this once, the code itself. */
export type IssuedLaunchCode = LaunchCodeRecord & { launchCode: string };

export interface SessionRecord {
  /** Secret, in memory only: derived from `sessionRef` by the simulator's key, never persisted. */
  sessionId: string;
  /** The session's non-secret id (the state log's key; `sessionId` is derived from it). */
  sessionRef: string;
  appKey: string;
  appVersionId: string;
  user: FixtureUser;
  subject: Subject;
  appRoles: string[];
  createdAtMs: number;
  expiresAtMs: number;
  /** First exchange of the renewal chain (the 7-day window counts from it). */
  chainStartedAtMs: number;
  /** Set by a renewal: the successor's `sessionRef` and until when this session stays usable. */
  renewedTo?: string;
  usableUntilMs?: number;
}

/** The RuntimeSession body. */
export interface RuntimeSession {
  sessionId: string;
  appKey: string;
  appVersionId: string;
  subject: Subject;
  appRoles: string[];
  expiresAt: string;
}

export type RenewOutcome =
  | { ok: true; session: SessionRecord }
  | { ok: false; reason: 'not_found' | 'revoked' | 'window_passed' | 'blocked' };

/**
 * The RuntimeSession body. `expiresAt` is when the session stops being usable: for a renewed
 * session, the end of its overlap minute (not the 24 hours it was issued with), so an
 * application that keeps a resolved session until its `expiresAt` never keeps a dead one.
 */
export function toRuntimeSession(session: SessionRecord): RuntimeSession {
  return {
    sessionId: session.sessionId,
    appKey: session.appKey,
    appVersionId: session.appVersionId,
    subject: { ...session.subject },
    appRoles: [...session.appRoles],
    expiresAt: iso(Math.min(session.expiresAtMs, session.usableUntilMs ?? Infinity)),
  };
}

/** The persisted form of a session: everything but the secret id. */
type StoredSession = Omit<SessionRecord, 'sessionId'>;

/**
 * Launch codes, runtime sessions and people's access per application. Every change is written
 * to the platform log before the answer; Node runs each handler's synchronous part alone, so a
 * code is consumed by exactly one of any number of concurrent exchanges.
 */
export class SessionStore {
  /** By code hash. */
  private readonly codes = new Map<string, LaunchCodeRecord>();
  /** By `sessionRef`; `refById` finds them by their secret id (memory only). */
  private readonly sessions = new Map<string, SessionRecord>();
  private readonly refById = new Map<string, string>();
  private readonly access = new Map<string, AccessState>();
  private readonly resolveCache = new Map<string, { session: SessionRecord; untilMs: number }>();

  constructor(
    private readonly clock: SimClock,
    private readonly log?: PlatformLog,
    private readonly secrets = new PlatformSecrets(),
  ) {}

  /** The version a launch opens (the developer control plane sets it to the application's active version). */
  activeVersionOf: (app: FixtureApp) => string = (app) => app.appVersionId;

  private static accessKey(user: FixtureUser, appKey: string): string {
    return `${user}\u0000${appKey}`;
  }

  accessOf(user: FixtureUser, appKey: string): AccessState {
    return this.access.get(SessionStore.accessKey(user, appKey)) ?? 'granted';
  }

  setAccess(user: FixtureUser, appKey: string, state: AccessState): void {
    const key = SessionStore.accessKey(user, appKey);
    this.access.set(key, state);
    this.log?.append('access', key, { user, appKey, state });
  }

  /**
   * Writes changes that stand or fall together to the log in one append, then into memory: a
   * failed write changes nothing (the launch code stays usable), and a kill never keeps a consumed
   * code without its session or a renewal without its successor.
   */
  private save(codes: readonly LaunchCodeRecord[], sessions: readonly SessionRecord[]): void {
    this.log?.appendMany([
      ...codes.map((code) => ({ t: 'launch_code', id: code.codeHash, v: code })),
      ...sessions.map((session) => ({
        t: 'session',
        id: session.sessionRef,
        v: SessionStore.stored(session),
      })),
    ]);
    for (const code of codes) this.codes.set(code.codeHash, code);
    for (const session of sessions) this.index(session);
  }

  private index(session: SessionRecord): void {
    this.sessions.set(session.sessionRef, session);
    this.refById.set(session.sessionId, session.sessionRef);
  }

  private static stored(session: SessionRecord): StoredSession {
    const { sessionId: _secret, ...stored } = session;
    return stored;
  }

  private byId(sessionId: string): SessionRecord | undefined {
    const ref = this.refById.get(sessionId);
    return ref === undefined ? undefined : this.sessions.get(ref);
  }

  /** What the application center (or a grant launch) does when a person opens an application. */
  issueLaunchCode(
    app: FixtureApp,
    user: FixtureUser,
    lifetimeSeconds = LAUNCH_CODE_LIFETIME_SECONDS,
    appVersionId = this.activeVersionOf(app),
  ): IssuedLaunchCode {
    const launchCode = `lc_${randomBytes(24).toString('base64url')}`;
    const code: LaunchCodeRecord = {
      codeHash: hashSecret(launchCode),
      appKey: app.appKey,
      appVersionId,
      user,
      expiresAtMs: this.clock.nowMs() + lifetimeSeconds * 1000,
      consumed: false,
    };
    this.save([code], []);
    return { ...code, launchCode };
  }

  /**
   * Consumes the code and creates a session, or undefined when the code is unknown, consumed,
   * expired or issued for another application (a wrong application leaves it unconsumed).
   */
  exchange(appKey: string, launchCode: string): SessionRecord | undefined {
    const code = this.codes.get(hashSecret(launchCode));
    const now = this.clock.nowMs();
    if (!code || code.consumed || code.expiresAtMs <= now || code.appKey !== appKey) return undefined;
    if (this.accessOf(code.user, appKey) === 'revoked') return undefined;
    const app = findApp(appKey);
    if (!app) return undefined;
    const session = this.newSession(app, code.user, now, now, code.appVersionId);
    this.save([{ ...code, consumed: true }], [session]);
    return session;
  }

  private newSession(
    app: FixtureApp,
    user: FixtureUser,
    now: number,
    chainStartedAtMs: number,
    appVersionId: string,
  ): SessionRecord {
    const subject = { ...FIXTURE_SUBJECTS[user] };
    const sessionRef = `rsr_${randomBytes(12).toString('hex')}`;
    return {
      sessionId: this.secrets.derive('rs', 'session', sessionRef),
      sessionRef,
      appKey: app.appKey,
      appVersionId,
      user,
      subject,
      appRoles: appRolesOf(app, subject.userId),
      createdAtMs: now,
      expiresAtMs: now + SESSION_LIFETIME_SECONDS * 1000,
      chainStartedAtMs,
    };
  }

  /** The session when it is usable by this application right now (not expired, superseded past its overlap, or revoked). */
  usable(appKey: string, sessionId: string): SessionRecord | undefined {
    const session = this.byId(sessionId);
    const now = this.clock.nowMs();
    if (!session || session.appKey !== appKey) return undefined;
    if (session.expiresAtMs <= now) return undefined;
    if (session.usableUntilMs !== undefined && session.usableUntilMs <= now) return undefined;
    if (this.accessOf(session.user, appKey) === 'revoked') return undefined;
    return session;
  }

  /** `:resolve`: successes are cached at most 1 s and never past `expiresAt`; failures are not cached. */
  resolve(appKey: string, sessionId: string): SessionRecord | undefined {
    const now = this.clock.nowMs();
    const cached = this.resolveCache.get(sessionId);
    if (cached && cached.untilMs > now && cached.session.appKey === appKey) return cached.session;
    this.resolveCache.delete(sessionId);
    const session = this.usable(appKey, sessionId);
    if (!session) return undefined;
    const untilMs = Math.min(now + RESOLVE_CACHE_MS, session.expiresAtMs, session.usableUntilMs ?? Infinity);
    this.resolveCache.set(sessionId, { session, untilMs });
    return session;
  }

  /**
   * `:renew`: a new 24-hour session; the old one stays usable at most one minute; renewing a
   * session that was already renewed answers its successor (so concurrent renewals agree).
   */
  renew(appKey: string, sessionId: string): RenewOutcome {
    const old = this.usable(appKey, sessionId);
    if (!old) {
      const known = this.byId(sessionId);
      if (known && known.appKey === appKey && this.accessOf(known.user, appKey) === 'revoked')
        return { ok: false, reason: 'revoked' };
      return { ok: false, reason: 'not_found' };
    }
    if (old.renewedTo) {
      const successor = this.sessions.get(old.renewedTo);
      if (successor) return { ok: true, session: successor };
    }
    const now = this.clock.nowMs();
    const access = this.accessOf(old.user, appKey);
    if (access === 'renewal_blocked') return { ok: false, reason: 'blocked' };
    if (now >= old.chainStartedAtMs + RENEWAL_WINDOW_SECONDS * 1000)
      return { ok: false, reason: 'window_passed' };
    const app = findApp(appKey);
    if (!app) return { ok: false, reason: 'not_found' };
    const next = this.newSession(app, old.user, now, old.chainStartedAtMs, old.appVersionId);
    this.save(
      [],
      [
        next,
        {
          ...old,
          renewedTo: next.sessionRef,
          usableUntilMs: Math.min(old.expiresAtMs, now + RENEWAL_OVERLAP_SECONDS * 1000),
        },
      ],
    );
    this.resolveCache.delete(old.sessionId);
    return { ok: true, session: next };
  }

  /** Puts back the records read from the platform log. */
  restore(records: readonly PlatformLogRecord[]): void {
    for (const record of records) {
      if (record.t === 'launch_code') {
        const code = record.v as LaunchCodeRecord;
        // a record of an older simulator (with the code in plaintext, no hash) is dropped: reopen the application
        if (typeof code.codeHash === 'string') this.codes.set(code.codeHash, code);
      } else if (record.t === 'session') {
        const stored = record.v as StoredSession;
        if (typeof stored.sessionRef === 'string')
          this.index({ ...stored, sessionId: this.secrets.derive('rs', 'session', stored.sessionRef) });
      } else if (record.t === 'access') {
        const { user, appKey, state } = record.v as { user: FixtureUser; appKey: string; state: AccessState };
        this.access.set(SessionStore.accessKey(user, appKey), state);
      }
    }
  }

  /** The records that describe the live state (expired, consumed codes are dropped). */
  snapshot(): PlatformLogRecord[] {
    const now = this.clock.nowMs();
    const records: PlatformLogRecord[] = [];
    for (const code of this.codes.values())
      if (!code.consumed && code.expiresAtMs > now)
        records.push({ t: 'launch_code', id: code.codeHash, v: code });
    for (const session of this.sessions.values())
      records.push({ t: 'session', id: session.sessionRef, v: SessionStore.stored(session) });
    for (const [key, state] of this.access) {
      const [user, appKey] = key.split('\u0000');
      records.push({ t: 'access', id: key, v: { user, appKey, state } });
    }
    return records;
  }
}
