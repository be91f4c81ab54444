import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Json } from '../client.js';
import { makePng } from '../fixtures.js';
import {
  expectPlatformError,
  runtimeCall,
  type PlatformApp,
  type PlatformClient,
} from './platform-client.js';
import { usePlatformWorld } from './platform-fixture.js';
import type { LoopbackStorage } from './storage-server.js';

let client: PlatformClient;
let studio: PlatformApp;
let helper: PlatformApp;
let manager: Json;
let storage: LoopbackStorage;

usePlatformWorld({ sessions: ['manager'] }, (world) => {
  ({ client, studio, helper, storage } = world);
  manager = world.sessions.manager;
});

/** What a browser might claim: another person, tenant and roles. */
const CLAIMED_IDENTITY = {
  userId: 'usr_sim_manager',
  accountId: 'acc_sim_manager',
  tenantId: 'tnt_other',
  organizationId: 'org_other',
  subject: { userId: 'usr_sim_manager' },
  appRoles: ['studio_admin'],
  roles: ['platform_admin'],
};
const DIGEST = 'sha256:' + 'd'.repeat(64);

describe('session service: identity fields in a body are ignored', () => {
  it('an exchange carrying identity fields answers the launch code’s person with their own roles', async () => {
    const launchCode = await client.launch(studio, 'member');
    const res = await client.session(studio, 'POST', '/runtime-sessions:exchange', {
      json: { launchCode, ...CLAIMED_IDENTITY },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.data.subject.userId).toBe('usr_sim_member');
    expect(res.data.subject.organizationId).toBe('org_sim_northwind');
    expect(res.data.appRoles).toEqual(['studio_editor']);
    // the code was consumed by that exchange
    expectPlatformError(
      await client.session(studio, 'POST', '/runtime-sessions:exchange', { json: { launchCode } }),
      404,
      'RUNTIME_SESSION_LAUNCH_CODE_NOT_FOUND',
    );
  });

  it('a grant issue carrying identity fields is the session’s grant, the same fact as the issue without them', async () => {
    const dep = studio.dependencies[0]!;
    const request = {
      runtimeSessionId: manager.sessionId,
      calleeAppKey: dep.calleeAppKey,
      scope: dep.scopes[0]!,
      idempotencyKey: 'identity-ignored',
      requestDigest: DIGEST,
    };
    const claimed = await client.session(studio, 'POST', '/app-grants', {
      json: { ...request, ...CLAIMED_IDENTITY, callerAppRoles: ['board_owner'] },
    });
    expect(claimed.status, claimed.text).toBe(200);
    const plain = await client.session(studio, 'POST', '/app-grants', { json: request });
    expect(plain.status).toBe(200);
    // the same fact: a replay (its plaintext appears once, so not again)
    expect(plain.data).toEqual({ expiresAt: claimed.data.expiresAt });
    const resolved = await client.session(helper, 'POST', '/app-grants:resolve', {
      json: { grant: claimed.data.grant, scope: request.scope, requestDigest: DIGEST, ...CLAIMED_IDENTITY },
    });
    expect(resolved.status, resolved.text).toBe(200);
    expect(resolved.data.subject).toEqual(manager.subject);
    expect(resolved.data.callerAppRoles).toEqual(manager.appRoles);
  });

  it('where the body is exact (renewal, directory) identity fields stay a 400, and other unknown fields everywhere', async () => {
    expectPlatformError(
      await client.session(studio, 'POST', `/runtime-sessions/${manager.sessionId}:renew`, {
        json: { userId: 'usr_sim_member' },
      }),
      400,
      'INVALID_REQUEST',
    );
    expectPlatformError(
      await client.session(
        studio,
        'POST',
        `/runtime-sessions/${manager.sessionId}/organization-directory/members:list`,
        {
          json: { accountId: 'acc_sim_member' },
        },
      ),
      400,
      'INVALID_REQUEST',
    );
    const launchCode = await client.launch(studio, 'member');
    expectPlatformError(
      await client.session(studio, 'POST', '/runtime-sessions:exchange', { json: { launchCode, extra: 1 } }),
      400,
      'INVALID_REQUEST',
    );
  });
});

describe('session service: a renewed session', () => {
  it('answers, while it stays usable, the end of its overlap minute as expiresAt', async () => {
    const old = await client.openSession(studio, 'member');
    const renewed = await client.session(studio, 'POST', `/runtime-sessions/${old.sessionId}:renew`);
    expect(renewed.status).toBe(200);
    const resolved = await client.session(studio, 'GET', `/runtime-sessions/${old.sessionId}:resolve`);
    expect(resolved.status).toBe(200);
    // the successor lives 24 hours from the renewal (by the simulator clock); the old one one minute
    const renewedAt = Date.parse(renewed.data.expiresAt) - 24 * 3600_000;
    const left = Date.parse(resolved.data.expiresAt) - renewedAt;
    expect(left).toBeLessThanOrEqual(60_000);
    expect(left).toBeGreaterThan(55_000);
  });
});

describe('readUrl expiresAt: an address the application says has expired is refused unread', () => {
  const png = makePng(64, 48, [200, 120, 40]);
  const sha256 = createHash('sha256').update(png).digest('hex');
  const minutesFromNow = (minutes: number) => new Date(Date.now() + minutes * 60_000).toISOString();
  const call = (method: string, suffix: string, json: unknown, headers: Record<string, string> = {}) =>
    runtimeCall(client, studio, method, suffix, { sessionId: manager.sessionId, json, headers });
  const i2v = (clientTaskId: string, expiresAt: string) => ({
    clientTaskId,
    model: 'h3-video',
    params: { prompt: 'A kite at dawn' },
    mediaSpec: { generationMode: 'i2v', resolutionTier: '768p', orientation: 'landscape', seconds: 5 },
    inputs: [
      {
        readUrl: storage.put(`${clientTaskId}.png`, png, 'image/png'),
        role: 'first_frame',
        mimeType: 'image/png',
        sha256,
        byteSize: png.length,
        expiresAt,
      },
    ],
  });

  it('job creation: 400 read_url_expired before any contact; an unexpired address is read', async () => {
    const before = storage.hits;
    const expired = await call('POST', '/media/jobs', i2v('expired-input', minutesFromNow(-1)), {
      'Idempotency-Key': 'expired-input',
    });
    expectPlatformError(expired, 400, 'read_url_expired');
    expect(expired.data.details).toMatchObject({ field: 'inputs.0.expiresAt' });
    expect(storage.hits).toBe(before);
    const fresh = await call('POST', '/media/jobs', i2v('fresh-input', minutesFromNow(30)), {
      'Idempotency-Key': 'fresh-input',
    });
    expect(fresh.status, fresh.text).toBe(202);
    expect(storage.hits).toBe(before + 1);
  });

  it('dry-run: the expired input is a blocker, by the simulator clock', async () => {
    const body = i2v('dry-expiring', minutesFromNow(5));
    const before = await call('POST', '/media/jobs:dry-run', body);
    expect(before.data.accepted, before.text).toBe(true);
    await client.advanceClock(10 * 60);
    const after = await call('POST', '/media/jobs:dry-run', body);
    expect(after.status).toBe(200);
    expect(after.data.accepted).toBe(false);
    expect(after.data.blockers[0]).toMatchObject({ code: 'read_url_expired', httpStatus: 400 });
  });

  it('export source and synchronous inputs: 400 read_url_expired, nothing read', async () => {
    const url = storage.put('export-expired.png', png, 'image/png');
    const before = storage.hits;
    const exported = await call(
      'POST',
      '/media/exports',
      { source: { readUrl: url, mimeType: 'image/png', sha256, expiresAt: minutesFromNow(-1) } },
      { 'Idempotency-Key': 'export-expired' },
    );
    expectPlatformError(exported, 400, 'read_url_expired');
    expect(exported.data.details).toMatchObject({ field: 'source.expiresAt' });
    const ocr = await call('POST', '/ocr', {
      model: 'glyph-ocr',
      inputs: [{ readUrl: url, mimeType: 'image/png', expiresAt: minutesFromNow(-1) }],
    });
    expectPlatformError(ocr, 400, 'read_url_expired');
    expect(storage.hits).toBe(before);
  });
});

describe('runtime jobs take media only from inputs[]', () => {
  const h3 = { generationMode: 'i2v', resolutionTier: '768p', orientation: 'landscape', seconds: 5 };
  const cases: [string, Record<string, unknown>, string][] = [
    [
      'mediaSpec',
      {
        model: 'h3-video',
        params: { prompt: 'A kite' },
        mediaSpec: { ...h3, input_image_asset_id: 'asset_x' },
      },
      'mediaSpec.input_image_asset_id',
    ],
    [
      'params',
      { model: 'h3-video', params: { prompt: 'A kite', end_image_asset_id: 'asset_x' }, mediaSpec: h3 },
      'params.end_image_asset_id',
    ],
    [
      'references',
      {
        model: 'h3-video',
        params: { prompt: 'A kite' },
        mediaSpec: {
          ...h3,
          generationMode: 'universal_reference_video',
          referenceInputs: [{ role: 'reference_image', assetId: 'asset_x' }],
        },
      },
      'mediaSpec.referenceInputs',
    ],
    [
      'image',
      {
        model: 'lumen-image',
        params: { prompt: 'A kite' },
        mediaSpec: { generationMode: 'i2i', input_image_asset_ids: ['asset_x'] },
      },
      'mediaSpec.input_image_asset_ids',
    ],
  ];

  it.each(cases)(
    'a public asset field in %s is 400 asset_id_not_accepted, and a dry-run blocker',
    async (name, body, field) => {
      const created = await runtimeCall(client, studio, 'POST', '/media/jobs', {
        sessionId: manager.sessionId,
        json: { ...body, clientTaskId: `asset-field-${name}` },
        headers: { 'Idempotency-Key': `asset-field-${name}` },
      });
      expectPlatformError(created, 400, 'asset_id_not_accepted');
      expect(created.data.details).toEqual({ field });
      const dry = await runtimeCall(client, studio, 'POST', '/media/jobs:dry-run', {
        sessionId: manager.sessionId,
        json: { ...body, clientTaskId: `asset-field-${name}` },
      });
      expect(dry.status).toBe(200);
      expect(dry.data.accepted).toBe(false);
      expect(dry.data.blockers[0]).toMatchObject({ code: 'asset_id_not_accepted', httpStatus: 400 });
    },
  );
});
