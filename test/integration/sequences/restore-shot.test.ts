import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SequenceView, ServicesList } from '../../../src/shared/bridge/contract.js';
import { openStudioCore, t2vForm, type StudioCore } from '../../support/studio-core.js';
import { until } from '../../support/until.js';

/**
 * Undoing a shot's removal (issue 40) over a real core and its embedded simulator: the removed
 * shot comes back at its place with its verified result and its trim, and nothing is generated again.
 */

let studio: StudioCore;
let model: string;

const get = (sequenceId: string) => studio.call<SequenceView>('sequences.get', { sequenceId });

beforeAll(async () => {
  studio = await openStudioCore('fw-restore-shot-');
  const list = await studio.call<ServicesList>('services.list', { serviceKind: 'video_generation' });
  model = list.services.find((s) => s.available)!.modelAlias;
});

afterAll(async () => {
  await studio?.close();
});

describe('restoring a removed shot', () => {
  it('puts the same shot back, trimmed as it was, with nothing generated again', async () => {
    const { sequenceId } = await studio.call<SequenceView>('sequences.create', { name: 'Undo' });
    await studio.call('sequences.addShot', { sequenceId, form: t2vForm(model, 'Gulls over the quay', 21) });
    await studio.call('sequences.addShot', { sequenceId, form: t2vForm(model, 'A ferry docks', 22) });
    await studio.call('sequences.addShot', { sequenceId, form: t2vForm(model, 'Fog rolls in', 23) });
    await studio.call('sequences.generate', { sequenceId });
    let view = await until(
      async () => {
        const v = await get(sequenceId);
        return v.shots.every((s) => s.mediaUrl !== null) ? v : undefined;
      },
      { ms: 120_000, what: 'every shot’s result' },
    );
    const middle = view.shots[1]!;
    view = await studio.call('sequences.trimShot', {
      sequenceId,
      shotId: middle.shotId,
      range: { inSeconds: 0.5, outSeconds: 4 },
    });
    const before = view;
    const jobsBefore = (await studio.call<{ items: unknown[] }>('library.list', {})).items.length;

    view = await studio.call('sequences.removeShot', { sequenceId, shotId: middle.shotId });
    expect(view.shots.map((s) => s.shotId)).toEqual([before.shots[0]!.shotId, before.shots[2]!.shotId]);

    view = await studio.call('sequences.restoreShot', { sequenceId, shotId: middle.shotId });
    expect(view.shots.map((s) => [s.shotId, s.label, s.jobId, s.sha256])).toEqual(
      before.shots.map((s) => [s.shotId, s.label, s.jobId, s.sha256]),
    );
    expect(view.shots[1]!.trim).toEqual(before.shots[1]!.trim);
    expect(view.totalSeconds).toBe(before.totalSeconds);
    expect((await studio.call<{ items: unknown[] }>('library.list', {})).items).toHaveLength(jobsBefore);

    // put back once only: a clear refusal, nothing changes
    await expect(
      studio.call('sequences.restoreShot', { sequenceId, shotId: middle.shotId }),
    ).rejects.toMatchObject({
      code: 'sequence.shot_not_found',
    });
    expect((await get(sequenceId)).shots).toHaveLength(3);
  });
});
