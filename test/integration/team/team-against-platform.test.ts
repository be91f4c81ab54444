import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProjectsFeature } from '../../../src/main/core/projects/projects-feature.js';
import { resourceAttributionFor } from '../../../src/main/core/projects/resource-attribution.js';
import type { MembersQuery } from '../../../src/main/core/team/organization-directory.js';
import type { UsageRequestBody } from '../../../src/main/core/team/resource-usage.js';
import { TeamFeature } from '../../../src/main/core/team/team-feature.js';
import { openJournal, type Journal } from '../../../src/main/core/journal/index.js';
import { apiErrorFromResponse } from '../../../src/main/core/api-clients/api-errors.js';
import type { RunningSimulator } from '../../../src/simulator/index.js';
import {
  openPlatformSimulator,
  type PlatformSimulatorWorld,
} from '../../support/worlds/platform-simulator.js';

/**
 * Team against the platform simulator: the session service's directory and the runtime's usage
 * aggregate reached with small fetches of this test (credential + session header), as the
 * runtime-jobs lane's clients will reach them once wired.
 */
let platform: PlatformSimulatorWorld;
let sim: RunningSimulator;
let journal: Journal;

interface Session {
  sessionId: string;
  subject: { organizationId?: string; accountId: string };
}

const app = () => sim.platform.apps.find((a) => a.appKey === 'framewright-studio')!;

async function post(
  url: string,
  body: unknown,
  sessionId?: string,
  idempotencyKey?: string,
): Promise<unknown> {
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      Authorization: `Bearer ${app().appCredential}`,
      'Content-Type': 'application/json',
      ...(sessionId ? { 'X-Platform-Runtime-Session-Id': sessionId } : {}),
      ...(idempotencyKey ? { 'Idempotency-Key': idempotencyKey } : {}),
    },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw await apiErrorFromResponse(response);
  return response.json();
}

async function open(user: 'manager' | 'member' | 'personal'): Promise<Session> {
  return (await post(`${sim.platform.sessionBaseUrl}/apps/${app().appKey}/runtime-sessions:exchange`, {
    launchCode: await platform.launchCode(user),
  })) as Session;
}

function teamFor(session: Session, projects: () => { id: string; name: string }[]) {
  const directory = `${sim.platform.sessionBaseUrl}/apps/${app().appKey}/runtime-sessions/${session.sessionId}/organization-directory`;
  return new TeamFeature({
    subject: session.subject,
    directory: {
      listGroups: () => post(`${directory}/groups:list`, {}),
      listMembers: (query: MembersQuery) => post(`${directory}/members:list`, query),
    },
    usage: {
      aggregateUsage: (body: UsageRequestBody) =>
        post(`${sim.platform.runtimeBaseUrl}/resource-usage:aggregate`, body, session.sessionId),
    },
    projects: { list: async () => projects() },
  });
}

async function settled(session: Session, jobId: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    const response = await fetch(`${sim.platform.runtimeBaseUrl}/media/jobs/${jobId}`, {
      headers: {
        Authorization: `Bearer ${app().appCredential}`,
        'X-Platform-Runtime-Session-Id': session.sessionId,
      },
    });
    const job = (await response.json()) as { status: string };
    if (job.status === 'succeeded') return;
    if (job.status === 'failed') throw new Error('the job failed');
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('the job did not finish');
}

beforeAll(async () => {
  platform = await openPlatformSimulator({ prefix: 'framewright-team-' });
  sim = platform.sim;
  journal = openJournal({ path: path.join(platform.root, 'member-journal.sqlite') });
});

afterAll(() => journal?.close());

describe('Team against the platform simulator', () => {
  it("a manager sees the group tree, members, and the member's project with its credits after a job ran under it", async () => {
    const member = await open('member');
    const manager = await open('manager');
    // the member files a job under a project of their own journal
    const project = new ProjectsFeature(journal).create('Launch film');
    const created = (await post(
      `${sim.platform.runtimeBaseUrl}/media/jobs`,
      {
        clientTaskId: 'team-usage-1',
        model: 'h3-video',
        params: { prompt: 'A lighthouse at dusk' },
        mediaSpec: { generationMode: 't2v', resolutionTier: '768p', orientation: 'landscape', seconds: 5 },
        resourceAttribution: resourceAttributionFor(project.id),
      },
      member.sessionId,
      'team-usage-1',
    )) as { platformJobId: string };
    await settled(member, created.platformJobId);

    const team = teamFor(manager, () => journal.projects.list());
    expect(await team.access()).toEqual({ manager: true });

    const tree = await team.groups();
    expect(tree).toHaveLength(1);
    expect(tree[0]!.name).toBe('Northwind Pictures');
    expect(tree[0]!.children.map((g) => g.name)).toEqual(
      expect.arrayContaining(['Production', 'Post-production', 'Operations']),
    );

    const everyone = await team.members();
    expect(everyone.total).toBe(14);
    for (const m of everyone.items)
      expect(Object.keys(m).sort()).toEqual(
        [
          'accountId',
          'appRoles',
          'displayName',
          'groupId',
          'groupPath',
          'membershipId',
          'organizationRoles',
        ].sort(),
      );
    const someone = everyone.items[0]!.displayName;
    const found = await team.members({ search: someone.slice(0, 4).toUpperCase() });
    expect(found.items.map((m) => m.displayName)).toContain(someone);
    const postProduction = tree[0]!.children.find((g) => g.name === 'Post-production')!;
    const inPost = await team.members({ groupId: postProduction.groupId });
    expect(inPost.total).toBe(postProduction.branchMemberCount);
    expect(inPost.items.every((m) => m.groupPath.includes('Post-production'))).toBe(true);

    const usage = await team.usage();
    expect(usage.rows).toEqual([
      expect.objectContaining({
        projectId: project.id,
        projectName: 'Launch film',
        accountId: member.subject.accountId,
        memberName: expect.any(String),
        serviceKind: 'video_generation',
        day: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
        requestCount: 1,
        credits: {
          ledgerSettledCredits: '7.50', // 5 s at 150 per second, amountScale 2
          reservedCredits: '0.00',
          releasedCredits: '0.00',
          failedCredits: '0.00',
          pendingCredits: '0.00',
        },
      }),
    ]);
    expect(usage.freshness).toBe('realtime');
    expect(Number.isNaN(Date.parse(usage.asOf))).toBe(false);
  });

  it('a member is refused every Team call with a clear error, and a person without organization is not asked', async () => {
    const member = teamFor(await open('member'), () => journal.projects.list());
    expect(await member.access()).toEqual({ manager: false });
    await expect(member.groups()).rejects.toMatchObject({
      code: 'team.not_manager',
      message: expect.stringContaining('organization managers'),
    });
    await expect(member.members({ search: 'a' })).rejects.toMatchObject({ code: 'team.not_manager' });
    await expect(member.usage()).rejects.toMatchObject({ code: 'team.not_manager' });

    const personal = teamFor(await open('personal'), () => []);
    expect(await personal.access()).toEqual({ manager: false });
    await expect(personal.usage()).rejects.toMatchObject({ code: 'team.not_manager' });
  });
});
