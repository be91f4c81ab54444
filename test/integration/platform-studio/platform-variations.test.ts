import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobView, VariationsResult } from '../../../src/shared/bridge/contract.js';
import { startStudioRig, type StudioRig } from './rig.js';

let rig: StudioRig;

beforeAll(async () => {
  rig = await startStudioRig();
});
afterAll(async () => {
  await rig?.close();
});

describe('Generate ×N on the platform runtime', () => {
  it('creates one runtime job per variation, each with its own clientTaskId and seed; again creates nothing', async () => {
    const member = await rig.open('member');
    const draft = await member.call<{ id: string }>('drafts.create', {
      form: {
        profileId: 'ignored-by-the-platform',
        model: 'h3-video',
        generationMode: 't2v',
        prompt: 'A heron lifting off a misty pond',
        orientation: 'landscape',
        seconds: 5,
        resolutionTier: '768p',
        seed: 100,
        references: [],
      },
    });
    const result = await member.call<VariationsResult>('video.variations', { draftId: draft.id, count: 2 });
    expect(result.variations.map((v) => v.state)).toEqual(['accepted', 'accepted']);
    const again = await member.call<VariationsResult>('video.variations', { draftId: draft.id, count: 2 });
    expect(again.variations.map((v) => v.jobRowId)).toEqual(result.variations.map((v) => v.jobRowId));

    const session = await rig.sessionOf(member);
    const journal = rig.backend.workspaces.workspaceOf(session.subject).journal;
    const bodies = result.variations.map(
      (v) =>
        JSON.parse(journal.jobs.getIntent(v.idempotencyKey)!.canonicalBodyJson) as Record<string, unknown>,
    );
    expect(bodies.map((b) => b.clientTaskId)).toEqual([`${draft.id}.v0`, `${draft.id}.v1`]);
    expect(bodies.map((b) => (b.mediaSpec as { seed?: number }).seed)).toEqual([100, 101]);
    const strip = (b: Record<string, unknown>) => {
      const { clientTaskId: _task, mediaSpec, ...rest } = b;
      const { seed: _seed, ...spec } = mediaSpec as Record<string, unknown>;
      return { ...rest, mediaSpec: spec };
    };
    expect(strip(bodies[1]!)).toEqual(strip(bodies[0]!));
    // the platform saw exactly one job per variation, none under the draft's own id
    expect(await rig.platformJobsOf(member, `${draft.id}.v0`)).toHaveLength(1);
    expect(await rig.platformJobsOf(member, `${draft.id}.v1`)).toHaveLength(1);
    expect(await rig.platformJobsOf(member, draft.id)).toHaveLength(0);

    const jobs = await member.call<{ items: JobView[] }>('jobs.list', {});
    const grouped = jobs.items.filter((j) => j.variation?.groupId === result.groupId);
    expect(grouped.map((j) => j.variation!.index).sort()).toEqual([0, 1]);
    // the Queue's header names the prompt, which a runtime body carries in its params
    expect(grouped.map((j) => [j.prompt, j.generationMode])).toEqual([
      ['A heron lifting off a misty pond', 't2v'],
      ['A heron lifting off a misty pond', 't2v'],
    ]);
    const detail = await member.call<{ seed: number | null }>('jobs.get', { jobRowId: grouped[0]!.rowId });
    expect([100, 101]).toContain(detail.seed);
  });
});
