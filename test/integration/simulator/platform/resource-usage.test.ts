import { describe, expect, it } from 'vitest';
import type { Json } from '../client.js';
import {
  expectPlatformError,
  runtimeCall,
  settleRuntimeJobs,
  type PlatformApp,
  type PlatformClient,
} from './platform-client.js';
import { usePlatformWorld } from './platform-fixture.js';

let client: PlatformClient;
let studio: PlatformApp;
let member: Json;
let manager: Json;
const RESOURCE_TYPE = 'project';

usePlatformWorld({ simulator: { timeScale: 0.02 }, sessions: ['member', 'manager'] }, (world) => {
  ({ client, studio } = world);
  ({ member, manager } = world.sessions);
});

const job = (clientTaskId: string, resourceId: string, seconds: number) => ({
  clientTaskId,
  model: 'h3-video',
  params: { prompt: 'The same storyboard frame', seed: 7 },
  mediaSpec: { generationMode: 't2v', resolutionTier: '768p', orientation: 'landscape', seconds },
  resourceAttribution: { resourceType: RESOURCE_TYPE, resourceId },
});

async function create(sessionId: string, body: Json, scenario?: string): Promise<string> {
  const res = await runtimeCall(client, studio, 'POST', '/media/jobs', {
    sessionId,
    json: body,
    headers: scenario ? { 'X-Simulator-Scenario': scenario } : {},
  });
  expect(res.status, res.text).toBe(202);
  return res.data.platformJobId;
}

const settle = (sessionId: string, ids: string[]) => settleRuntimeJobs(client, studio, sessionId, ids);

const aggregate = (sessionId: string, json: unknown) =>
  runtimeCall(client, studio, 'POST', '/resource-usage:aggregate', { sessionId, json });

describe('POST /resource-usage:aggregate', () => {
  it('sums the credits of the jobs really run with each resourceAttribution, per group', async () => {
    const memberJobs = [
      await create(member.sessionId, job('u-1', 'proj-a', 5)),
      await create(member.sessionId, job('u-2', 'proj-a', 10)),
      await create(member.sessionId, job('u-3', 'proj-a', 5), 'job_failed'),
    ];
    const managerJobs = [await create(manager.sessionId, job('u-4', 'proj-b', 5))];
    await settle(member.sessionId, memberJobs);
    await settle(manager.sessionId, managerJobs);

    const dry = await runtimeCall(client, studio, 'POST', '/media/jobs:dry-run', {
      sessionId: member.sessionId,
      json: job('u-price', 'proj-a', 5),
    });
    const fiveSeconds = dry.data.estimatedCost.estimatedAmount as number;
    expect(fiveSeconds).toBeGreaterThan(0);

    const res = await aggregate(member.sessionId, {
      resourceType: RESOURCE_TYPE,
      resourceIds: ['proj-a', 'proj-b', 'proj-none'],
    });
    expect(res.status).toBe(200);
    expect(res.data.amountScale).toBe(dry.data.estimatedCost.amountScale);
    expect(typeof res.data.asOf).toBe('string');
    expect(typeof res.data.freshness).toBe('string');
    const byId = Object.fromEntries(res.data.items.map((i: Json) => [i.resourceId, i]));
    expect(byId['proj-a']).toMatchObject({
      requestCount: 3,
      ledgerSettledCredits: fiveSeconds * 3, // 5 s + 10 s succeeded
      failedCredits: fiveSeconds,
      releasedCredits: fiveSeconds,
      reservedCredits: 0,
      pendingCredits: 0,
    });
    expect(byId['proj-b']).toMatchObject({ requestCount: 1, ledgerSettledCredits: fiveSeconds });
    expect(byId['proj-none']).toMatchObject({ requestCount: 0, ledgerSettledCredits: 0 });

    const grouped = await aggregate(manager.sessionId, {
      resourceType: RESOURCE_TYPE,
      resourceIds: ['proj-a', 'proj-b'],
      groupBy: ['accountId', 'serviceKind', 'day'],
    });
    expect(grouped.status).toBe(200);
    const today = new Date().toISOString().slice(0, 10);
    expect(grouped.data.items).toHaveLength(2);
    expect(grouped.data.items).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          resourceId: 'proj-a',
          accountId: member.subject.accountId,
          serviceKind: 'video_generation',
          day: today,
          requestCount: 3,
        }),
        expect.objectContaining({
          resourceId: 'proj-b',
          accountId: manager.subject.accountId,
          day: today,
          requestCount: 1,
        }),
      ]),
    );
    const otherType = await aggregate(member.sessionId, {
      resourceType: 'storyboard.board',
      resourceIds: ['proj-a'],
    });
    expect(otherType.data.items).toEqual([
      expect.objectContaining({ resourceId: 'proj-a', requestCount: 0 }),
    ]);
  });

  it('counts image and audio jobs at their dry-run price, per service kind', async () => {
    const attribution = { resourceType: RESOURCE_TYPE, resourceId: 'proj-media' };
    const bodies = [
      {
        clientTaskId: 'm-img',
        model: 'lumen-image',
        params: { prompt: 'Storyboard panel, ink' },
        mediaSpec: { imageCount: 3 },
        resourceAttribution: attribution,
      },
      {
        clientTaskId: 'm-speech',
        model: 'cadence-speech',
        params: { text: 'Scene one.' },
        resourceAttribution: attribution,
      },
      {
        clientTaskId: 'm-music',
        model: 'cadence-music',
        params: { prompt: 'A calm theme' },
        mediaSpec: { seconds: 6 },
        resourceAttribution: attribution,
      },
    ];
    const prices: Record<string, number> = {};
    for (const body of bodies) {
      const dry = await runtimeCall(client, studio, 'POST', '/media/jobs:dry-run', {
        sessionId: member.sessionId,
        json: body,
      });
      expect(dry.data.accepted, dry.text).toBe(true);
      expect(dry.data.estimatedCost.estimatedAmount).toBeGreaterThan(0);
      prices[body.model] = dry.data.estimatedCost.estimatedAmount;
    }
    const ids = [];
    for (const body of bodies) ids.push(await create(member.sessionId, body));
    const settled = await settle(member.sessionId, ids);
    expect(settled.map((j) => j.status)).toEqual(['succeeded', 'succeeded', 'succeeded']);

    const total = await aggregate(member.sessionId, {
      resourceType: RESOURCE_TYPE,
      resourceIds: ['proj-media'],
    });
    expect(total.data.items).toEqual([
      expect.objectContaining({
        resourceId: 'proj-media',
        requestCount: 3,
        ledgerSettledCredits: prices['lumen-image']! + prices['cadence-speech']! + prices['cadence-music']!,
        reservedCredits: 0,
      }),
    ]);
    const byKind = await aggregate(member.sessionId, {
      resourceType: RESOURCE_TYPE,
      resourceIds: ['proj-media'],
      groupBy: ['serviceKind'],
    });
    expect(byKind.data.items).toHaveLength(2);
    expect(byKind.data.items).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          serviceKind: 'image_generation',
          requestCount: 1,
          ledgerSettledCredits: prices['lumen-image'],
        }),
        expect.objectContaining({
          serviceKind: 'audio_generation',
          requestCount: 2,
          ledgerSettledCredits: prices['cadence-speech']! + prices['cadence-music']!,
        }),
      ]),
    );
  });

  it('needs an organization session and 1..200 resource ids', async () => {
    const personal = await client.openSession(studio, 'personal');
    expectPlatformError(
      await aggregate(personal.sessionId, { resourceType: RESOURCE_TYPE, resourceIds: ['proj-a'] }),
      403,
      'organization_session_required',
    );
    for (const json of [
      { resourceType: RESOURCE_TYPE, resourceIds: [] },
      { resourceType: RESOURCE_TYPE, resourceIds: Array.from({ length: 201 }, (_, i) => `r${i}`) },
      { resourceType: RESOURCE_TYPE, resourceIds: [''] },
      { resourceIds: ['proj-a'] },
      { resourceType: RESOURCE_TYPE, resourceIds: ['proj-a'], groupBy: ['userId'] },
    ])
      expectPlatformError(await aggregate(member.sessionId, json), 400, 'invalid_request');
    expect(
      (
        await aggregate(member.sessionId, {
          resourceType: RESOURCE_TYPE,
          resourceIds: Array.from({ length: 200 }, (_, i) => `r${i}`),
        })
      ).status,
    ).toBe(200);
  });
});
