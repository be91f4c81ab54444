import { mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { startPlatformSimulator, expectPlatformError, type PlatformClient } from './platform-client.js';
import { usePlatformWorld } from './platform-fixture.js';
import {
  debugCall,
  digest,
  documentedPaths,
  issueCliSession,
  setWithdrawn,
  type CliSession,
} from './debug-client.js';
import { tempFolder } from '../../../support/worlds/temp-folder.js';

const dataDir = tempFolder('fw-debug-grants-');
const stateFile = path.join(dataDir, 'platform-state.jsonl');
let client: PlatformClient;

usePlatformWorld({ simulator: { dataDir } }, (world) => {
  client = world.client;
});

const STUDIO = 'framewright-studio';
const HELPER = 'storyboard-helper';
const API = '2026-01';
const READ = 'storyboard.read';
/** Every secret answered in this file (none may appear in the state file). */
const secrets: string[] = [];
const keep = <T extends string>(s: T): T => {
  secrets.push(s);
  return s;
};

async function pair(appKey: string, user: 'manager' | 'member' | 'personal' = 'member'): Promise<CliSession> {
  const cli = await issueCliSession(client, appKey, user);
  keep(cli.accessToken);
  return cli;
}

function appGrantBody(key: string, business: Record<string, unknown> = { boardId: 'b-1' }) {
  return {
    calleeAppKey: HELPER,
    apiVersion: API,
    scope: READ,
    idempotencyKey: key,
    requestDigest: digest(business),
  };
}

describe('section D: binding, derived session and directory', () => {
  it('documents every section D route and the simulator-only debug routes in the platform OpenAPI document', async () => {
    const paths = await documentedPaths(client);
    const prefix = '/api/v1/appstore/developer/apps/{appId}/versions/{versionId}';
    for (const suffix of [
      '/runtime-sessions/{sessionId}:resolve',
      '/runtime-sessions/{sessionId}/organization-directory/groups:list',
      '/runtime-sessions/{sessionId}/organization-directory/members:list',
      '/app-grants',
      '/debug-receivers',
      '/debug-receivers/{receiverRef}',
      '/debug-peer-grants',
      '/debug-peer-grants:resolve',
      '/debug-peer-grants:launch',
      '/debug-runtime-sessions:exchange',
    ])
      expect(paths[prefix + suffix], suffix).toBeDefined();
    expect(paths['/_simulator/cli-sessions']).toBeDefined();
    expect(paths['/_simulator/debug-withdrawals']).toBeDefined();
  });

  it("resolves the pairing's derived session; another binding is a uniform 404; credentials other than a live CLI Bearer are 401", async () => {
    const cli = await pair(STUDIO, 'manager');
    const resolved = await debugCall(client, cli, 'GET', `/runtime-sessions/${cli.runtimeSessionId}:resolve`);
    expect(resolved.status, resolved.text).toBe(200);
    expect(resolved.data).toMatchObject({
      sessionId: cli.runtimeSessionId,
      appKey: STUDIO,
      appVersionId: cli.appVersionId,
      subject: { userId: 'usr_sim_manager', organizationId: 'org_sim_northwind' },
      appRoles: ['studio_admin'],
      expiresAt: cli.expiresAt,
    });
    const suffix = `/runtime-sessions/${cli.runtimeSessionId}:resolve`;
    const otherApp = await debugCall(client, cli, 'GET', suffix, { appId: 'app_sim_storyboard_helper' });
    const otherVersion = await debugCall(client, cli, 'GET', suffix, { versionId: 'appver_other' });
    const unknownApp = await debugCall(client, cli, 'GET', suffix, { appId: 'app_nope' });
    for (const res of [otherApp, otherVersion, unknownApp]) expectPlatformError(res, 404, 'NOT_FOUND');
    expect(otherApp.data.message).toBe(unknownApp.data.message);
    expectPlatformError(
      await debugCall(client, cli, 'GET', '/runtime-sessions/rs_unknown:resolve'),
      404,
      'RUNTIME_SESSION_NOT_FOUND',
    );
    const studio = client.app(0);
    for (const credential of [studio.appCredential, client.sim.token, 'fwcli_forged'])
      expectPlatformError(
        await debugCall(client, cli, 'GET', suffix, { credential }),
        401,
        'UNAUTHENTICATED',
      );
  });

  it('reads the directory as production: a manager pairing reads groups and members; a member pairing is refused', async () => {
    const manager = await pair(STUDIO, 'manager');
    const base = `/runtime-sessions/${manager.runtimeSessionId}/organization-directory`;
    const groups = await debugCall(client, manager, 'POST', `${base}/groups:list`, { json: {} });
    expect(groups.status, groups.text).toBe(200);
    expect(groups.data.items.length).toBeGreaterThan(5);
    const members = await debugCall(client, manager, 'POST', `${base}/members:list`, {
      json: { page: 1, pageSize: 5 },
    });
    expect(members.status).toBe(200);
    expect(members.data).toMatchObject({ appKey: STUDIO, page: 1, pageSize: 5, total: 14 });
    expect(members.text).not.toContain('@northwind.example');
    expectPlatformError(
      await debugCall(client, manager, 'POST', `${base}/members:list`, { json: { pageSize: 101 } }),
      400,
      'INVALID_REQUEST',
    );
    expectPlatformError(
      await debugCall(client, manager, 'POST', `${base}/groups:list`, {
        body: '{',
        headers: { 'Content-Type': 'application/json' },
      }),
      400,
      'INVALID_REQUEST',
    );
    const member = await pair(STUDIO, 'member');
    expectPlatformError(
      await debugCall(
        client,
        member,
        'POST',
        `/runtime-sessions/${member.runtimeSessionId}/organization-directory/groups:list`,
        { json: {} },
      ),
      403,
      'ORGANIZATION_MANAGER_REQUIRED',
    );
  });
});

describe('section D: relay-mode debug app grants', () => {
  it('issues a developer_debug grant (<= 2 minutes) that the production callee resolves, not consumed, with its own credential', async () => {
    const cli = await pair(STUDIO);
    const body = appGrantBody('dbg-1');
    const issued = await debugCall(client, cli, 'POST', '/app-grants', { json: body });
    expect(issued.status, issued.text).toBe(200);
    expect(issued.data).toMatchObject({ apiVersion: API, sourceChannel: 'developer_debug' });
    keep(issued.data.grant);
    expect(Date.parse(issued.data.expiresAt) - Date.now()).toBeLessThanOrEqual(121_000);
    const use = { grant: issued.data.grant, scope: READ, requestDigest: body.requestDigest };
    for (let i = 0; i < 2; i += 1) {
      const resolved = await client.session(client.app(1), 'POST', '/app-grants:resolve', { json: use });
      expect(resolved.status, resolved.text).toBe(200);
      expect(resolved.data).toMatchObject({
        callerAppKey: STUDIO,
        callerAppVersionId: cli.appVersionId,
        calleeAppKey: HELPER,
        subject: { userId: 'usr_sim_member' },
        scope: READ,
      });
      expect(resolved.text).not.toContain(issued.data.grant);
    }
    // production launch does not take a debug grant
    expectPlatformError(
      await client.session(client.app(1), 'POST', '/app-grants:launch', { json: use }),
      404,
      'APP_GRANT_NOT_FOUND',
    );
    // same key and body: the same fact, without the one-time plaintext (it appears once); the
    // first grant still resolves; another digest under the key: a conflict
    const again = await debugCall(client, cli, 'POST', '/app-grants', { json: body });
    expect(again.status).toBe(200);
    expect(again.data.grant).toBeUndefined();
    expect(again.data).toMatchObject({
      apiVersion: issued.data.apiVersion,
      sourceChannel: 'developer_debug',
      expiresAt: issued.data.expiresAt,
    });
    expect(again.text).not.toContain(issued.data.grant);
    expectPlatformError(
      await debugCall(client, cli, 'POST', '/app-grants', {
        json: appGrantBody('dbg-1', { boardId: 'b-2' }),
      }),
      409,
      'APP_GRANT_IDEMPOTENCY_CONFLICT',
    );
  });

  it('refuses undeclared dependencies, capabilities not opened to debugging, unknown callees and malformed bodies', async () => {
    const cli = await pair(STUDIO);
    const post = (json: unknown) => debugCall(client, cli, 'POST', '/app-grants', { json });
    expectPlatformError(
      await post({ ...appGrantBody('r-1'), scope: 'storyboard.admin' }),
      409,
      'DEVELOPER_APP_GRANT_REJECTED',
    );
    expectPlatformError(
      await post({ ...appGrantBody('r-2'), apiVersion: '1999-01' }),
      409,
      'DEVELOPER_APP_GRANT_REJECTED',
    );
    expectPlatformError(
      await post({ ...appGrantBody('r-3'), calleeAppKey: 'no-such-app' }),
      404,
      'DEVELOPER_APP_GRANT_REJECTED',
    );
    // the helper's dependency on the studio is sequence.create only (not this scope)
    const helper = await pair(HELPER);
    expectPlatformError(
      await debugCall(client, helper, 'POST', '/app-grants', {
        json: { ...appGrantBody('r-4'), calleeAppKey: STUDIO },
      }),
      409,
      'DEVELOPER_APP_GRANT_REJECTED',
    );
    for (const bad of [
      { ...appGrantBody('r-5'), runtimeSessionId: cli.runtimeSessionId },
      { ...appGrantBody('r-6'), idempotencyKey: 'k'.repeat(256) },
      { ...appGrantBody('r-7'), requestDigest: 'sha256:XYZ' },
      { ...appGrantBody('r-8'), scope: 'S' },
    ])
      expectPlatformError(await post(bad), 400, 'APP_GRANT_PRECONDITION_NOT_FOUND');
    expect((await post({ ...appGrantBody('k'.repeat(255)) })).status).toBe(200);
    expectPlatformError(
      await debugCall(client, cli, 'POST', '/app-grants', {
        body: 'not json',
        headers: { 'Content-Type': 'application/json' },
      }),
      400,
      'APP_GRANT_PRECONDITION_NOT_FOUND',
    );
  });

  it("a provider's withdrawal makes existing debug grants fail on resolve and refuses new ones", async () => {
    const cli = await pair(STUDIO);
    const body = appGrantBody('w-1');
    const { grant } = (await debugCall(client, cli, 'POST', '/app-grants', { json: body })).data;
    keep(grant);
    const use = { grant, scope: READ, requestDigest: body.requestDigest };
    await setWithdrawn(client, HELPER, true);
    try {
      expectPlatformError(
        await client.session(client.app(1), 'POST', '/app-grants:resolve', { json: use }),
        404,
        'APP_GRANT_NOT_FOUND',
      );
      expectPlatformError(
        await debugCall(client, cli, 'POST', '/app-grants', { json: appGrantBody('w-2') }),
        409,
        'DEVELOPER_APP_GRANT_REJECTED',
      );
    } finally {
      await setWithdrawn(client, HELPER, false);
    }
    expect((await client.session(client.app(1), 'POST', '/app-grants:resolve', { json: use })).status).toBe(
      200,
    );
  });
});

describe('section D: debug receivers, peer grants and debug sessions', () => {
  async function receiver(provider: CliSession, scopes = [READ]) {
    const res = await debugCall(client, provider, 'POST', '/debug-receivers', {
      json: { callerAppKey: STUDIO, apiVersion: API, scopes },
    });
    expect(res.status, res.text).toBe(200);
    return res.data;
  }
  const peerBody = (receiverRef: string, key: string, business: Record<string, unknown> = { panel: 1 }) => ({
    receiverRef,
    calleeAppKey: HELPER,
    apiVersion: API,
    scope: READ,
    requestDigest: digest(business),
    idempotencyKey: key,
  });

  it('a peer grant resolves twice (not consumed), launches a one-time code, and the code exchanges once for the provider session', async () => {
    const provider = await pair(HELPER);
    const caller = await pair(STUDIO);
    const rcv = await receiver(provider);
    expect(rcv.receiverRef).toMatch(/^\d{9}$/);
    expect(rcv).toMatchObject({ callerAppKey: STUDIO, apiVersion: API, scopes: [READ] });
    expect(Date.parse(rcv.expiresAt) - Date.now()).toBeLessThanOrEqual(3_601_000);
    const body = peerBody(rcv.receiverRef, 'peer-1');
    const issued = await debugCall(client, caller, 'POST', '/debug-peer-grants', { json: body });
    expect(issued.status, issued.text).toBe(200);
    expect(issued.data).toMatchObject({ apiVersion: API, sourceChannel: 'developer_local' });
    keep(issued.data.grant);
    const use = { grant: issued.data.grant, scope: READ, requestDigest: body.requestDigest };
    for (let i = 0; i < 2; i += 1) {
      const resolved = await debugCall(client, provider, 'POST', '/debug-peer-grants:resolve', { json: use });
      expect(resolved.status, resolved.text).toBe(200);
      expect(resolved.data).toMatchObject({
        callerAppKey: STUDIO,
        calleeAppKey: HELPER,
        calleeAppVersionId: provider.appVersionId,
        sourceChannel: 'developer_local',
        subject: { userId: 'usr_sim_member' },
      });
      expect(resolved.text).not.toContain(issued.data.grant);
    }
    // only the provider resolves it: the caller's binding is the wrong target
    expectPlatformError(
      await debugCall(client, caller, 'POST', '/debug-peer-grants:resolve', { json: use }),
      404,
      'DEBUG_PEER_NOT_FOUND',
    );
    expectPlatformError(
      await debugCall(client, provider, 'POST', '/debug-peer-grants:resolve', {
        json: { ...use, requestDigest: digest({}) },
      }),
      404,
      'DEBUG_PEER_NOT_FOUND',
    );
    const launched = await debugCall(client, provider, 'POST', '/debug-peer-grants:launch', { json: use });
    expect(launched.status, launched.text).toBe(200);
    keep(launched.data.launchCode);
    expect(Date.parse(launched.data.expiresAt) - Date.now()).toBeLessThanOrEqual(61_000);
    // the caller cannot exchange the provider's code (not consumed by that attempt)
    const exchange = (cli: CliSession) =>
      debugCall(client, cli, 'POST', '/debug-runtime-sessions:exchange', {
        json: { launchCode: launched.data.launchCode },
      });
    expectPlatformError(await exchange(caller), 404, 'DEBUG_PEER_NOT_FOUND');
    const session = await exchange(provider);
    expect(session.status, session.text).toBe(200);
    keep(session.data.sessionId);
    expect(session.data).toMatchObject({
      appKey: HELPER,
      subject: { userId: 'usr_sim_member' },
      appRoles: ['board_reader'],
    });
    expectPlatformError(await exchange(provider), 404, 'DEBUG_PEER_NOT_FOUND');
    const derived = await debugCall(
      client,
      provider,
      'GET',
      `/runtime-sessions/${session.data.sessionId}:resolve`,
    );
    expect(derived.status).toBe(200);
    expect(derived.data.sessionId).toBe(session.data.sessionId);
    expectPlatformError(
      await debugCall(client, caller, 'GET', `/runtime-sessions/${session.data.sessionId}:resolve`),
      404,
      'RUNTIME_SESSION_NOT_FOUND',
    );
    expectPlatformError(
      await debugCall(client, provider, 'POST', '/debug-runtime-sessions:exchange', {
        json: { launchCode: 'x', extra: 1 },
      }),
      400,
      'INVALID_REQUEST',
    );
  });

  it('refuses another identity, an undeclared scope, a scope outside the receiver, and a reused key with another digest', async () => {
    const provider = await pair(HELPER);
    const rcv = await receiver(provider);
    const caller = await pair(STUDIO);
    const manager = await pair(STUDIO, 'manager');
    const issue = (cli: CliSession, json: unknown) =>
      debugCall(client, cli, 'POST', '/debug-peer-grants', { json });
    expectPlatformError(await issue(manager, peerBody(rcv.receiverRef, 'p-1')), 404, 'DEBUG_PEER_NOT_FOUND');
    expectPlatformError(
      await issue(caller, { ...peerBody(rcv.receiverRef, 'p-2'), scope: 'storyboard.write' }),
      404,
      'DEBUG_PEER_NOT_FOUND',
    );
    expectPlatformError(
      await issue(caller, { ...peerBody(rcv.receiverRef, 'p-3'), apiVersion: '1999-01' }),
      404,
      'DEBUG_PEER_NOT_FOUND',
    );
    expectPlatformError(await issue(caller, peerBody('000000000', 'p-4')), 404, 'DEBUG_PEER_NOT_FOUND');
    expect((await issue(caller, peerBody(rcv.receiverRef, 'p-5'))).status).toBe(200);
    expectPlatformError(
      await issue(caller, peerBody(rcv.receiverRef, 'p-5', { panel: 2 })),
      409,
      'DEBUG_PEER_IDEMPOTENCY_CONFLICT',
    );
    expectPlatformError(
      await issue(caller, { ...peerBody(rcv.receiverRef, 'k'.repeat(256)) }),
      400,
      'INVALID_REQUEST',
    );
    expectPlatformError(
      await issue(caller, { ...peerBody(rcv.receiverRef, 'p-6'), extra: true }),
      400,
      'INVALID_REQUEST',
    );
  });

  it('two pairings that chose the same test identity (each app its own test-account record) are the same identity', async () => {
    // test-account records are per application: the same person has another record id in each
    const provider = await issueCliSession(client, HELPER, 'manager', {
      testAccountId: 'ta_sim_storyboard_helper_manager',
    });
    keep(provider.accessToken);
    const caller = await issueCliSession(client, STUDIO, 'manager', {
      testAccountId: 'ta_sim_framewright_studio_manager',
    });
    keep(caller.accessToken);
    const rcv = await receiver(provider);
    const issued = await debugCall(client, caller, 'POST', '/debug-peer-grants', {
      json: peerBody(rcv.receiverRef, 'same-identity-1'),
    });
    expect(issued.status, issued.text).toBe(200);
    keep(issued.data.grant);
    // another identity (the personal test account) is still refused
    const other = await issueCliSession(client, STUDIO, 'personal', {
      testAccountId: 'ta_sim_framewright_studio_personal',
    });
    keep(other.accessToken);
    expectPlatformError(
      await debugCall(client, other, 'POST', '/debug-peer-grants', {
        json: peerBody(rcv.receiverRef, 'same-identity-2'),
      }),
      404,
      'DEBUG_PEER_NOT_FOUND',
    );
  });

  it('receivers take 1..32 scopes the provider opens to online debugging, for its own binding only', async () => {
    const provider = await pair(HELPER);
    const post = (json: unknown) => debugCall(client, provider, 'POST', '/debug-receivers', { json });
    expectPlatformError(
      await post({ callerAppKey: STUDIO, apiVersion: API, scopes: [] }),
      400,
      'INVALID_REQUEST',
    );
    expectPlatformError(
      await post({ callerAppKey: STUDIO, apiVersion: API, scopes: Array.from({ length: 33 }, () => READ) }),
      400,
      'INVALID_REQUEST',
    );
    expect(
      (await post({ callerAppKey: STUDIO, apiVersion: API, scopes: Array.from({ length: 32 }, () => READ) }))
        .status,
    ).toBe(200);
    expectPlatformError(
      await post({ callerAppKey: STUDIO, apiVersion: API, scopes: [READ, 'storyboard.admin'] }),
      403,
      'APP_CAPABILITY_NOT_DECLARED',
    );
    // the studio opens sequence.create only, not the helper's read scope
    const studio = await pair(STUDIO);
    expectPlatformError(
      await debugCall(client, studio, 'POST', '/debug-receivers', {
        json: { callerAppKey: HELPER, apiVersion: API, scopes: [READ] },
      }),
      403,
      'APP_CAPABILITY_NOT_DECLARED',
    );
    const rcv = (await post({ callerAppKey: STUDIO, apiVersion: API, scopes: [READ] })).data;
    expectPlatformError(
      await debugCall(client, studio, 'DELETE', `/debug-receivers/${rcv.receiverRef}`),
      404,
      'DEBUG_PEER_NOT_FOUND',
    );
    const revoked = await debugCall(client, provider, 'DELETE', `/debug-receivers/${rcv.receiverRef}`);
    expect(revoked.status).toBe(200);
    expect(revoked.data).toEqual({ revoked: true });
  });

  async function derivedWorld() {
    const provider = await pair(HELPER);
    const caller = await pair(STUDIO);
    const rcv = await receiver(provider);
    const body = peerBody(rcv.receiverRef, `d-${Math.random()}`);
    const { grant } = (await debugCall(client, caller, 'POST', '/debug-peer-grants', { json: body })).data;
    keep(grant);
    const use = { grant, scope: READ, requestDigest: body.requestDigest };
    const launch = async () => {
      const res = await debugCall(client, provider, 'POST', '/debug-peer-grants:launch', { json: use });
      expect(res.status, res.text).toBe(200);
      return keep(res.data.launchCode as string);
    };
    const exchange = (launchCode: string) =>
      debugCall(client, provider, 'POST', '/debug-runtime-sessions:exchange', { json: { launchCode } });
    const session = (await exchange(await launch())).data;
    keep(session.sessionId);
    const resolveSession = () =>
      debugCall(client, provider, 'GET', `/runtime-sessions/${session.sessionId}:resolve`);
    const resolveGrant = () =>
      debugCall(client, provider, 'POST', '/debug-peer-grants:resolve', { json: use });
    return { provider, rcv, launch, exchange, resolveSession, resolveGrant };
  }

  it('revoking the receiver makes its grants, codes and derived sessions fail', async () => {
    const w = await derivedWorld();
    const code = await w.launch();
    expect((await w.resolveSession()).status).toBe(200);
    expect(
      (await debugCall(client, w.provider, 'DELETE', `/debug-receivers/${w.rcv.receiverRef}`)).status,
    ).toBe(200);
    expectPlatformError(await w.resolveGrant(), 404, 'DEBUG_PEER_NOT_FOUND');
    expectPlatformError(await w.resolveSession(), 404, 'RUNTIME_SESSION_NOT_FOUND');
    expectPlatformError(await w.exchange(code), 404, 'DEBUG_PEER_NOT_FOUND');
  });

  it("the provider's withdrawal makes peer grants and derived sessions fail on resolve", async () => {
    const w = await derivedWorld();
    await setWithdrawn(client, HELPER, true);
    try {
      expectPlatformError(await w.resolveGrant(), 404, 'DEBUG_PEER_NOT_FOUND');
      expectPlatformError(await w.resolveSession(), 404, 'RUNTIME_SESSION_NOT_FOUND');
      expectPlatformError(
        await debugCall(client, w.provider, 'POST', '/debug-receivers', {
          json: { callerAppKey: STUDIO, apiVersion: API, scopes: [READ] },
        }),
        403,
        'APP_CAPABILITY_NOT_DECLARED',
      );
    } finally {
      await setWithdrawn(client, HELPER, false);
    }
    expect((await w.resolveSession()).status).toBe(200);
  });

  it('a failed write leaves the code unconsumed and no session; the retry then exchanges it', async () => {
    const w = await derivedWorld();
    const code = await w.launch();
    const aside = stateFile + '.aside';
    renameSync(stateFile, aside);
    mkdirSync(stateFile); // appending to a folder fails
    try {
      expectPlatformError(await w.exchange(code), 503, 'DEBUG_PEER_UNAVAILABLE');
    } finally {
      rmSync(stateFile, { recursive: true });
      renameSync(aside, stateFile);
    }
    const ok = await w.exchange(code);
    expect(ok.status, ok.text).toBe(200);
    keep(ok.data.sessionId);
  });

  it('a launch code lives one minute; a CLI session one hour (simulator clock)', async () => {
    const w = await derivedWorld();
    const code = await w.launch();
    await client.advanceClock(61);
    expectPlatformError(await w.exchange(code), 404, 'DEBUG_PEER_NOT_FOUND');
    await client.advanceClock(3600);
    expectPlatformError(await w.resolveSession(), 401, 'UNAUTHENTICATED');
  });

  it('keeps no secret in the state file, and the state survives a restart', async () => {
    const text = readFileSync(stateFile, 'utf8');
    expect(secrets.length).toBeGreaterThan(10);
    for (const s of secrets) expect(text).not.toContain(s);
    await client.sim.close();
    const restarted = await startPlatformSimulator({ dataDir });
    try {
      client = restarted.client;
      const cli = await pair(HELPER);
      const rcv = await debugCall(client, cli, 'POST', '/debug-receivers', {
        json: { callerAppKey: STUDIO, apiVersion: API, scopes: [READ] },
      });
      expect(rcv.status).toBe(200);
      // the withdrawal switch and receivers are restored from the log
      await setWithdrawn(client, HELPER, true);
      await restarted.sim.close();
      const again = await startPlatformSimulator({ dataDir });
      try {
        client = again.client;
        const provider = await pair(HELPER);
        expectPlatformError(
          await debugCall(client, provider, 'POST', '/debug-receivers', {
            json: { callerAppKey: STUDIO, apiVersion: API, scopes: [READ] },
          }),
          403,
          'APP_CAPABILITY_NOT_DECLARED',
        );
        // the earlier CLI session is restored too (and its receiver revocable)
        const revoked = await debugCall(client, cli, 'DELETE', `/debug-receivers/${rcv.data.receiverRef}`);
        expect(revoked.status, revoked.text).toBe(200);
      } finally {
        await again.sim.close();
      }
    } finally {
      await restarted.sim.close();
    }
  });
});
