import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStudioRig, type Page, type StudioRig } from './rig.js';
import { PLATFORM_T2V_FORM } from '../../support/worlds/platform-world.js';

/**
 * Trim and delivery (issue 31) on the platform deployment (`serve --platform`): the same features
 * in the person's library — a shot trimmed, refused past its end, assembled to its kept length,
 * delivered 9:16 (served to that person only), and continued from its out point.
 */

let rig: StudioRig;

beforeAll(async () => {
  rig = await startStudioRig();
});
afterAll(async () => {
  await rig?.close();
});

interface Shot {
  shotId: string;
  mediaUrl: string | null;
  frameRate: number | null;
  frameCount: number | null;
  trim: { inFrame: number; outFrame: number; seconds: number } | null;
}
interface Sequence {
  sequenceId: string;
  shots: Shot[];
  totalSeconds: number;
  assembly: { state: string; durationSeconds: number | null; errorMessage: string | null } | null;
}

interface Delivery {
  deliveryId: string;
  state: string;
  width: number;
  height: number;
  loudnessTarget: number;
  durationSeconds: number | null;
  byteSize: number | null;
  mediaUrl: string | null;
  errorMessage: string | null;
}

async function until(page: Page, sequenceId: string, done: (s: Sequence) => boolean): Promise<Sequence> {
  const end = Date.now() + 60_000;
  for (;;) {
    const view = await page.call<Sequence>('sequences.get', { sequenceId });
    if (done(view)) return view;
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe('trim on the platform', () => {
  it('trims a shot in the person’s library, assembles its kept range and continues from its out point', async () => {
    const member = await rig.open('member');
    let view = await member.call<Sequence>('sequences.create', { name: 'Lighthouse' });
    const sequenceId = view.sequenceId;
    view = await member.call<Sequence>('sequences.addShot', { sequenceId, form: PLATFORM_T2V_FORM });
    await member.call('sequences.generate', { sequenceId });
    view = await until(member, sequenceId, (s) => s.shots.every((shot) => shot.mediaUrl !== null));
    const shot = view.shots[0]!;
    expect(shot).toMatchObject({ frameRate: 24, frameCount: 120, trim: null });

    await expect(
      member.call('sequences.trimShot', {
        sequenceId,
        shotId: shot.shotId,
        range: { inSeconds: 1, outSeconds: 7 },
      }),
    ).rejects.toThrow(/sequence\.invalid_trim.*past the end of Shot 1/);
    view = await member.call<Sequence>('sequences.trimShot', {
      sequenceId,
      shotId: shot.shotId,
      range: { inSeconds: 1, outSeconds: 3.5 },
    });
    expect(view.shots[0]!.trim).toMatchObject({ inFrame: 24, outFrame: 84, seconds: 2.5 });
    expect(view.totalSeconds).toBe(2.5);

    await member.call('sequences.assemble', { sequenceId, crossfadeSeconds: 0 });
    view = await until(member, sequenceId, (s) => s.assembly !== null && s.assembly.state !== 'assembling');
    expect(view.assembly, view.assembly?.errorMessage ?? '').toMatchObject({
      state: 'ready',
      durationSeconds: 2.5,
    });

    // delivered 9:16 into the person's library, the trimmed length, served to them only
    const started = await member.call<{ deliveryId: string }>('sequences.deliver', {
      sequenceId,
      preset: '9x16',
      fit: 'crop',
    });
    let delivery: Delivery | undefined;
    const end = Date.now() + 90_000;
    while (!delivery) {
      const list = await member.call<Delivery[]>('sequences.deliveries.list', { sequenceId });
      const found = list.find((d) => d.deliveryId === started.deliveryId)!;
      if (found.state === 'failed') throw new Error(found.errorMessage ?? 'delivery failed');
      if (found.state === 'ready') delivery = found;
      else if (Date.now() > end) throw new Error('timed out');
      else await new Promise((r) => setTimeout(r, 200));
    }
    expect(delivery).toMatchObject({ width: 1080, height: 1920, loudnessTarget: -14 });
    expect(delivery.durationSeconds).toBeCloseTo(2.5, 1);
    const film = await member.get(delivery.mediaUrl!);
    expect(film.status).toBe(200);
    expect((await film.arrayBuffer()).byteLength).toBe(delivery.byteSize);
    const other = await rig.open('manager');
    expect((await other.get(delivery.mediaUrl!)).status).toBe(404);

    view = await member.call<Sequence>('sequences.continueShot', {
      sequenceId,
      fromShotId: shot.shotId,
      generationMode: 'i2v',
    });
    expect(view.shots).toHaveLength(2);
  });
});
