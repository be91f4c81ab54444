import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAppCore, type AppCore } from '../../../src/main/core/app/app-core.js';
import { defaultSimulatorLauncher } from '../../../src/main/core/app/default-simulator-launcher.js';
import type { DraftForm, ServicesList } from '../../../src/shared/bridge/contract.js';
import { MemorySecretStore } from '../../unit/secrets/fakes.js';

let core: AppCore;
let dataDir: string;

async function call<T = unknown>(method: string, params: unknown): Promise<T> {
  const response = await core.dispatcher.dispatch(method, params);
  if (!response.ok) throw Object.assign(new Error(response.error.message), response.error);
  return response.result as T;
}

async function createdOnServer(): Promise<Map<string, number>> {
  const running = await core.services.simulator.get();
  const res = await fetch(`${running.baseUrl}/_simulator/idempotency`, {
    headers: { authorization: `Bearer ${running.token}` },
  });
  const body = (await res.json()) as { data: { idempotencyKey: string; created: number }[] };
  return new Map(body.data.map((d) => [d.idempotencyKey, d.created]));
}

async function waitFor(check: () => boolean, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 10));
  }
}

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'fw-studio-conflict-'));
  core = await createAppCore({
    dataDir,
    host: 'browser',
    launchSimulator: defaultSimulatorLauncher(dataDir, 0.02),
    secretStore: new MemorySecretStore(),
    resumeOnStart: false,
  });
});

afterAll(async () => {
  await core?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('409 by its code', () => {
  it('a replay after an unknown outcome answered 409 is not a rejection: the draft keeps its key, nothing is created again', async () => {
    const list = await call<ServicesList>('services.list', { serviceKind: 'video_generation' });
    const form: DraftForm = {
      profileId: 'simulator',
      model: list.services.find((s) => s.available)!.modelAlias,
      generationMode: 't2v',
      prompt: 'A windmill turning slowly over a tulip field',
      orientation: 'landscape',
      seconds: 5,
      resolutionTier: '768p',
      seed: 3,
      references: [],
    };
    const draft = await call<{ id: string; idempotencyKey: string }>('drafts.create', { form });
    const intent = () => core.services.journal.jobs.getIntent(draft.idempotencyKey);

    // the service creates the job, then the connection drops: the outcome is unknown …
    await call('simulator.setScenario', { name: 'dropped_connection' });
    const submitted = call('video.submit', { draftId: draft.id }).catch((e: unknown) => e);
    await waitFor(() => intent()?.state === 'unknown');
    // … and the replay under the same key is answered 409 idempotency_conflict
    await call('simulator.setScenario', { name: 'idempotency_conflict' });
    const error = await submitted;
    await call('simulator.setScenario', { name: null });

    expect(error).toMatchObject({ code: 'job.conflict_after_unknown' });
    expect((error as Error).message).toMatch(/a job may already exist under this key/);
    expect(intent()!.state).toBe('abandoned');
    expect(intent()!.errorMessage).toMatch(/409 idempotency_conflict/);
    // the studio never reopens the draft under a new key while the first job may exist
    const after = await call<{ idempotencyKey: string; submittedAt: number | null }>('drafts.get', {
      draftId: draft.id,
    });
    expect(after.idempotencyKey).toBe(draft.idempotencyKey);
    expect(after.submittedAt).not.toBeNull();
    await expect(call('video.submit', { draftId: draft.id })).resolves.toMatchObject({
      idempotencyKey: draft.idempotencyKey,
    });
    const created = await createdOnServer();
    expect(created.get(draft.idempotencyKey)).toBe(1);
    expect([...created.keys()].filter((k) => k.startsWith(`draft-${draft.id}`))).toEqual([
      draft.idempotencyKey,
    ]);
  }, 60_000);
});
