import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Json } from '../client.js';
import { expectPlatformError, type PlatformApp, type PlatformClient } from './platform-client.js';
import { usePlatformWorld } from './platform-fixture.js';

let client: PlatformClient;
let caller: PlatformApp;
let callee: PlatformApp;
let session: Json;

usePlatformWorld({ sessions: ['member'] }, (world) => {
  ({ client, studio: caller, helper: callee } = world);
  session = world.sessions.member;
});

/** The spec's recommended digest: UTF-8 JSON with sorted keys and no whitespace. */
const digest = (body: Record<string, unknown>) =>
  'sha256:' +
  createHash('sha256')
    .update(JSON.stringify(Object.fromEntries(Object.entries(body).sort(([a], [b]) => a.localeCompare(b)))))
    .digest('hex');

const issue = (json: unknown, app: PlatformApp = caller) =>
  client.session(app, 'POST', '/app-grants', { json });
const use = (action: 'resolve' | 'launch', json: unknown, app: PlatformApp = callee) =>
  client.session(app, 'POST', `/app-grants:${action}`, { json });

function request(idempotencyKey: string, business: Record<string, unknown> = { boardId: 'b-1' }) {
  const dep = caller.dependencies[0]!;
  return {
    runtimeSessionId: session.sessionId,
    calleeAppKey: dep.calleeAppKey,
    scope: dep.scopes[0]!,
    apiVersion: dep.apiVersion,
    idempotencyKey,
    requestDigest: digest(business),
  };
}

describe('app grants', () => {
  it('issues a 2-minute grant the callee resolves (without consuming or returning it) and launches once', async () => {
    const body = request('grant-1');
    const issued = await issue(body);
    expect(issued.status, issued.text).toBe(200);
    const lifetime = Date.parse(issued.data.expiresAt) - Date.now();
    expect(lifetime).toBeGreaterThan(100_000);
    expect(lifetime).toBeLessThanOrEqual(121_000);
    const use1 = { grant: issued.data.grant, scope: body.scope, requestDigest: body.requestDigest };
    for (let i = 0; i < 2; i += 1) {
      const resolved = await use('resolve', use1);
      expect(resolved.status).toBe(200);
      expect(resolved.data).toMatchObject({
        callerAppKey: caller.appKey,
        calleeAppKey: callee.appKey,
        subject: session.subject,
        callerAppRoles: session.appRoles,
        scope: body.scope,
        idempotencyKey: 'grant-1',
        requestDigest: body.requestDigest,
      });
      expect(resolved.text).not.toContain(issued.data.grant);
    }
    const launched = await use('launch', use1);
    expect(launched.status).toBe(200);
    expect(Date.parse(launched.data.expiresAt) - Date.now()).toBeLessThanOrEqual(61_000);
    const exchanged = await client.session(callee, 'POST', '/runtime-sessions:exchange', {
      json: { launchCode: launched.data.launchCode },
    });
    expect(exchanged.status).toBe(200);
    expect(exchanged.data).toMatchObject({ appKey: callee.appKey, subject: session.subject });
    expect(
      (
        await client.session(callee, 'POST', '/runtime-sessions:exchange', {
          json: { launchCode: launched.data.launchCode },
        })
      ).status,
    ).toBe(404);
  });

  it('the same key and request reuse the grant, whose plaintext appears once; another request under the key is APP_GRANT_IDEMPOTENCY_CONFLICT', async () => {
    const body = request('grant-2');
    const first = await issue(body);
    expect(first.status).toBe(200);
    expect(first.data.grant).toMatch(/^agr_/);
    const again = await issue(body);
    expect(again.status, again.text).toBe(200);
    // the same fact (same end), never the one-time plaintext a second time
    expect(again.data).toEqual({ expiresAt: first.data.expiresAt });
    expect(again.text).not.toContain(first.data.grant);
    const use2 = { grant: first.data.grant, scope: body.scope, requestDigest: body.requestDigest };
    expect((await use('resolve', use2)).data.idempotencyKey).toBe('grant-2');
    // not after its end either, and the key still names the (expired) fact: no new grant
    await client.advanceClock(121);
    const late = await issue(body);
    expect(late.status).toBe(200);
    expect(late.data).toEqual({ expiresAt: first.data.expiresAt });
    expectPlatformError(await use('resolve', use2), 404, 'APP_GRANT_NOT_FOUND');
    expectPlatformError(
      await issue(request('grant-2', { boardId: 'b-2' })),
      409,
      'APP_GRANT_IDEMPOTENCY_CONFLICT',
    );
  });

  it('the callee re-checks scope and digest; another callee, a wrong or expired grant are APP_GRANT_NOT_FOUND', async () => {
    const body = request('grant-3');
    const { grant } = (await issue(body)).data;
    const good = { grant, scope: body.scope, requestDigest: body.requestDigest };
    expectPlatformError(
      await use('resolve', { ...good, scope: caller.dependencies[0]!.scopes[1] }),
      404,
      'APP_GRANT_NOT_FOUND',
    );
    expectPlatformError(
      await use('resolve', { ...good, requestDigest: digest({ boardId: 'changed' }) }),
      404,
      'APP_GRANT_NOT_FOUND',
    );
    expectPlatformError(await use('resolve', { ...good, grant: 'agr_forged' }), 404, 'APP_GRANT_NOT_FOUND');
    expectPlatformError(await use('resolve', good, caller), 404, 'APP_GRANT_NOT_FOUND');
    expectPlatformError(
      await use('launch', { ...good, requestDigest: digest({}) }),
      404,
      'APP_GRANT_NOT_FOUND',
    );
    await client.advanceClock(121);
    expectPlatformError(await use('resolve', good), 404, 'APP_GRANT_NOT_FOUND');
  });

  it('names undeclared capabilities, missing prerequisites and malformed requests', async () => {
    const fresh = await client.openSession(caller, 'member');
    const base = { ...request('grant-4'), runtimeSessionId: fresh.sessionId };
    expectPlatformError(
      await issue({ ...base, scope: 'storyboard.delete' }),
      403,
      'APP_CAPABILITY_NOT_DECLARED',
    );
    expectPlatformError(await issue({ ...base, apiVersion: '1999-01' }), 403, 'APP_CAPABILITY_NOT_DECLARED');
    const reverse = await client.openSession(callee, 'member');
    expectPlatformError(
      await issue({ ...base, calleeAppKey: caller.appKey, runtimeSessionId: reverse.sessionId }, callee),
      403,
      'APP_CAPABILITY_NOT_DECLARED',
    );
    expectPlatformError(
      await issue({ ...base, runtimeSessionId: 'rs_unknown' }),
      404,
      'APP_GRANT_PRECONDITION_NOT_FOUND',
    );
    expectPlatformError(
      await issue({ ...base, calleeAppKey: 'no-such-app' }),
      404,
      'APP_GRANT_PRECONDITION_NOT_FOUND',
    );
    for (const bad of [
      { ...base, requestDigest: 'sha256:' + 'A'.repeat(64) },
      { ...base, requestDigest: 'a'.repeat(64) },
      { ...base, scope: 'x' },
      { ...base, scope: 'Storyboard.read' },
      { ...base, scope: 's' + 'a'.repeat(128) },
      { ...base, extra: true },
    ])
      expectPlatformError(await issue(bad), 400, 'APP_GRANT_PRECONDITION_NOT_FOUND');
    expectPlatformError(
      await client.session(caller, 'POST', '/app-grants', { json: base, credential: callee.appCredential }),
      403,
      'APP_CREDENTIAL_MISMATCH',
    );
  });

  it('dependency outages: APP_GRANT_SERVICE_UNAVAILABLE and APP_HANDOFF_UNAVAILABLE with Retry-After', async () => {
    const down = { 'X-Simulator-Scenario': 'unavailable' };
    const issued = await client.session(caller, 'POST', '/app-grants', {
      json: request('grant-5'),
      headers: down,
    });
    expectPlatformError(issued, 503, 'APP_GRANT_SERVICE_UNAVAILABLE');
    expect(issued.headers.get('retry-after')).toBe('5');
    const launched = await client.session(callee, 'POST', '/app-grants:launch', {
      json: { grant: 'agr_x', scope: 'storyboard.read', requestDigest: digest({}) },
      headers: down,
    });
    expectPlatformError(launched, 503, 'APP_HANDOFF_UNAVAILABLE');
  });
});
