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

export interface LaunchCodeRecord {
  launchCode: string;
  appKey: string;
  appVersionId: string;
  user: FixtureUser;
  expiresAtMs: number;
  consumed: boolean;
}

export interface SessionRecord {
  sessionId: string;
  appKey: string;
  appVersionId: string;
  user: FixtureUser;
  subject: Subject;
  appRoles: string[];
  createdAtMs: number;
  expiresAtMs: number;
  /** First exchange of the renewal chain (the 7-day window counts from it). */
  chainStartedAtMs: number;
  /** Set by a renewal: the successor and until when this session stays usable. */
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

export function toRuntimeSession(session: SessionRecord): RuntimeSession {
  return {
    sessionId: session.sessionId,
    appKey: session.appKey,
    appVersionId: session.appVersionId,
    subject: { ...session.subject },
    appRoles: [...session.appRoles],
    expiresAt: iso(session.expiresAtMs),
  };
}

const secret = (prefix: string) => `${prefix}_${randomBytes(24).toString('base64url')}`;

/**
 * Launch codes, runtime sessions and people's access per application. Every change is written
 * to the platform log before the answer; Node runs each handler's synchronous part alone, so a
 * code is consumed by exactly one of any number of concurrent exchanges.
 */
export class SessionStore {
  private readonly codes = new Map<string, LaunchCodeRecord>();
  private readonly sessions = new Map<string, SessionRecord>();
  private readonly access = new Map<string, AccessState>();
  private readonly resolveCache = new Map<string, { session: SessionRecord; untilMs: number }>();

  constructor(
    private readonly clock: SimClock,
    private readonly log?: PlatformLog,
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

  private saveCode(code: LaunchCodeRecord): void {
    this.codes.set(code.launchCode, code);
    this.log?.append('launch_code', code.launchCode, code);
  }

  private saveSession(session: SessionRecord): void {
    this.sessions.set(session.sessionId, session);
    this.log?.append('session', session.sessionId, session);
  }

  /** What the application center (or a grant launch) does when a person opens an application. */
  issueLaunchCode(
    app: FixtureApp,
    user: FixtureUser,
    lifetimeSeconds = LAUNCH_CODE_LIFETIME_SECONDS,
    appVersionId = this.activeVersionOf(app),
  ): LaunchCodeRecord {
    const code: LaunchCodeRecord = {
      launchCode: secret('lc'),
      appKey: app.appKey,
      appVersionId,
      user,
      expiresAtMs: this.clock.nowMs() + lifetimeSeconds * 1000,
      consumed: false,
    };
    this.saveCode(code);
    return code;
  }

  /**
   * Consumes the code and creates a session, or undefined when the code is unknown, consumed,
   * expired or issued for another application (a wrong application leaves it unconsumed).
   */
  exchange(appKey: string, launchCode: string): SessionRecord | undefined {
    const code = this.codes.get(launchCode);
    const now = this.clock.nowMs();
    if (!code || code.consumed || code.expiresAtMs <= now || code.appKey !== appKey) return undefined;
    if (this.accessOf(code.user, appKey) === 'revoked') return undefined;
    const app = findApp(appKey);
    if (!app) return undefined;
    this.saveCode({ ...code, consumed: true });
    const session = this.newSession(app, code.user, now, now, code.appVersionId);
    this.saveSession(session);
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
    return {
      sessionId: secret('rs'),
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
    const session = this.sessions.get(sessionId);
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
      const known = this.sessions.get(sessionId);
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
    this.saveSession(next);
    this.saveSession({
      ...old,
      renewedTo: next.sessionId,
      usableUntilMs: Math.min(old.expiresAtMs, now + RENEWAL_OVERLAP_SECONDS * 1000),
    });
    this.resolveCache.delete(old.sessionId);
    return { ok: true, session: next };
  }

  /** Puts back the records read from the platform log. */
  restore(records: readonly PlatformLogRecord[]): void {
    for (const record of records) {
      if (record.t === 'launch_code') {
        const code = record.v as LaunchCodeRecord;
        this.codes.set(code.launchCode, code);
      } else if (record.t === 'session') {
        const session = record.v as SessionRecord;
        this.sessions.set(session.sessionId, session);
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
        records.push({ t: 'launch_code', id: code.launchCode, v: code });
    for (const session of this.sessions.values())
      records.push({ t: 'session', id: session.sessionId, v: session });
    for (const [key, state] of this.access) {
      const [user, appKey] = key.split('\u0000');
      records.push({ t: 'access', id: key, v: { user, appKey, state } });
    }
    return records;
  }
}
