import { describe, expect, it } from 'vitest';
import type { Json } from '../client.js';
import { dev, HELPER_APP_ID, OTHER_APP_ID, STUDIO_APP_ID } from './developer-client.js';
import { expectPlatformError, type PlatformClient } from './platform-client.js';
import { usePlatformWorld } from './platform-fixture.js';

let client: PlatformClient;

usePlatformWorld({}, (world) => {
  ({ client } = world);
});

describe('developer control plane: publishers, applications, roles, test accounts', () => {
  it('names its addresses and the developer token in --json', () => {
    const p = client.platform;
    expect(p.developerBaseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/platform\/api\/v1\/appstore\/developer$/);
    expect(p.developerToken).toBe('fw-sim-developer-token');
    expect(p.developerPortalUrl).toMatch(/\/platform\/developer-portal$/);
    expect(p.reviewUrl).toMatch(/\/platform\/_simulator\/review$/);
  });

  it('refuses a missing or unknown Bearer, and the application credential, with 401', async () => {
    expectPlatformError(
      await dev(client, 'GET', '/apps', { credential: null }),
      401,
      'DEVELOPER_UNAUTHENTICATED',
    );
    expectPlatformError(
      await dev(client, 'GET', '/apps', { credential: 'nope' }),
      401,
      'DEVELOPER_UNAUTHENTICATED',
    );
    const appCredential = client.app(0).appCredential;
    expectPlatformError(
      await dev(client, 'GET', '/apps', { credential: appCredential }),
      401,
      'DEVELOPER_UNAUTHENTICATED',
    );
  });

  it("lists the developer's publisher and own applications, never another publisher's", async () => {
    const publishers = await dev(client, 'GET', '/publishers');
    expect(publishers.status).toBe(200);
    expect(publishers.data.total).toBe(1);
    const apps = await dev(client, 'GET', '/apps?pageSize=100');
    expect(apps.status).toBe(200);
    const ids = apps.data.items.map((a: Json) => a.appId);
    expect(ids).toEqual(expect.arrayContaining([STUDIO_APP_ID, HELPER_APP_ID]));
    expect(ids).not.toContain(OTHER_APP_ID);
    const studio = apps.data.items.find((a: Json) => a.appId === STUDIO_APP_ID);
    expect(studio).toMatchObject({
      appKey: 'framewright-studio',
      activeVersionId: 'appver_sim_framewright_studio_1',
    });
    expectPlatformError(await dev(client, 'GET', '/apps?pageSize=101'), 400, 'INVALID_REQUEST');
  });

  it('answers the same 404 for a nonexistent and a not-owned application, on every single-application route', async () => {
    for (const appId of [OTHER_APP_ID, 'app_does_not_exist']) {
      for (const [method, suffix, json] of [
        ['GET', '', undefined],
        ['GET', '/roles', undefined],
        ['PUT', '/roles', []],
        ['GET', '/test-accounts', undefined],
      ] as const) {
        const res = await dev(client, method, `/apps/${appId}${suffix}`, { json });
        expectPlatformError(res, 404, 'APP_NOT_FOUND');
        expect(res.data.message).not.toContain(appId);
      }
    }
  });

  it('creates an application from {publisherId, app} without internal deployment details', async () => {
    const created = await dev(client, 'POST', '/apps', {
      json: {
        publisherId: 'pub_sim_local_developer',
        app: { appKey: 'lens-notes', name: 'Lens Notes', description: 'Camera notes' },
      },
    });
    expect(created.status, created.text).toBe(200);
    expect(created.data).toMatchObject({ appKey: 'lens-notes', name: 'Lens Notes', activeVersionId: null });
    for (const secret of ['chart', 'namespace', 'serviceAccount', 'repository', 'secrets', 'internal'])
      expect(created.text).not.toContain(secret);
    const read = await dev(client, 'GET', `/apps/${created.data.appId}`);
    expect(read.data).toEqual(created.data);
    const again = await dev(client, 'POST', '/apps', {
      json: { publisherId: 'pub_sim_local_developer', app: { appKey: 'lens-notes', name: 'Again' } },
    });
    expectPlatformError(again, 409, 'APP_KEY_TAKEN');
    const otherPublisher = await dev(client, 'POST', '/apps', {
      json: { publisherId: 'pub_sim_other_publisher', app: { appKey: 'sneaky-app', name: 'Sneaky' } },
    });
    expectPlatformError(otherPublisher, 404, 'PUBLISHER_NOT_FOUND');
    const unknownField = await dev(client, 'POST', '/apps', {
      json: {
        publisherId: 'pub_sim_local_developer',
        app: { appKey: 'x-app', name: 'X', namespace: 'prod' },
      },
    });
    expectPlatformError(unknownField, 400, 'INVALID_REQUEST');
  });

  it('keeps roleCode immutable, requires an increasing definitionVersion and refuses platform role codes', async () => {
    const url = `/apps/${HELPER_APP_ID}/roles`;
    const roles = await dev(client, 'GET', url);
    expect(roles.status).toBe(200);
    expect(roles.data.map((r: Json) => r.roleCode)).toEqual(['board_owner', 'board_reader']);
    const [owner, reader] = roles.data as Json[];

    // a rename is a removal: refused
    const renamed = await dev(client, 'PUT', url, { json: [owner, { ...reader, roleCode: 'board_viewer' }] });
    expectPlatformError(renamed, 400, 'ROLE_CODE_IMMUTABLE');
    // a change without a higher definitionVersion: refused
    const stale = await dev(client, 'PUT', url, {
      json: [owner, { ...reader, displayName: 'Reader (read only)' }],
    });
    expectPlatformError(stale, 409, 'ROLE_DEFINITION_VERSION_NOT_INCREASED');
    const platformRole = await dev(client, 'PUT', url, {
      json: [owner, reader, { ...reader, roleCode: 'organization_manager' }],
    });
    expectPlatformError(platformRole, 400, 'ROLE_CODE_RESERVED');

    const changed = await dev(client, 'PUT', url, {
      json: [
        owner,
        { ...reader, displayName: 'Reader (read only)', definitionVersion: reader.definitionVersion + 1 },
        {
          roleCode: 'board_editor',
          displayName: 'Editor',
          description: 'Edits panels',
          definitionVersion: 1,
          status: 'active',
        },
      ],
    });
    expect(changed.status, changed.text).toBe(200);
    expect(changed.data[1]).toMatchObject({ displayName: 'Reader (read only)', definitionVersion: 2 });
    expect((await dev(client, 'GET', url)).data).toEqual(changed.data);
    // roles of one application are not the other's
    const studioRoles = await dev(client, 'GET', `/apps/${STUDIO_APP_ID}/roles`);
    expect(studioRoles.data.map((r: Json) => r.roleCode)).not.toContain('board_editor');
  });

  it("lists the application's two test accounts as records", async () => {
    const res = await dev(client, 'GET', `/apps/${STUDIO_APP_ID}/test-accounts`);
    expect(res.status).toBe(200);
    expect(res.data.items).toHaveLength(2);
    for (const item of res.data.items as Json[]) {
      expect(item.appId).toBe(STUDIO_APP_ID);
      expect(Object.keys(item).sort()).toEqual(
        ['accountId', 'appId', 'createdAt', 'displayName', 'id', 'organizationId', 'organizationName'].sort(),
      );
    }
    expect(res.data.items.map((i: Json) => i.accountId)).toEqual(['acc_sim_manager', 'acc_sim_personal']);
  });
});
