import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAppCore, type AppCore } from '../../../src/main/core/app/app-core.js';
import { defaultSimulatorLauncher } from '../../../src/main/core/app/default-simulator-launcher.js';
import type { JobView, ServicesList, VariationsResult } from '../../../src/shared/bridge/contract.js';
import { MemorySecretStore } from '../../unit/secrets/fakes.js';
import { variationKey } from '../../../src/main/core/creating/variation-keys.js';
import { t2vForm } from '../../support/studio-core.js';
import { BROWSER_HOST } from '../../../src/main/core/library/studio-host.js';
import { tempFolder } from '../../support/worlds/temp-folder.js';

const variationKeysOf = (draftKey: string, count: number) =>
  Array.from({ length: count }, (_, i) => variationKey(draftKey, i));

/** A real app core over `dataDir` and its embedded simulator; reopened on the same folder for a restart. */
async function openCore(dataDir: string) {
  const core: AppCore = await createAppCore({
    dataDir,
    host: BROWSER_HOST,
    launchSimulator: defaultSimulatorLauncher(dataDir, 0.02),
    secretStore: new MemorySecretStore(),
    resumeOnStart: false,
  });
  const call = async <T = unknown>(method: string, params: unknown): Promise<T> => {
    const response = await core.dispatcher.dispatch(method, params);
    if (!response.ok) throw Object.assign(new Error(response.error.message), response.error);
    return response.result as T;
  };
  /** How many jobs the simulator created under each of the caller's idempotency keys. */
  const createdAtSimulator = async (prefix: string) => {
    const running = await core.services.simulator.get();
    const res = await fetch(`${running.baseUrl}/_simulator/idempotency`, {
      headers: { authorization: `Bearer ${running.token}` },
    });
    const body = (await res.json()) as { data: { idempotencyKey: string; created: number }[] };
    return new Map(
      body.data.filter((d) => d.idempotencyKey.startsWith(prefix)).map((d) => [d.idempotencyKey, d.created]),
    );
  };
  return { core, call, createdAtSimulator };
}

type Core = Awaited<ReturnType<typeof openCore>>;

let dataDir: string;
let studio: Core;
let model: string;

async function untilSucceeded(rowIds: number[], ms = 30_000): Promise<void> {
  const end = Date.now() + ms;
  for (;;) {
    const jobs = await Promise.all(rowIds.map((id) => studio.call<JobView>('jobs.get', { jobRowId: id })));
    if (jobs.every((j) => j.status === 'succeeded' && j.outputs.every((o) => o.verified))) return;
    if (jobs.some((j) => j.status === 'failed') || Date.now() > end)
      throw new Error(`jobs ended ${jobs.map((j) => j.status).join(',')}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const draftOf = (prompt: string, seed: number | null) =>
  studio.call<{ id: string; idempotencyKey: string; submittedAt: number | null }>('drafts.create', {
    form: { ...t2vForm(model, prompt, 0), seed },
  });

/** The create bodies the journal committed (and sent byte for byte) under these keys. */
const bodiesOf = (keys: string[]) =>
  keys.map(
    (k) =>
      JSON.parse(studio.core.services.journal.jobs.getIntent(k)!.canonicalBodyJson) as Record<
        string,
        unknown
      >,
  );

beforeAll(async () => {
  dataDir = tempFolder('fw-studio-variations-');
  studio = await openCore(dataDir);
  const list = await studio.call<ServicesList>('services.list', { serviceKind: 'video_generation' });
  model = list.services.find((s) => s.available)!.modelAlias;
});
afterAll(async () => {
  await studio?.core.close();
});

describe('video.variations: Generate ×N', () => {
  let draft: { id: string; idempotencyKey: string };
  let first: VariationsResult;

  it('×3 creates exactly three jobs whose bodies differ only in seed, grouped in the Queue', async () => {
    draft = await draftOf('A paper boat drifting down a rain gutter', 41);
    first = await studio.call<VariationsResult>('video.variations', { draftId: draft.id, count: 3 });

    expect(first.count).toBe(3);
    expect(first.variations.map((v) => v.state)).toEqual(['accepted', 'accepted', 'accepted']);
    expect(first.variations.map((v) => v.seed)).toEqual([41, 42, 43]);
    const keys = first.variations.map((v) => v.idempotencyKey);
    expect(new Set(keys).size).toBe(3);
    expect(keys).not.toContain(draft.idempotencyKey);
    // the draft is read-only from now on
    expect(first.draft.submittedAt).not.toBeNull();
    await expect(
      studio.call('drafts.save', { draftId: draft.id, form: t2vForm(model, 'changed', 1) }),
    ).rejects.toMatchObject({ code: 'draft.submitted' });

    const bodies = bodiesOf(keys);
    expect(bodies.map((b) => b.seed)).toEqual([41, 42, 43]);
    const withoutSeed = bodies.map(({ seed: _seed, ...rest }) => rest);
    expect(withoutSeed[1]).toEqual(withoutSeed[0]);
    expect(withoutSeed[2]).toEqual(withoutSeed[0]);

    const atSimulator = await studio.createdAtSimulator(draft.idempotencyKey);
    expect([...atSimulator.keys()].sort()).toEqual([...keys].sort());
    expect([...atSimulator.values()]).toEqual([1, 1, 1]);

    const rowIds = first.variations.map((v) => v.jobRowId!);
    const listed = (await studio.call<{ items: JobView[] }>('jobs.list', {})).items.filter((j) =>
      rowIds.includes(j.rowId),
    );
    expect(listed).toHaveLength(3);
    expect(new Set(listed.map((j) => j.variation?.groupId)).size).toBe(1);
    expect(first.groupId).toBe(listed[0]!.variation!.groupId);
    expect(listed.map((j) => [j.rowId, j.variation!.index, j.variation!.count]).sort()).toEqual(
      rowIds.map((id, i) => [id, i, 3]).sort(),
    );
  });

  it('pressing again, or twice at once, creates nothing new (same keys, same jobs)', async () => {
    const again = await studio.call<VariationsResult>('video.variations', { draftId: draft.id, count: 3 });
    expect(again.variations.map((v) => [v.idempotencyKey, v.jobRowId, v.seed])).toEqual(
      first.variations.map((v) => [v.idempotencyKey, v.jobRowId, v.seed]),
    );
    const other = await draftOf('A kite caught in a cherry tree', null);
    const [a, b] = await Promise.all([
      studio.call<VariationsResult>('video.variations', { draftId: other.id, count: 2 }),
      studio.call<VariationsResult>('video.variations', { draftId: other.id, count: 2 }),
    ]);
    expect(b.variations.map((v) => v.jobRowId)).toEqual(a.variations.map((v) => v.jobRowId));
    const created = await studio.createdAtSimulator(other.idempotencyKey);
    expect([...created.values()]).toEqual([1, 1]);
    // without a seed in the draft, the two seeds come from its key: distinct, in the spec's range
    const seeds = bodiesOf(a.variations.map((v) => v.idempotencyKey)).map((body) => body.seed as number);
    expect(seeds[1]).toBe((seeds[0]! + 1) % 2 ** 31);
    for (const seed of seeds) expect(seed).toBeLessThanOrEqual(2147483647);
    expect([...(await studio.createdAtSimulator(draft.idempotencyKey)).values()]).toEqual([1, 1, 1]);
    expect(
      studio.core.services.journal.database
        .prepare('SELECT count(*) AS n FROM job_intents WHERE draft_id = ?')
        .get(draft.id),
    ).toEqual({ n: 3 });
  });

  it('refuses a count outside 2..8, another count on the same draft and a single Generate after it', async () => {
    await expect(studio.call('video.variations', { draftId: draft.id, count: 9 })).rejects.toMatchObject({
      message: expect.stringMatching(/2 to 8/),
    });
    await expect(studio.call('video.variations', { draftId: draft.id, count: 1 })).rejects.toMatchObject({
      message: expect.stringMatching(/2 to 8/),
    });
    await expect(studio.core.studio.variations.generate(draft.id, 12)).rejects.toMatchObject({
      code: 'variations.count_invalid',
    });
    await expect(studio.call('video.variations', { draftId: draft.id, count: 4 })).rejects.toMatchObject({
      code: 'variations.count_changed',
    });
    await expect(studio.call('video.submit', { draftId: draft.id })).rejects.toMatchObject({
      code: 'draft.submitted',
    });
    const single = await draftOf('One single shot', 7);
    await studio.call('video.submit', { draftId: single.id });
    await expect(studio.call('video.variations', { draftId: single.id, count: 2 })).rejects.toMatchObject({
      code: 'draft.submitted',
    });
    // nothing of it reached the simulator
    expect([...(await studio.createdAtSimulator(draft.idempotencyKey)).values()]).toEqual([1, 1, 1]);
    expect((await studio.createdAtSimulator(single.idempotencyKey)).size).toBe(1);
  });

  it('a refused first variation stops there: nothing created, the draft editable again under a fresh key', async () => {
    const refused = await draftOf('A lantern nobody can pay for', 5);
    await studio.call('simulator.setScenario', { name: 'insufficient_balance' });
    const error = await studio
      .call('video.variations', { draftId: refused.id, count: 4 })
      .catch((e: unknown) => e as { code: string });
    await studio.call('simulator.setScenario', { name: null });
    expect(error).toMatchObject({ code: 'api.balance' });
    // only the first was sent (and refused); the other three never left
    const spent = variationKeysOf(refused.idempotencyKey, 4);
    expect(spent.map((k) => studio.core.services.journal.jobs.getIntent(k)?.state ?? null)).toEqual([
      'rejected',
      null,
      null,
      null,
    ]);
    const after = await studio.call<{ idempotencyKey: string; submittedAt: number | null }>('drafts.get', {
      draftId: refused.id,
    });
    expect(after.submittedAt).toBeNull();
    expect(after.idempotencyKey).not.toBe(refused.idempotencyKey);
    // pressed again, it makes its variations under the new key
    const retried = await studio.call<VariationsResult>('video.variations', {
      draftId: refused.id,
      count: 2,
    });
    expect(retried.variations.map((v) => v.state)).toEqual(['accepted', 'accepted']);
    expect(retried.variations.map((v) => v.idempotencyKey)).toEqual(variationKeysOf(after.idempotencyKey, 2));
  });

  it('keeps the group after a restart, and pressing again then creates nothing', async () => {
    const rowIds = first.variations.map((v) => v.jobRowId!);
    await untilSucceeded(rowIds);
    await studio.core.close();
    studio = await openCore(dataDir);

    const listed = (await studio.call<{ items: JobView[] }>('library.list', {})).items.filter((j) =>
      rowIds.includes(j.rowId),
    );
    expect(listed.map((j) => j.variation)).toEqual(
      expect.arrayContaining([0, 1, 2].map((index) => ({ groupId: first.groupId, index, count: 3 }))),
    );
    const again = await studio.call<VariationsResult>('video.variations', { draftId: draft.id, count: 3 });
    expect(again.variations.map((v) => v.jobRowId)).toEqual(rowIds);
    // the simulator (its record kept in its folder) still saw one creation per key
    expect([...(await studio.createdAtSimulator(draft.idempotencyKey)).values()]).toEqual([1, 1, 1]);
    expect(
      studio.core.services.journal.database
        .prepare('SELECT count(*) AS n FROM job_intents WHERE draft_id = ?')
        .get(draft.id),
    ).toEqual({ n: 3 });
  });
});
