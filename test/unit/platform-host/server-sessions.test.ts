import { describe, expect, it, vi } from 'vitest';
import {
  ApiError,
  OutcomeUnknownError,
  ResponseShapeError,
} from '../../../src/main/core/api-clients/api-errors.js';
import {
  RENEW_RETRY_DEFAULT_SECONDS,
  ServerSessions,
  subjectKeyOf,
  UNKNOWN_ID_TTL_MS,
  UNKNOWN_IDS_MAX,
} from '../../../src/main/core/platform/runtime-sessions/server-sessions.js';
import type {
  RuntimeSession,
  SessionService,
} from '../../../src/main/core/platform/runtime-sessions/session-service.js';
import { MemorySecretStore } from '../../support/memory-secret-store.js';

const HOUR = 3600 * 1000;
const T0 = Date.parse('2026-05-01T00:00:00Z');

function session(id: string, expiresAt: number): RuntimeSession {
  return {
    sessionId: id,
    appKey: 'framewright-studio',
    appVersionId: 'v1',
    subject: { tenantId: 't', accountId: 'a', userId: 'u' },
    appRoles: ['studio_editor'],
    expiresAt: new Date(expiresAt).toISOString(),
  };
}

function apiError(status: number, apiCode: string, retryAfterSeconds?: number) {
  return new ApiError({ status, apiCode, message: apiCode, retryable: status >= 500, retryAfterSeconds });
}

function rig(service: Partial<SessionService>) {
  let now = T0;
  const full: SessionService = {
    exchange: vi.fn(async () => session('s1', now + 24 * HOUR)),
    resolve: vi.fn(async () => session('s1', now + 24 * HOUR)),
    renew: vi.fn(async () => session('s2', now + 24 * HOUR)),
    ...service,
  };
  const told: { at: string; status: number; code: string }[] = [];
  const sessions = new ServerSessions({
    service: full,
    secrets: new MemorySecretStore(),
    now: () => now,
    onCredentialRefused: (at, refusal) => told.push({ at, ...refusal }),
  });
  return { sessions, service: full, advance: (ms: number) => (now += ms), told };
}

describe('server-side runtime sessions', () => {
  it('does not replay an exchange whose outcome is unknown: the page is told to reopen', async () => {
    const exchange = vi.fn(async () => {
      throw new OutcomeUnknownError('Exchanging the launch code', 'TimeoutError');
    });
    const { sessions } = rig({ exchange });
    expect(await sessions.signIn('code-1')).toEqual({ status: 'over', reason: 'exchange_failed' });
    expect(exchange).toHaveBeenCalledTimes(1);
  });

  it('an exchange answered with something that is not a RuntimeSession also ends in "reopen"', async () => {
    const exchange = vi.fn(async () => {
      throw new ResponseShapeError('Exchanging the launch code', 'not a RuntimeSession');
    });
    const { sessions } = rig({ exchange });
    expect(await sessions.signIn('code-1')).toEqual({ status: 'over', reason: 'exchange_failed' });
    expect(exchange).toHaveBeenCalledTimes(1);
  });

  it('shares one renewal among concurrent calls once at most 21600 s remain', async () => {
    let release: () => void = () => undefined;
    const renew = vi.fn(
      () =>
        new Promise<RuntimeSession>((resolve) => (release = () => resolve(session('s2', T0 + 48 * HOUR)))),
    );
    const { sessions, advance } = rig({ renew });
    const signed = await sessions.signIn('code');
    if (signed.status !== 'active') throw new Error('not signed in');
    advance(18 * HOUR - 1000); // 21601 s remain: not yet
    expect((await sessions.current(signed.id)).status).toBe('active');
    expect(renew).not.toHaveBeenCalled();
    advance(1000);
    const calls = [sessions.current(signed.id), sessions.current(signed.id), sessions.current(signed.id)];
    await Promise.resolve();
    release();
    const results = await Promise.all(calls);
    expect(renew).toHaveBeenCalledTimes(1);
    expect(results.map((r) => (r.status === 'active' ? r.sessionId : r.reason))).toEqual(['s2', 's2', 's2']);
  });

  it('ends the session on 401 or 404 of the renewal, and past 7 days without asking', async () => {
    for (const [status, code] of [
      [401, 'RUNTIME_SESSION_REAUTHENTICATION_REQUIRED'],
      [404, 'RUNTIME_SESSION_NOT_FOUND'],
    ] as const) {
      const { sessions, advance } = rig({ renew: vi.fn(async () => Promise.reject(apiError(status, code))) });
      const signed = await sessions.signIn('code');
      if (signed.status !== 'active') throw new Error('not signed in');
      advance(20 * HOUR);
      expect((await sessions.current(signed.id)).status).toBe('over');
      expect((await sessions.current(signed.id)).status).toBe('over'); // forgotten, not retried
    }
    const { sessions, service, advance } = rig({});
    const signed = await sessions.signIn('code');
    if (signed.status !== 'active') throw new Error('not signed in');
    advance(7 * 24 * HOUR);
    expect(await sessions.current(signed.id)).toEqual({ status: 'over', reason: 'window_passed' });
    expect(service.renew).not.toHaveBeenCalled();
  });

  it('keeps serving the current session while a renewal is unavailable, until it expires', async () => {
    const { sessions, advance } = rig({
      renew: vi.fn(async () => Promise.reject(apiError(503, 'RUNTIME_SESSION_RENEWAL_UNAVAILABLE'))),
    });
    const signed = await sessions.signIn('code');
    if (signed.status !== 'active') throw new Error('not signed in');
    advance(20 * HOUR);
    expect((await sessions.current(signed.id)).status).toBe('active');
    advance(4 * HOUR);
    expect((await sessions.current(signed.id)).status).toBe('over');
  });

  it('after a 503 with Retry-After, no call renews again before it has passed; the session serves meanwhile', async () => {
    const renew = vi.fn(async () =>
      Promise.reject(apiError(503, 'RUNTIME_SESSION_RENEWAL_UNAVAILABLE', 120)),
    );
    const { sessions, advance } = rig({ renew });
    const signed = await sessions.signIn('code');
    if (signed.status !== 'active') throw new Error('not signed in');
    advance(20 * HOUR);
    expect((await sessions.current(signed.id)).status).toBe('active');
    expect(renew).toHaveBeenCalledTimes(1);
    // every bridge call in the next two minutes uses the current session, and none renews
    for (let i = 0; i < 10; i += 1) {
      advance(10_000);
      expect((await sessions.current(signed.id)).status).toBe('active');
    }
    expect(renew).toHaveBeenCalledTimes(1);
    advance(21_000); // 121 s after the refusal
    await sessions.current(signed.id);
    expect(renew).toHaveBeenCalledTimes(2);
  });

  it('without a Retry-After, a failed renewal is tried again after a bounded default, not on every call', async () => {
    const renew = vi.fn(async () => Promise.reject(apiError(409, 'RUNTIME_SESSION_RENEWAL_BLOCKED')));
    const { sessions, advance } = rig({ renew });
    const signed = await sessions.signIn('code');
    if (signed.status !== 'active') throw new Error('not signed in');
    advance(20 * HOUR);
    for (let i = 0; i < 5; i += 1) await sessions.current(signed.id);
    expect(renew).toHaveBeenCalledTimes(1);
    advance(RENEW_RETRY_DEFAULT_SECONDS * 1000);
    await sessions.current(signed.id);
    expect(renew).toHaveBeenCalledTimes(2);
  });

  it('a refused application credential ends no session: the operator is told, the person keeps working', async () => {
    for (const [status, code] of [
      [401, 'UNAUTHENTICATED'],
      [403, 'APP_CREDENTIAL_MISMATCH'],
    ] as const) {
      // at renewal
      const renewing = rig({ renew: vi.fn(async () => Promise.reject(apiError(status, code))) });
      const first = await renewing.sessions.signIn('code');
      if (first.status !== 'active') throw new Error('not signed in');
      renewing.advance(20 * HOUR);
      expect((await renewing.sessions.current(first.id)).status).toBe('active');
      expect(renewing.told).toEqual([{ at: 'renew', status, code }]);
      // at the periodic resolve
      const resolving = rig({ resolve: vi.fn(async () => Promise.reject(apiError(status, code))) });
      const second = await resolving.sessions.signIn('code');
      if (second.status !== 'active') throw new Error('not signed in');
      resolving.advance(2 * 60_000);
      expect((await resolving.sessions.current(second.id)).status).toBe('active');
      expect(resolving.told).toEqual([{ at: 'resolve', status, code }]);
      // and once the credential is fixed, the same session goes on
      resolving.advance(2 * 60_000);
      vi.mocked(resolving.service.resolve).mockResolvedValue(session('s1', T0 + 24 * HOUR));
      expect((await resolving.sessions.current(second.id)).status).toBe('active');
    }
  });

  it('the session service’s own answers still end a session: revoked (403 code), unknown (404), window passed (401 code)', async () => {
    for (const [status, code, reason] of [
      [403, 'RUNTIME_SESSION_ACCESS_REVOKED', 'revoked'],
      [404, 'RUNTIME_SESSION_NOT_FOUND', 'revoked'],
      [401, 'RUNTIME_SESSION_REAUTHENTICATION_REQUIRED', 'window_passed'],
    ] as const) {
      const { sessions, advance, told } = rig({
        renew: vi.fn(async () => Promise.reject(apiError(status, code))),
      });
      const signed = await sessions.signIn('code');
      if (signed.status !== 'active') throw new Error('not signed in');
      advance(20 * HOUR);
      expect(await sessions.current(signed.id)).toEqual({ status: 'over', reason });
      expect(told).toEqual([]);
    }
  });

  it('a runtime 401 ends the session only when the session service confirms it (a 404 of resolve)', async () => {
    const valid = rig({});
    const kept = await valid.sessions.signIn('code');
    if (kept.status !== 'active') throw new Error('not signed in');
    expect(await valid.sessions.refusedByRuntime(kept.id)).toBe('credential');
    expect((await valid.sessions.current(kept.id)).status).toBe('active');
    expect(valid.told.map((t) => t.at)).toEqual(['runtime']);

    const gone = rig({});
    const ended = await gone.sessions.signIn('code');
    if (ended.status !== 'active') throw new Error('not signed in');
    vi.mocked(gone.service.resolve).mockRejectedValue(apiError(404, 'NOT_FOUND'));
    expect(await gone.sessions.refusedByRuntime(ended.id)).toBe('over');
    expect((await gone.sessions.current(ended.id)).status).toBe('over');
  });

  it('refuses a cookie value that is not one of its ids', async () => {
    const { sessions } = rig({});
    expect((await sessions.current('../../etc')).status).toBe('over');
    expect((await sessions.current(undefined)).status).toBe('over');
    expect((await sessions.current('A'.repeat(43))).status).toBe('over');
  });

  it('finds a person’s latest session for the backend’s own work, and none once it is over', async () => {
    const { sessions } = rig({});
    const first = await sessions.signIn('code-1');
    const second = await sessions.signIn('code-2');
    if (first.status !== 'active' || second.status !== 'active') throw new Error('not signed in');
    const key = subjectKeyOf(second.subject);
    expect((await sessions.latestOf(key))?.id).toBe(second.id);
    expect(await sessions.latestOf('0'.repeat(32))).toBeUndefined();
    await sessions.signOut(second.id);
    expect(await sessions.latestOf(key)).toBeUndefined();
    // the first session, still usable behind its own cookie, is not taken for the latest
    expect((await sessions.current(first.id)).status).toBe('active');
  });

  it('asks the store about an unknown cookie id once per 30 s, yet finds a session signIn makes at once', async () => {
    let now = T0;
    const store = new CountingStore();
    const ids = ['A'.repeat(43), 'B'.repeat(43)];
    const sessions = new ServerSessions({
      service: {
        exchange: vi.fn(async () => session('s1', now + 24 * HOUR)),
        resolve: vi.fn(async () => session('s1', now + 24 * HOUR)),
        renew: vi.fn(async () => session('s2', now + 24 * HOUR)),
      },
      secrets: store,
      now: () => now,
      newId: () => ids.shift()!,
    });
    const junk = 'J'.repeat(43);
    for (let i = 0; i < 50; i += 1) expect((await sessions.current(junk)).status).toBe('over');
    expect(store.sessionReads(junk)).toBe(1);
    now += UNKNOWN_ID_TTL_MS - 1;
    expect((await sessions.current(junk)).status).toBe('over');
    expect(store.sessionReads(junk)).toBe(1);
    now += 1;
    expect((await sessions.current(junk)).status).toBe('over');
    expect(store.sessionReads(junk)).toBe(2);

    // the id signIn hands out was asked about (unknown) a moment ago: the new session is found at once
    expect((await sessions.current('A'.repeat(43))).status).toBe('over');
    const signed = await sessions.signIn('code-1');
    expect(signed.status === 'active' && signed.id).toBe('A'.repeat(43));
    expect((await sessions.current('A'.repeat(43))).status).toBe('active');
    // and a session restored by another instance of the table (a restart) is read from the store
    const restarted = new ServerSessions({
      service: {
        exchange: vi.fn(),
        resolve: vi.fn(async () => session('s1', now + 24 * HOUR)),
        renew: vi.fn(),
      },
      secrets: store,
      now: () => now,
    });
    expect((await restarted.current('A'.repeat(43))).status).toBe('active');
  });

  it('remembers a bounded number of unknown ids', async () => {
    const store = new CountingStore();
    const { sessions } = rigWith(store);
    const id = (i: number) => `${String(i).padStart(8, '0')}${'x'.repeat(35)}`;
    for (let i = 0; i <= UNKNOWN_IDS_MAX; i += 1) await sessions.current(id(i));
    // the oldest was dropped to make room: asked again; the newest is still remembered
    await sessions.current(id(0));
    await sessions.current(id(UNKNOWN_IDS_MAX));
    expect(store.sessionReads(id(0))).toBe(2);
    expect(store.sessionReads(id(UNKNOWN_IDS_MAX))).toBe(1);
  });

  it('sweeps stored sessions that ended (7-day window passed, or expired) and their index entries', async () => {
    let now = T0;
    const store = new CountingStore();
    let n = 0;
    const people = ['u-old', 'u-expired', 'u-live'];
    const sessions = new ServerSessions({
      service: {
        exchange: vi.fn(async () => ({
          // the first one's expiry lies beyond its window: only the window ends it
          ...session(`s-${n}`, now + (n === 0 ? 10 * 24 : 24) * HOUR),
          subject: { tenantId: 't', accountId: 'a', userId: people[n++]! },
        })),
        resolve: vi.fn(async () => session('s', now + 24 * HOUR)),
        renew: vi.fn(async () => session('s', now + 24 * HOUR)),
      },
      secrets: store,
      now: () => now,
    });
    const old = await sessions.signIn('code-old');
    now += 6 * 24 * HOUR;
    const expired = await sessions.signIn('code-expired');
    now += 23 * HOUR;
    const live = await sessions.signIn('code-live');
    if (old.status !== 'active' || expired.status !== 'active' || live.status !== 'active')
      throw new Error('not signed in');
    // an index entry naming a session that is gone
    await store.set('runtime-session-of:dangling', 'Z'.repeat(43));
    expect(await sessions.sweep()).toBe(0);
    // the old session passes its window, the other expired 5 minutes ago; neither was used since
    now += HOUR + 5 * 60_000;
    expect(await sessions.sweep()).toBe(2);
    const names = await store.namesWithPrefix('runtime-session');
    expect(names.sort()).toEqual(
      [`runtime-session:${live.id}`, `runtime-session-of:${subjectKeyOf(live.subject)}`].sort(),
    );
    expect((await sessions.current(live.id)).status).toBe('active');
    expect((await sessions.current(old.id)).status).toBe('over');
  });

  it('sweeps on a timer that keeps no process alive and stops at close', async () => {
    vi.useFakeTimers();
    try {
      const store = new CountingStore();
      const { sessions } = rigWith(store);
      const sweep = vi.spyOn(sessions, 'sweep');
      sessions.startSweeping(() => undefined, 1_000);
      await vi.advanceTimersByTimeAsync(3_000);
      expect(sweep).toHaveBeenCalledTimes(3);
      sessions.close();
      await vi.advanceTimersByTimeAsync(3_000);
      expect(sweep).toHaveBeenCalledTimes(3);
    } finally {
      vi.useRealTimers();
    }
  });
});

/** A memory store that counts the reads of each session entry. */
class CountingStore extends MemorySecretStore {
  private readonly reads = new Map<string, number>();
  override async get(name: string) {
    this.reads.set(name, (this.reads.get(name) ?? 0) + 1);
    return super.get(name);
  }
  sessionReads(id: string): number {
    return this.reads.get(`runtime-session:${id}`) ?? 0;
  }
}

function rigWith(store: MemorySecretStore) {
  const now = T0;
  const sessions = new ServerSessions({
    service: {
      exchange: vi.fn(async () => session('s1', now + 24 * HOUR)),
      resolve: vi.fn(async () => session('s1', now + 24 * HOUR)),
      renew: vi.fn(async () => session('s2', now + 24 * HOUR)),
    },
    secrets: store,
    now: () => now,
  });
  return { sessions };
}
