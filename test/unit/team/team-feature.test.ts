import { describe, expect, it, vi } from 'vitest';
import { TeamFeature } from '../../../src/main/core/team/team-feature.js';
import type { TeamDeps } from '../../../src/main/core/team/team-feature.js';
import { ApiError } from '../../../src/main/core/api-clients/api-errors.js';

const refused = () =>
  new ApiError({
    status: 403,
    apiCode: 'ORGANIZATION_MANAGER_REQUIRED',
    message: 'manager only',
    retryable: false,
  });
const unavailable = () =>
  new ApiError({
    status: 503,
    apiCode: 'ORGANIZATION_DIRECTORY_UNAVAILABLE',
    message: 'down',
    retryable: true,
  });

const groups = {
  items: [
    {
      groupId: 'g1',
      parentGroupId: '',
      name: 'Org',
      groupPath: ['Org'],
      depth: 0,
      directMemberCount: 1,
      branchMemberCount: 3,
    },
    {
      groupId: 'g2',
      parentGroupId: 'g1',
      name: 'Post',
      groupPath: ['Org', 'Post'],
      depth: 1,
      directMemberCount: 2,
      branchMemberCount: 2,
    },
  ],
};
const member = {
  membershipId: 'm1',
  accountId: 'acc_1',
  displayName: 'Ada',
  groupId: 'g2',
  groupPath: ['Org', 'Post'],
  organizationRoles: ['member'],
  appRoles: ['studio_editor'],
  email: 'ada@example.com',
  phone: '+1 555',
};

function team(overrides: Partial<TeamDeps> = {}) {
  const deps = {
    subject: { organizationId: 'org_1' } as TeamDeps['subject'],
    directory: {
      listGroups: vi.fn(async (): Promise<unknown> => groups),
      listMembers: vi.fn(async (): Promise<unknown> => ({
        items: [member],
        page: 1,
        pageSize: 50,
        total: 1,
      })),
    },
    usage: {
      aggregateUsage: vi.fn(async (): Promise<unknown> => ({
        items: [
          {
            resourceId: 'prj_1',
            accountId: 'acc_1',
            serviceKind: 'video_generation',
            day: '2026-11-23',
            ledgerSettledCredits: 750,
            reservedCredits: 0,
            releasedCredits: 0,
            failedCredits: 0,
            pendingCredits: 0,
            requestCount: 1,
          },
        ],
        amountScale: 2,
        asOf: '2026-11-23T10:00:00.000Z',
        freshness: 'realtime',
      })),
    },
    projects: { list: vi.fn(async () => [{ id: 'prj_1', name: 'Launch film' }]) },
  };
  return { deps, feature: new TeamFeature({ ...deps, ...overrides }) };
}

describe('TeamFeature: organization managers only', () => {
  it('a person without an organization never sees Team and nothing is asked of the platform', async () => {
    const { deps, feature } = team({ subject: {} });
    expect(await feature.access()).toEqual({ manager: false });
    await expect(feature.groups()).rejects.toMatchObject({ code: 'team.not_manager' });
    await expect(feature.usage()).rejects.toMatchObject({ code: 'team.not_manager' });
    expect(deps.directory.listGroups).not.toHaveBeenCalled();
    expect(deps.usage.aggregateUsage).not.toHaveBeenCalled();
  });

  it('a member the directory refuses (403) never sees Team; usage is not read for them', async () => {
    const { deps, feature } = team();
    deps.directory.listGroups.mockRejectedValue(refused());
    expect(await feature.access()).toEqual({ manager: false });
    await expect(feature.members({ search: 'a' })).rejects.toMatchObject({
      code: 'team.not_manager',
      message: expect.stringContaining('organization managers'),
    });
    await expect(feature.usage(['prj_1'])).rejects.toMatchObject({ code: 'team.not_manager' });
    expect(deps.usage.aggregateUsage).not.toHaveBeenCalled();
    expect(deps.directory.listGroups).toHaveBeenCalledTimes(1); // the refusal is remembered for the session
  });

  it('an outage of the directory is an error, not a "no", and is asked again next time', async () => {
    const { deps, feature } = team();
    deps.directory.listGroups.mockRejectedValueOnce(unavailable());
    await expect(feature.access()).rejects.toMatchObject({ status: 503 });
    expect(await feature.access()).toEqual({ manager: true });
  });

  it('gives a manager the group tree, members without contact data, and usage named by project and member', async () => {
    const { deps, feature } = team();
    expect(await feature.access()).toEqual({ manager: true });
    expect(await feature.groups()).toEqual([
      expect.objectContaining({
        groupId: 'g1',
        children: [expect.objectContaining({ groupId: 'g2', children: [] })],
      }),
    ]);
    const page = await feature.members({ groupId: 'g1', search: '  ad ' });
    expect(deps.directory.listMembers).toHaveBeenLastCalledWith({
      groupId: 'g1',
      includeDescendants: true,
      search: 'ad',
      page: 1,
      pageSize: 50,
    });
    expect(page.items[0]).not.toHaveProperty('email');
    expect(page.items[0]).not.toHaveProperty('phone');
    expect(JSON.stringify(page)).not.toContain('example.com');

    const usage = await feature.usage();
    expect(deps.usage.aggregateUsage).toHaveBeenCalledWith({
      resourceType: 'project',
      resourceIds: ['prj_1'],
      groupBy: ['accountId', 'serviceKind', 'day'],
    });
    expect(usage.rows).toEqual([
      expect.objectContaining({
        projectId: 'prj_1',
        projectName: 'Launch film',
        accountId: 'acc_1',
        memberName: 'Ada',
        serviceKind: 'video_generation',
        day: '2026-11-23',
        credits: expect.objectContaining({ ledgerSettledCredits: '7.50', reservedCredits: '0.00' }),
      }),
    ]);
    expect(usage).toMatchObject({ asOf: '2026-11-23T10:00:00.000Z', freshness: 'realtime', amountScale: 2 });
  });

  it('refuses a bad members request before anything is sent', async () => {
    const { deps, feature } = team();
    await expect(feature.members({ page: 0 })).rejects.toMatchObject({ code: 'team.invalid_query' });
    await expect(feature.members({ search: 'x'.repeat(101) })).rejects.toMatchObject({
      code: 'team.invalid_query',
    });
    expect(deps.directory.listMembers).not.toHaveBeenCalled();
  });
});
