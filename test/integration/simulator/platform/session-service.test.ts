import SwaggerParser from '@apidevtools/swagger-parser';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunningSimulator } from '../../../../src/simulator/index.js';
import {
  expectPlatformError,
  platformDocument,
  startPlatformSimulator,
  type PlatformApp,
  type PlatformClient,
} from './platform-client.js';
import { usePlatformWorld } from './platform-fixture.js';
import { tempFolder } from '../../../support/worlds/temp-folder.js';

let sim: RunningSimulator;
let client: PlatformClient;
let studio: PlatformApp;
let helper: PlatformApp;

usePlatformWorld({}, (world) => ({ sim, client, studio, helper } = world));

const HOUR = 3600;

describe('the platform object and document', () => {
  it('describes two fixture applications (the first depends on the second), three people, and URLs on the same port', () => {
    const { platform } = sim;
    const origin = new URL(sim.baseUrl).origin;
    for (const url of [platform.runtimeBaseUrl, platform.sessionBaseUrl, platform.launchUrl])
      expect(new URL(url).origin).toBe(origin);
    expect(platform.runtimeBaseUrl.endsWith('/v1')).toBe(false);
    expect(platform.users).toEqual(['manager', 'member', 'personal']);
    expect(platform.apps).toHaveLength(2);
    for (const app of platform.apps) {
      expect(Object.keys(app).sort()).toEqual(
        [
          'appCredential',
          'appId',
          'appKey',
          'appVersionId',
          'capabilities',
          'dependencies',
          'resourceTypes',
          // only the application whose business interface the simulator serves
          ...(app === helper ? ['businessBaseUrl'] : []),
        ].sort(),
      );
      expect(app.resourceTypes.length).toBeGreaterThan(0);
    }
    expect(studio.resourceTypes).toEqual(['project']);
    expect(studio.dependencies).toHaveLength(1);
    expect(studio.dependencies[0]).toMatchObject({
      calleeAppKey: helper.appKey,
      apiVersion: expect.any(String),
    });
    expect(studio.dependencies[0]!.scopes.length).toBeGreaterThan(0);
    // the two depend on each other: the helper sends boards to the studio as sequences
    expect(helper.dependencies).toEqual([
      { calleeAppKey: studio.appKey, apiVersion: '2026-01', scopes: ['sequence.create'] },
    ]);
    expect(studio.capabilities).toEqual([
      { apiVersion: '2026-01', scopes: ['sequence.create'], onlineDebug: true },
    ]);
    expect(studio.appCredential).not.toBe(helper.appCredential);
  });

  it('is a valid OpenAPI 3.1 document linked from /v1/openapi.json, with every session-service path', async () => {
    const doc = await platformDocument(sim);
    expect(doc.openapi).toMatch(/^3\.1\./);
    await SwaggerParser.validate(structuredClone(doc));
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/session/apps/{appKey}/runtime-sessions:exchange',
        '/session/apps/{appKey}/runtime-sessions/{sessionId}:resolve',
        '/session/apps/{appKey}/runtime-sessions/{sessionId}:renew',
        '/session/apps/{appKey}/runtime-sessions/{sessionId}/organization-directory/groups:list',
        '/session/apps/{appKey}/runtime-sessions/{sessionId}/organization-directory/members:list',
      ]),
    );
    expect(doc.servers[0].url + '/session').toBe(sim.platform.sessionBaseUrl);
  });
});

describe('opening an application and exchanging the launch code', () => {
  it('POST {launchUrl} answers the launch information; the exchange answers a RuntimeSession of that person', async () => {
    const res = await fetch(sim.platform.launchUrl, {
      method: 'POST',
      headers: { Authorization: `Bearer ${sim.token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ appKey: studio.appKey, user: 'manager' }),
    });
    expect(res.status).toBe(200);
    const launch = (await res.json()) as { runtime: Record<string, string> };
    expect(Object.keys(launch.runtime).sort()).toEqual(['appKey', 'appVersionId', 'expiresAt', 'launchCode']);
    expect(launch.runtime).toMatchObject({ appKey: studio.appKey, appVersionId: studio.appVersionId });

    const before = Date.now();
    const exchanged = await client.session(studio, 'POST', '/runtime-sessions:exchange', {
      json: { launchCode: launch.runtime.launchCode },
    });
    expect(exchanged.status).toBe(200);
    const session = exchanged.data;
    expect(session).toMatchObject({ appKey: studio.appKey, appVersionId: studio.appVersionId });
    expect(Object.keys(session.subject).sort()).toEqual(
      ['accountId', 'membershipId', 'organizationId', 'tenantId', 'userId', 'workspaceId'].sort(),
    );
    expect(Array.isArray(session.appRoles)).toBe(true);
    const lifetime = Date.parse(session.expiresAt) - before;
    expect(lifetime).toBeGreaterThan(24 * HOUR * 1000 - 5000);
    expect(lifetime).toBeLessThanOrEqual(24 * HOUR * 1000 + 5000);
  });

  it('a personal session has no organization context; roles are always an array', async () => {
    const session = await client.openSession(helper, 'personal');
    expect(session.subject.organizationId).toBeUndefined();
    expect(session.subject.membershipId).toBeUndefined();
    expect(session.appRoles).toEqual([]);
  });

  it('unknown app or user at launch is a 400 naming the known ones', async () => {
    const res = await fetch(sim.platform.launchUrl, {
      method: 'POST',
      headers: { Authorization: `Bearer ${sim.token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ appKey: studio.appKey, user: 'nobody' }),
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { details: { known: string[] } }).details.known).toEqual(
      sim.platform.users,
    );
  });

  it('a launch code is single use: of 10 concurrent exchanges exactly one succeeds', async () => {
    const launchCode = await client.launch(studio, 'member');
    const answers = await Promise.all(
      Array.from({ length: 10 }, () =>
        client.session(studio, 'POST', '/runtime-sessions:exchange', { json: { launchCode } }),
      ),
    );
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    for (const failed of answers.filter((a) => a.status !== 200))
      expectPlatformError(failed, 404, 'RUNTIME_SESSION_LAUNCH_CODE_NOT_FOUND');
    const again = await client.session(studio, 'POST', '/runtime-sessions:exchange', {
      json: { launchCode },
    });
    expectPlatformError(again, 404, 'RUNTIME_SESSION_LAUNCH_CODE_NOT_FOUND');
  });

  it('a wrong application key, a mismatched or missing credential do not consume the code', async () => {
    const launchCode = await client.launch(studio, 'member');
    const underOtherApp = await client.session(helper, 'POST', '/runtime-sessions:exchange', {
      json: { launchCode },
    });
    expectPlatformError(underOtherApp, 404, 'RUNTIME_SESSION_LAUNCH_CODE_NOT_FOUND');
    const mismatched = await client.session(studio, 'POST', '/runtime-sessions:exchange', {
      json: { launchCode },
      credential: helper.appCredential,
    });
    expectPlatformError(mismatched, 403, 'APP_CREDENTIAL_MISMATCH');
    const missing = await client.request(
      'POST',
      `${sim.platform.sessionBaseUrl}/apps/${studio.appKey}/runtime-sessions:exchange`,
      {
        json: { launchCode },
      },
    );
    expectPlatformError(missing, 401, 'UNAUTHENTICATED');
    const publicToken = await client.session(studio, 'POST', '/runtime-sessions:exchange', {
      json: { launchCode },
      credential: sim.token,
    });
    expectPlatformError(publicToken, 401, 'UNAUTHENTICATED');
    const right = await client.session(studio, 'POST', '/runtime-sessions:exchange', {
      json: { launchCode },
    });
    expect(right.status).toBe(200);
  });

  it('an empty or malformed exchange body is 400 INVALID_REQUEST', async () => {
    expectPlatformError(
      await client.session(studio, 'POST', '/runtime-sessions:exchange', { json: { launchCode: '' } }),
      400,
      'INVALID_REQUEST',
    );
    expectPlatformError(
      await client.session(studio, 'POST', '/runtime-sessions:exchange', {
        body: '{"launchCode":',
        headers: { 'Content-Type': 'application/json' },
      }),
      400,
      'INVALID_REQUEST',
    );
  });

  it('an expired launch code cannot be exchanged', async () => {
    const launchCode = await client.launch(studio, 'member');
    await client.advanceClock(10 * 60);
    expectPlatformError(
      await client.session(studio, 'POST', '/runtime-sessions:exchange', { json: { launchCode } }),
      404,
      'RUNTIME_SESSION_LAUNCH_CODE_NOT_FOUND',
    );
  });
});

describe('resolve', () => {
  it('answers the same session; nonexistent, cross-application and expired sessions are one uniform 404', async () => {
    const session = await client.openSession(studio, 'member');
    const resolved = await client.session(studio, 'GET', `/runtime-sessions/${session.sessionId}:resolve`);
    expect(resolved.status).toBe(200);
    expect(resolved.data).toEqual(session);

    const unknown = await client.session(studio, 'GET', '/runtime-sessions/rs_unknown:resolve');
    const crossApp = await client.session(helper, 'GET', `/runtime-sessions/${session.sessionId}:resolve`);
    const other = await client.openSession(helper, 'member');
    await client.advanceClock(24 * HOUR + 1);
    const expired = await client.session(helper, 'GET', `/runtime-sessions/${other.sessionId}:resolve`);
    for (const res of [unknown, crossApp, expired])
      expectPlatformError(res, 404, 'RUNTIME_SESSION_NOT_FOUND');
    expect(new Set([unknown, crossApp, expired].map((r) => r.data.message)).size).toBe(1);
    for (const res of [crossApp, expired]) {
      expect(res.text).not.toContain(session.sessionId);
      expect(res.text).not.toContain(other.sessionId);
    }
  });

  it('caches successes at most one second: a revoked session still resolves right away, then 404', async () => {
    const session = await client.openSession(studio, 'member');
    const resolve = () => client.session(studio, 'GET', `/runtime-sessions/${session.sessionId}:resolve`);
    expect((await resolve()).status).toBe(200);
    await client.setAccess(studio, 'member', 'revoked');
    try {
      const started = Date.now();
      const cached = await resolve();
      if (Date.now() - started < 900) expect(cached.status).toBe(200);
      await new Promise((r) => setTimeout(r, 1100));
      expectPlatformError(await resolve(), 404, 'RUNTIME_SESSION_NOT_FOUND');
    } finally {
      await client.setAccess(studio, 'member', 'granted');
    }
    // failures are not cached: access back, the session resolves again at once
    expect((await resolve()).status).toBe(200);
  });

  it('never answers from the cache past expiresAt', async () => {
    const session = await client.openSession(studio, 'member');
    const resolve = () => client.session(studio, 'GET', `/runtime-sessions/${session.sessionId}:resolve`);
    expect((await resolve()).status).toBe(200);
    await client.advanceClock(24 * HOUR);
    expectPlatformError(await resolve(), 404, 'RUNTIME_SESSION_NOT_FOUND');
  });
});

describe('renew', () => {
  it('gives a new 24-hour session; the old one stays usable one minute at most', async () => {
    const old = await client.openSession(studio, 'manager');
    await client.advanceClock(HOUR);
    const renewed = await client.session(studio, 'POST', `/runtime-sessions/${old.sessionId}:renew`);
    expect(renewed.status).toBe(200);
    const next = renewed.data;
    expect(next.sessionId).not.toBe(old.sessionId);
    expect(next.subject).toEqual(old.subject);
    expect(Date.parse(next.expiresAt) - Date.parse(old.expiresAt)).toBeGreaterThanOrEqual(HOUR * 1000 - 5000);
    const resolveOld = () => client.session(studio, 'GET', `/runtime-sessions/${old.sessionId}:resolve`);
    expect((await resolveOld()).status).toBe(200);
    await client.advanceClock(59);
    expect((await resolveOld()).status).toBe(200);
    await client.advanceClock(2);
    expectPlatformError(await resolveOld(), 404, 'RUNTIME_SESSION_NOT_FOUND');
    expect((await client.session(studio, 'GET', `/runtime-sessions/${next.sessionId}:resolve`)).status).toBe(
      200,
    );
    expectPlatformError(
      await client.session(studio, 'POST', `/runtime-sessions/${old.sessionId}:renew`),
      404,
      'RUNTIME_SESSION_NOT_FOUND',
    );
  });

  it('concurrent renewals of one session answer the same new session; body {} is accepted, anything else is 400', async () => {
    const old = await client.openSession(studio, 'member');
    const answers = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        client.session(studio, 'POST', `/runtime-sessions/${old.sessionId}:renew`, i % 2 ? { json: {} } : {}),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
    expect(new Set(answers.map((a) => a.data.sessionId)).size).toBe(1);
    expect(answers[0]!.data.sessionId).not.toBe(old.sessionId);
    for (const json of [{ sessionId: old.sessionId }, { userId: 'usr_sim_manager' }, []])
      expectPlatformError(
        await client.session(studio, 'POST', `/runtime-sessions/${old.sessionId}:renew`, { json }),
        400,
        'INVALID_REQUEST',
      );
  });

  it('renews within 7 days of the first exchange only, then RUNTIME_SESSION_REAUTHENTICATION_REQUIRED', async () => {
    let current = await client.openSession(studio, 'member');
    for (let day = 1; day <= 7; day += 1) {
      await client.advanceClock(23 * HOUR);
      const res = await client.session(studio, 'POST', `/runtime-sessions/${current.sessionId}:renew`);
      expect(res.status, `renewal after ${day * 23} h`).toBe(200);
      current = res.data;
    }
    await client.advanceClock(23 * HOUR); // 184 h after the first exchange; the session itself is still valid
    expect(
      (await client.session(studio, 'GET', `/runtime-sessions/${current.sessionId}:resolve`)).status,
    ).toBe(200);
    expectPlatformError(
      await client.session(studio, 'POST', `/runtime-sessions/${current.sessionId}:renew`),
      401,
      'RUNTIME_SESSION_REAUTHENTICATION_REQUIRED',
    );
  });

  it('names unknown, revoked and blocked renewals, and the renewal dependency being down', async () => {
    expectPlatformError(
      await client.session(studio, 'POST', '/runtime-sessions/rs_unknown:renew'),
      404,
      'RUNTIME_SESSION_NOT_FOUND',
    );
    const session = await client.openSession(helper, 'member');
    const renew = (headers?: Record<string, string>) =>
      client.session(helper, 'POST', `/runtime-sessions/${session.sessionId}:renew`, { headers });
    const down = await renew({ 'X-Simulator-Scenario': 'unavailable' });
    expectPlatformError(down, 503, 'RUNTIME_SESSION_RENEWAL_UNAVAILABLE');
    expect(down.headers.get('retry-after')).toBe('5');
    await client.setAccess(helper, 'member', 'renewal_blocked');
    expectPlatformError(await renew(), 409, 'RUNTIME_SESSION_RENEWAL_BLOCKED');
    await client.setAccess(helper, 'member', 'revoked');
    expectPlatformError(await renew(), 403, 'RUNTIME_SESSION_ACCESS_REVOKED');
    await client.setAccess(helper, 'member', 'granted');
    expect((await renew()).status).toBe(200);
  });
});

describe('state across a restart', () => {
  const dataDir = tempFolder('fw-platform-persist-');

  it('keeps sessions, unused and used launch codes, renewals and access changes', async () => {
    const first = await startPlatformSimulator({ dataDir });
    let session: { sessionId: string };
    let renewedFrom: { sessionId: string };
    let unused: string;
    let used: string;
    let renewedId: string;
    try {
      const c = first.client;
      const [a, b] = [c.app(0), c.app(1)];
      session = await c.openSession(a, 'manager');
      renewedFrom = await c.openSession(a, 'member');
      const renewed = await c.session(a, 'POST', `/runtime-sessions/${renewedFrom.sessionId}:renew`);
      expect(renewed.status).toBe(200);
      unused = await c.launch(a, 'member');
      used = await c.launch(b, 'personal');
      expect(
        (await c.session(b, 'POST', '/runtime-sessions:exchange', { json: { launchCode: used } })).status,
      ).toBe(200);
      await c.setAccess(b, 'member', 'renewal_blocked');
      renewedId = renewed.data.sessionId as string;
    } finally {
      await first.sim.close();
    }
    const second = await startPlatformSimulator({ dataDir });
    try {
      const c = second.client;
      const [a, b] = [c.app(0), c.app(1)];
      expect((await c.session(a, 'GET', `/runtime-sessions/${session.sessionId}:resolve`)).status).toBe(200);
      const again = await c.session(a, 'POST', `/runtime-sessions/${renewedFrom.sessionId}:renew`);
      expect(again.data.sessionId).toBe(renewedId!);
      expect(
        (await c.session(a, 'POST', '/runtime-sessions:exchange', { json: { launchCode: unused } })).status,
      ).toBe(200);
      expectPlatformError(
        await c.session(b, 'POST', '/runtime-sessions:exchange', { json: { launchCode: used } }),
        404,
        'RUNTIME_SESSION_LAUNCH_CODE_NOT_FOUND',
      );
      const blocked = await c.openSession(b, 'member');
      expectPlatformError(
        await c.session(b, 'POST', `/runtime-sessions/${blocked.sessionId}:renew`),
        409,
        'RUNTIME_SESSION_RENEWAL_BLOCKED',
      );
    } finally {
      await second.sim.close();
    }
    expect(readFileSync(path.join(dataDir, 'platform-state.jsonl'), 'utf8').length).toBeGreaterThan(0);
  });
});
