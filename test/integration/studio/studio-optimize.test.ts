import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServicesList } from '../../../src/shared/bridge/contract.js';
import { createReadStream } from 'node:fs';
import path from 'node:path';
import type { DraftMedia } from '../../../src/shared/bridge/contract.js';
import { mediaFixtures } from '../../support/media-fixtures.js';
import { openStudioCore, t2vForm, type StudioCore } from '../../support/studio-core.js';

let studio: StudioCore;
const call = <T = unknown>(method: string, params: unknown) => studio.call<T>(method, params);

/** The simulator's own record of prompt optimizations: key → created (must stay 1) and replays. */
async function optimizationsOnServer() {
  return (await studio.serverKeys())
    .filter((d) => d.operation === 'prompt.optimization')
    .map(({ idempotencyKey, created, replays }) => ({ idempotencyKey, created, replays }));
}

async function draftWith(prompt: string): Promise<string> {
  const list = await call<ServicesList>('services.list', { serviceKind: 'video_generation' });
  const service = list.services.find(
    (s) => s.available && (s.promptOptimization as { available?: boolean } | null)?.available,
  )!;
  const form = t2vForm(service.modelAlias, prompt, 7);
  return (await call<{ id: string }>('drafts.create', { form })).id;
}

type Optimized = { clientRequestId: string; optimizedPrompt: string };
const optimize = (draftId: string, style?: string) =>
  call<Optimized>('video.optimize', { draftId, ...(style ? { style } : {}) });

beforeAll(async () => {
  studio = await openStudioCore('fw-studio-optimize-');
});
afterAll(async () => {
  await studio?.close();
});

describe('Optimize: one optimization per draft inputs, never billed twice', () => {
  it('a dropped connection after the service accepted it, then Optimize again: one optimization on the server', async () => {
    const draftId = await draftWith('A lighthouse at dusk, waves breaking below the rocks');
    await call('simulator.setScenario', { name: 'dropped_connection' });
    await expect(optimize(draftId)).rejects.toThrow();
    const afterDrop = await optimizationsOnServer();
    expect(afterDrop).toEqual([expect.objectContaining({ created: 1 })]);

    await call('simulator.setScenario', { name: null });
    const first = await optimize(draftId);
    expect(first.clientRequestId).toBe(afterDrop[0]!.idempotencyKey);
    expect(first.optimizedPrompt.length).toBeGreaterThan(0);
    const once = await optimizationsOnServer();
    expect(once).toEqual([expect.objectContaining({ created: 1 })]);

    // the same inputs again: the recorded result, without a request
    const again = await optimize(draftId);
    expect(again).toEqual(first);
    expect(await optimizationsOnServer()).toEqual(once);

    // changed inputs (a style) are a new optimization
    const styled = await optimize(draftId, 'film noir');
    expect(styled.clientRequestId).not.toBe(first.clientRequestId);
    expect((await optimizationsOnServer()).map((o) => o.created)).toEqual([1, 1]);
  });

  it('an unknown outcome left behind (as by a crash) is replayed by resume under its key; Optimize then returns it', async () => {
    const draftId = await draftWith('A glass greenhouse in the rain, seen from inside');
    const before = new Set((await optimizationsOnServer()).map((o) => o.idempotencyKey));
    await call('simulator.setScenario', { name: 'dropped_connection' });
    await expect(optimize(draftId)).rejects.toThrow();
    await call('simulator.setScenario', { name: null });
    const left = studio.core.services.journal.optimizations.listUnfinished();
    expect(left.map((o) => o.state)).toEqual(['unknown']);

    const { optimizations } = await studio.core.services.engine.resume({ waitSeconds: 5 });
    expect(optimizations).toEqual([
      expect.objectContaining({ clientRequestId: left[0]!.clientRequestId, state: 'succeeded', draftId }),
    ]);
    expect(studio.core.services.journal.optimizations.listUnfinished()).toEqual([]);
    const pressed = await optimize(draftId);
    expect(pressed.clientRequestId).toBe(left[0]!.clientRequestId);
    const created = (await optimizationsOnServer()).filter((o) => !before.has(o.idempotencyKey));
    expect(created).toEqual([
      expect.objectContaining({ idempotencyKey: left[0]!.clientRequestId, created: 1 }),
    ]);
  });

  it('refused for balance (nothing created): after topping up, the same inputs are sent again under the next attempt key', async () => {
    const draftId = await draftWith('A paper boat drifting down a gutter stream');
    await call('simulator.setScenario', { name: 'insufficient_balance' });
    await expect(optimize(draftId)).rejects.toMatchObject({ code: 'api.balance' });
    await call('simulator.setScenario', { name: null });
    const done = await optimize(draftId);
    expect(done.clientRequestId).toMatch(/^opt-[0-9a-f]{40}\.2$/);
    expect(
      studio.core.services.journal.optimizations.get(done.clientRequestId.slice(0, -2))!.statusCode,
    ).toBe(402);
  });

  it('a cached input the service no longer knows: the refusal is recorded, the image uploaded again and optimized once under a key of the new body', async () => {
    const list = await call<ServicesList>('services.list', { serviceKind: 'video_generation' });
    const service = list.services.find(
      (s) => s.available && (s.promptOptimization as { available?: boolean } | null)?.available,
    )!;
    const png = mediaFixtures().firstPng;
    const firstFrame = (await studio.core.studio.staged.stageStream(
      createReadStream(png),
      path.basename(png),
    )) as DraftMedia;
    const form = {
      ...t2vForm(service.modelAlias, 'A kite over a hill at noon, Image 1 sets the look', 9),
      generationMode: 'i2v',
      firstFrame,
    };
    const draftId = (await call<{ id: string }>('drafts.create', { form })).id;
    const journal = studio.core.services.journal;
    const bodyOf = (key: string) =>
      JSON.parse(journal.optimizations.get(key)!.canonicalBodyJson) as Record<string, unknown>;
    const first = await optimize(draftId);

    // the service lost the asset (or it is another identity's): the journal still offers it
    journal.database
      .prepare(`UPDATE uploads SET asset_id = 'asset-lost-' || asset_id WHERE model = ?`)
      .run(service.modelAlias);
    const before = new Set((await optimizationsOnServer()).map((o) => o.idempotencyKey));
    // a style makes this a new optimization (the same inputs would return the first one recorded)
    const again = await optimize(draftId, 'watercolour');
    expect(again.optimizedPrompt.length).toBeGreaterThan(0);

    // the refused first send created nothing and is recorded as refused, under its own key
    const rows = journal.database
      .prepare(`SELECT client_request_id AS key FROM prompt_optimizations WHERE draft_id = ?`)
      .all(draftId) as { key: string }[];
    const lostKey = rows
      .map((r) => r.key)
      .find((k) => k !== first.clientRequestId && k !== again.clientRequestId)!;
    expect(journal.optimizations.get(lostKey)).toMatchObject({
      state: 'failed',
      statusCode: 404,
      errorCode: 'asset_not_found',
    });
    expect(JSON.stringify(bodyOf(lostKey))).toContain('asset-lost-');
    // the optimization sent again names the new upload, and its key is that body's, not the refused one's
    const sent = JSON.stringify(bodyOf(again.clientRequestId));
    expect(sent).not.toContain('asset-lost-');
    expect(
      journal.database
        .prepare(`SELECT count(*) FROM uploads WHERE asset_id LIKE 'asset-lost-%'`)
        .pluck()
        .get(),
    ).toBe(0);
    expect(again.clientRequestId).not.toBe(lostKey);
    const created = (await optimizationsOnServer()).filter((o) => !before.has(o.idempotencyKey));
    expect(created).toEqual([expect.objectContaining({ idempotencyKey: again.clientRequestId, created: 1 })]);
    // Optimize again for the same inputs: the recorded result, no request
    expect(await optimize(draftId, 'watercolour')).toEqual(again);
  });
});
