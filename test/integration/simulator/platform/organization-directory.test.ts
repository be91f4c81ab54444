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

const groups = (app: PlatformApp, sessionId: string, json: unknown = {}) =>
  client.session(app, 'POST', `/runtime-sessions/${sessionId}/organization-directory/groups:list`, { json });
const members = (app: PlatformApp, sessionId: string, json: unknown = {}) =>
  client.session(app, 'POST', `/runtime-sessions/${sessionId}/organization-directory/members:list`, { json });

describe('groups', () => {
  it('a manager reads a group tree of at least three levels with consistent paths and counts', async () => {
    const res = await groups(studio, manager.sessionId);
    expect(res.status).toBe(200);
    expect(res.data).toMatchObject({ appKey: studio.appKey, organizationId: manager.subject.organizationId });
    const items: Json[] = res.data.items;
    const byId = new Map(items.map((g) => [g.groupId, g]));
    const roots = items.filter((g) => g.parentGroupId === '');
    expect(roots).toHaveLength(1);
    expect(Math.max(...items.map((g) => g.depth))).toBeGreaterThanOrEqual(2);
    for (const group of items) {
      expect(group.groupPath.at(-1)).toBe(group.name);
      expect(group.depth).toBe(group.groupPath.length - 1);
      if (group.parentGroupId) {
        const parent = byId.get(group.parentGroupId)!;
        expect(group.groupPath.slice(0, -1)).toEqual(parent.groupPath);
      }
      const children = items.filter((g) => g.parentGroupId === group.groupId);
      expect(group.branchMemberCount).toBe(
        group.directMemberCount + children.reduce((sum, c) => sum + c.branchMemberCount, 0),
      );
    }
    expect(roots[0].branchMemberCount).toBeGreaterThanOrEqual(12);
  });

  it('takes exactly {} as its body', async () => {
    expectPlatformError(await groups(studio, manager.sessionId, { page: 1 }), 400, 'INVALID_REQUEST');
  });
});

describe('members', () => {
  it('pages every member once, without contact data or other applications’ roles', async () => {
    const all = await members(studio, manager.sessionId, { page: 1, pageSize: 100 });
    expect(all.status).toBe(200);
    const total = all.data.total as number;
    expect(total).toBeGreaterThanOrEqual(12);
    expect(all.data.items).toHaveLength(total);
    const seen: string[] = [];
    for (let page = 1; page <= Math.ceil(total / 5); page += 1) {
      const res = await members(studio, manager.sessionId, { page, pageSize: 5 });
      expect(res.data).toMatchObject({ page, pageSize: 5, total });
      seen.push(...res.data.items.map((m: Json) => m.membershipId));
    }
    expect(seen).toEqual(all.data.items.map((m: Json) => m.membershipId));
    expect(new Set(seen).size).toBe(total);
    expect(all.text).not.toMatch(/@|email|phone|balance/i);
    const studioRoles = new Set(all.data.items.flatMap((m: Json) => m.appRoles));
    const helperManager = await client.openSession(helper, 'manager');
    const helperAll = await members(helper, helperManager.sessionId, { page: 1, pageSize: 100 });
    const helperRoles = new Set(helperAll.data.items.flatMap((m: Json) => m.appRoles));
    expect(studioRoles.size).toBeGreaterThan(0);
    for (const role of helperRoles) expect(studioRoles.has(role)).toBe(false);
  });

  it('filters by group (with or without descendants) and by a search of the display name', async () => {
    const tree: Json[] = (await groups(studio, manager.sessionId)).data.items;
    const parent = tree.find((g) => g.directMemberCount > 0 && g.branchMemberCount > g.directMemberCount)!;
    const direct = await members(studio, manager.sessionId, { groupId: parent.groupId });
    expect(direct.data.total).toBe(parent.directMemberCount);
    for (const m of direct.data.items) expect(m.groupId).toBe(parent.groupId);
    const branch = await members(studio, manager.sessionId, {
      groupId: parent.groupId,
      includeDescendants: true,
    });
    expect(branch.data.total).toBe(parent.branchMemberCount);
    for (const m of branch.data.items)
      expect(m.groupPath.slice(0, parent.groupPath.length)).toEqual(parent.groupPath);

    const someone = direct.data.items[0];
    const needle = someone.displayName.split(' ')[1].toLowerCase();
    const found = await members(studio, manager.sessionId, { search: needle });
    expect(found.data.items.map((m: Json) => m.membershipId)).toContain(someone.membershipId);
    for (const m of found.data.items) expect(m.displayName.toLowerCase()).toContain(needle);
    expect((await members(studio, manager.sessionId, { search: 'no such person' })).data.total).toBe(0);
    expectPlatformError(
      await members(studio, manager.sessionId, { groupId: 'grp_unknown' }),
      404,
      'ORGANIZATION_GROUP_NOT_FOUND',
    );
  });

  it('answers 400 for an unknown field, invalid JSON, a negative page or pageSize and pageSize above 100', async () => {
    for (const body of [
      { email: 'x' },
      { page: -1 },
      { pageSize: -5 },
      { pageSize: 101 },
      { page: 1.5 },
      { includeDescendants: 'yes' },
    ])
      expectPlatformError(await members(studio, manager.sessionId, body), 400, 'INVALID_REQUEST');
    expectPlatformError(
      await client.session(
        studio,
        'POST',
        `/runtime-sessions/${manager.sessionId}/organization-directory/members:list`,
        {
          body: '{page: 1}',
          headers: { 'Content-Type': 'application/json' },
        },
      ),
      400,
      'INVALID_REQUEST',
    );
    expect((await members(studio, manager.sessionId, { pageSize: 100 })).status).toBe(200);
  });
});

describe('who may read it', () => {
  it('an ordinary member and a personal session get ORGANIZATION_MANAGER_REQUIRED', async () => {
    for (const user of ['member', 'personal']) {
      const session = await client.openSession(studio, user);
      expectPlatformError(await groups(studio, session.sessionId), 403, 'ORGANIZATION_MANAGER_REQUIRED');
      expectPlatformError(await members(studio, session.sessionId), 403, 'ORGANIZATION_MANAGER_REQUIRED');
    }
  });

  it('a cross-application, unknown or expired manager session does not read it', async () => {
    expectPlatformError(await groups(helper, manager.sessionId), 404, 'RUNTIME_SESSION_NOT_FOUND');
    expectPlatformError(await members(studio, 'rs_unknown'), 404, 'RUNTIME_SESSION_NOT_FOUND');
    expectPlatformError(
      await client.session(
        studio,
        'POST',
        `/runtime-sessions/${manager.sessionId}/organization-directory/groups:list`,
        {
          json: {},
          credential: helper.appCredential,
        },
      ),
      403,
      'APP_CREDENTIAL_MISMATCH',
    );
    const short = await client.openSession(studio, 'manager');
    await client.advanceClock(24 * 3600 + 1);
    expectPlatformError(await groups(studio, short.sessionId), 404, 'RUNTIME_SESSION_NOT_FOUND');
  });

  it('the directory dependency being down is 503 ORGANIZATION_DIRECTORY_UNAVAILABLE with Retry-After', async () => {
    const session = await client.openSession(studio, 'manager');
    const res = await client.session(
      studio,
      'POST',
      `/runtime-sessions/${session.sessionId}/organization-directory/groups:list`,
      {
        json: {},
        headers: { 'X-Simulator-Scenario': 'unavailable' },
      },
    );
    expectPlatformError(res, 503, 'ORGANIZATION_DIRECTORY_UNAVAILABLE');
    expect(res.headers.get('retry-after')).toBe('5');
    const limited = await client.session(
      studio,
      'POST',
      `/runtime-sessions/${session.sessionId}/organization-directory/groups:list`,
      {
        json: {},
        headers: { 'X-Simulator-Scenario': 'rate_limited' },
      },
    );
    expectPlatformError(limited, 429, 'RATE_LIMITED');
    expect(limited.headers.get('retry-after')).toBe('2');
  });
});
