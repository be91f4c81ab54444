import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAppCore, type AppCore } from '../../../src/main/core/app/app-core.js';
import { defaultSimulatorLauncher } from '../../../src/main/core/app/default-simulator-launcher.js';
import type { BatchPreview, BatchSubmitResult, ServicesList } from '../../../src/shared/bridge/contract.js';
import { MemorySecretStore } from '../../unit/secrets/fakes.js';
import { BROWSER_HOST } from '../../../src/main/core/library/studio-host.js';
import { tempFolder } from '../../support/worlds/temp-folder.js';

let core: AppCore;
let dataDir: string;

async function call<T = unknown>(method: string, params: unknown): Promise<T> {
  const response = await core.dispatcher.dispatch(method, params);
  if (!response.ok) throw Object.assign(new Error(response.error.message), response.error);
  return response.result as T;
}

async function createdPerKey(): Promise<Map<string, number>> {
  const running = await core.services.simulator.get();
  const res = await fetch(`${running.baseUrl}/_simulator/idempotency`, {
    headers: { authorization: `Bearer ${running.token}` },
  });
  const body = (await res.json()) as { data: { idempotencyKey: string; created: number }[] };
  return new Map(body.data.map((d) => [d.idempotencyKey, d.created]));
}

let model = '';
const params = (text: string, name = 'prompts.txt') => ({
  file: { name, text },
  defaults: {
    model,
    generationMode: 't2v',
    seconds: 5,
    orientation: 'landscape',
    resolutionTier: '768p',
    seed: 3,
  },
});

beforeAll(async () => {
  dataDir = tempFolder('fw-studio-batch-');
  core = await createAppCore({
    dataDir,
    host: BROWSER_HOST,
    launchSimulator: defaultSimulatorLauncher(dataDir, 0.02),
    secretStore: new MemorySecretStore(),
    resumeOnStart: false,
  });
  const list = await call<ServicesList>('services.list', { serviceKind: 'video_generation' });
  model = list.services.find((s) => s.available)!.modelAlias;
});

afterAll(async () => {
  await core?.close();
});

describe('studio.batch over the bridge (real core and simulator)', () => {
  it('previews, submits without waiting, and a re-import is "already sent" with nothing new created', async () => {
    const text = '# a batch\nBridge: a fox\nBridge: a whale\nBridge: a fox\nBridge: a parrot\n';
    const preview = await call<BatchPreview>('studio.batch.preview', params(text));
    expect(preview.rows.map((r) => [r.row, r.state, r.duplicateOf])).toEqual([
      [2, 'new', null],
      [3, 'new', null],
      [4, 'new', 2],
      [5, 'new', null],
    ]);
    expect(preview).toMatchObject({ invalidRows: 0, newRows: 3 });
    // previewing sends nothing
    const before = await createdPerKey();

    const submitted = await call<BatchSubmitResult>('studio.batch.submit', params(text));
    expect(submitted.rows.map((r) => [r.row, r.state])).toEqual([
      [2, 'accepted'],
      [3, 'accepted'],
      [4, 'duplicate'],
      [5, 'accepted'],
    ]);
    expect(submitted).toMatchObject({ accepted: 3, alreadySent: 0, stoppedBy: null });
    const keys = submitted.rows.filter((r) => r.state === 'accepted').map((r) => r.idempotencyKey);
    expect(new Set(keys).size).toBe(3);
    const created = await createdPerKey();
    expect(created.size).toBe(before.size + 3);
    for (const key of keys) expect(created.get(key)).toBe(1);

    // the jobs run on in the background to verified results
    const rowIds = submitted.rows.filter((r) => r.jobRowId !== null).map((r) => r.jobRowId);
    const end = Date.now() + 60_000;
    for (;;) {
      const jobs = await call<{ items: { rowId: number; status: string }[] }>('jobs.list', { limit: 50 });
      const mine = jobs.items.filter((j) => rowIds.includes(j.rowId));
      if (mine.length === 3 && mine.every((j) => j.status === 'succeeded')) break;
      if (Date.now() > end) throw new Error(`jobs not finished: ${JSON.stringify(mine)}`);
      await new Promise((r) => setTimeout(r, 200));
    }

    const again = await call<BatchPreview>('studio.batch.preview', params(text));
    expect(again.rows.map((r) => r.state)).toEqual([
      'already_sent',
      'already_sent',
      'already_sent',
      'already_sent',
    ]);
    expect(again.newRows).toBe(0);
    const resubmitted = await call<BatchSubmitResult>('studio.batch.submit', params(text));
    expect(resubmitted).toMatchObject({ accepted: 0, alreadySent: 3 });
    expect(resubmitted.rows.filter((r) => r.state === 'already_sent').map((r) => r.jobRowId)).toEqual(rowIds);
    expect(await createdPerKey()).toEqual(created);

    // a new run label is a deliberate new generation
    const labelled = await call<BatchPreview>('studio.batch.preview', {
      ...params(text),
      runLabel: 'take-2',
    });
    expect(labelled.newRows).toBe(3);
  });

  it('a job limit sends the first new rows and leaves the rest for a later import of the same run', async () => {
    const text = 'Capped: a mill\nCapped: a mill\nCapped: a bridge\nCapped: a tower\n';
    const capped = { ...params(text), maxJobs: 1 };
    const preview = await call<BatchPreview>('studio.batch.preview', capped);
    expect(preview.rows.map((r) => [r.row, r.state, r.duplicateOf])).toEqual([
      [1, 'new', null],
      [2, 'new', 1],
      [3, 'capped', null],
      [4, 'capped', null],
    ]);
    expect(preview.newRows).toBe(1);

    const before = await createdPerKey();
    const first = await call<BatchSubmitResult>('studio.batch.submit', capped);
    expect(first.rows.map((r) => [r.row, r.state])).toEqual([
      [1, 'accepted'],
      [2, 'duplicate'],
      [3, 'capped'],
      [4, 'capped'],
    ]);
    const afterFirst = await createdPerKey();
    expect(afterFirst.size).toBe(before.size + 1);

    // the next import (limit 2): row 1 is already sent, rows 3 and 4 are the new ones
    const second = await call<BatchSubmitResult>('studio.batch.submit', { ...params(text), maxJobs: 2 });
    expect(second.rows.map((r) => [r.row, r.state])).toEqual([
      [1, 'already_sent'],
      [2, 'duplicate'],
      [3, 'accepted'],
      [4, 'accepted'],
    ]);
    const afterSecond = await createdPerKey();
    expect(afterSecond.size).toBe(before.size + 3);
    for (const row of [...first.rows, ...second.rows].filter((r) => r.state === 'accepted'))
      expect(afterSecond.get(row.idempotencyKey)).toBe(1);

    // the limit is checked on the main side
    for (const maxJobs of [0, 1.5, 10_001])
      await expect(call('studio.batch.preview', { ...params(text), maxJobs })).rejects.toMatchObject({
        code: expect.stringMatching(/invalid/),
      });
  });

  it('an invalid row is reported by code and the submit sends nothing', async () => {
    const text = `Invalid: a lighthouse\n${'x'.repeat(7001)}\n`;
    const preview = await call<BatchPreview>('studio.batch.preview', params(text));
    expect(preview.invalidRows).toBe(1);
    expect(preview.rows[1]).toMatchObject({ row: 2, state: 'invalid' });
    expect(preview.rows[1]!.issues.map((i) => i.code)).toContain('prompt.too_long');
    const before = await createdPerKey();
    await expect(call('studio.batch.submit', params(text))).rejects.toMatchObject({
      code: 'batch.invalid_rows',
    });
    expect(await createdPerKey()).toEqual(before);
  });

  it('the main side validates the input: t2v only, TXT/CSV only, no frame columns', async () => {
    await expect(
      call('studio.batch.preview', {
        ...params('a'),
        defaults: { ...params('a').defaults, generationMode: 'i2v' },
      }),
    ).rejects.toMatchObject({ code: expect.stringMatching(/invalid/) });
    await expect(call('studio.batch.preview', params('a fox', 'prompts.md'))).rejects.toThrow(/\.txt/);
    const csv = await call<BatchPreview>(
      'studio.batch.preview',
      params('prompt,first_frame\nA red square,/etc/passwd\n', 'p.csv'),
    );
    expect(csv.rows[0]!.issues.map((i) => i.code)).toContain('batch.frames_unsupported');
  });
});
