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
  it('a replay after an unknown outcome answered 409 reads the latest state: the same key is replayed until the job is answered, one job', async () => {
    const list = await call<ServicesList>('services.list', { serviceKind: 'video_generation' });
    const model = list.services.find((s) => s.available)!.modelAlias;
    const form = t2vForm(model, 'A windmill turning slowly over a tulip field', 3);
    const draft = await call<{ id: string; idempotencyKey: string }>('drafts.create', { form });
    const intent = () => studio.core.services.journal.jobs.getIntent(draft.idempotencyKey);

    // the service creates the job, then the connection drops: the outcome is unknown …
    await call('simulator.setScenario', { name: 'dropped_connection' });
    const submitted = call('video.submit', { draftId: draft.id }).catch((e: unknown) => e);
    await waitFor(() => intent()?.state === 'unknown');
    // … and the replay under the same key is answered 409 idempotency_conflict: not a refusal
    await call('simulator.setScenario', { name: 'idempotency_conflict' });
    await waitFor(() => /409 idempotency_conflict/.test(intent()?.errorMessage ?? ''));
    expect(intent()!.state).toBe('unknown');
    expect(intent()!.errorMessage).toMatch(/sent again under the same key/);
    // the service answers again: the next replay gets the job the first send made
    await call('simulator.setScenario', { name: null });
    const outcome = await submitted;
    expect(outcome).not.toBeInstanceOf(Error);
    await waitFor(() => intent()?.state === 'accepted');

    // the studio never reopened the draft under a new key
    const after = await call<{ idempotencyKey: string; submittedAt: number | null }>('drafts.get', {
      draftId: draft.id,
    });
    expect(after.idempotencyKey).toBe(draft.idempotencyKey);
    expect(after.submittedAt).not.toBeNull();
    const created = new Map((await studio.serverKeys()).map((d) => [d.idempotencyKey, d.created]));
    expect(created.get(draft.idempotencyKey)).toBe(1);
    expect([...created.keys()].filter((k) => k.startsWith(`draft-${draft.id}`))).toEqual([
      draft.idempotencyKey,
    ]);
  });
});
