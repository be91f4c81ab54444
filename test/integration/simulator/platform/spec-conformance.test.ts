import { describe, expect, it } from 'vitest';
import type { Json } from '../client.js';
import { expectPlatformError, type PlatformApp, type PlatformClient } from './platform-client.js';
import { usePlatformWorld } from './platform-fixture.js';

let client: PlatformClient;
let studio: PlatformApp;
let helper: PlatformApp;
let manager: Json;

usePlatformWorld({ sessions: ['manager'] }, (world) => {
  ({ client, studio, helper } = world);
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
    expect(plain.data.grant).toBe(claimed.data.grant);
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
