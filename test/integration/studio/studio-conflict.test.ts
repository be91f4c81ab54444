import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServicesList } from '../../../src/shared/bridge/contract.js';
import { openStudioCore, t2vForm, type StudioCore } from '../../support/studio-core.js';

let studio: StudioCore;
const call = <T = unknown>(method: string, params: unknown) => studio.call<T>(method, params);

async function waitFor(check: () => boolean, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 10));
  }
}

beforeAll(async () => {
  studio = await openStudioCore('fw-studio-conflict-');
});
afterAll(async () => {
  await studio?.close();
});

describe('409 by its code', () => {
  it('a replay after an unknown outcome answered 409 is not a rejection: the draft keeps its key, nothing is created again', async () => {
    const list = await call<ServicesList>('services.list', { serviceKind: 'video_generation' });
    const model = list.services.find((s) => s.available)!.modelAlias;
    const form = t2vForm(model, 'A windmill turning slowly over a tulip field', 3);
    const draft = await call<{ id: string; idempotencyKey: string }>('drafts.create', { form });
    const intent = () => studio.core.services.journal.jobs.getIntent(draft.idempotencyKey);

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
    const created = new Map((await studio.serverKeys()).map((d) => [d.idempotencyKey, d.created]));
    expect(created.get(draft.idempotencyKey)).toBe(1);
    expect([...created.keys()].filter((k) => k.startsWith(`draft-${draft.id}`))).toEqual([
      draft.idempotencyKey,
    ]);
  }, 60_000);
});
