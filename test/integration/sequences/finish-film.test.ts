/**
 * Finish a film (issue 31) over a real core and its embedded simulator, every part wired as the
 * studio wires it: two generated shots, one trimmed; a generated music bed and a spoken voice
 * line; the film delivered 16:9 and 9:16. Each delivery is measured with ffprobe/ebur128: its
 * frame, no rotation, sound, the trimmed length within one frame, the loudness target within
 * ±1 LU; its sidecar lists the trims, the mix and the preset.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { measureLoudness } from '../../../src/main/core/media-tools/mix-soundtrack.js';
import type { DeliveryView, SequenceView, ServicesList } from '../../../src/shared/bridge/contract.js';
import { locateMediaTools } from '../../../src/shared/node/ffmpeg-locator.js';
import { openStudioCore, t2vForm, type StudioCore } from '../../support/studio-core.js';
import { until } from '../../support/until.js';

let studio: StudioCore;
let model: string;

function probe(file: string) {
  const out = execFileSync(locateMediaTools().ffprobe, [
    ...['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', file],
  ]);
  return JSON.parse(out.toString()) as {
    format: { duration: string };
    streams: {
      codec_type: string;
      codec_name: string;
      width?: number;
      height?: number;
      side_data_list?: unknown[];
    }[];
  };
}

beforeAll(async () => {
  studio = await openStudioCore('fw-finish-film-');
  const list = await studio.call<ServicesList>('services.list', { serviceKind: 'video_generation' });
  model = list.services.find((s) => s.available)!.modelAlias;
});

afterAll(async () => {
  await studio?.close();
});

describe('finishing a film', () => {
  it('trims, mixes a music bed under a voice line, and delivers 16:9 and 9:16 at the web loudness', async () => {
    const { sequenceId } = await studio.call<SequenceView>('sequences.create', { name: 'Harbour film' });
    await studio.call('sequences.addShot', { sequenceId, form: t2vForm(model, 'A harbour at dusk', 21) });
    await studio.call('sequences.addShot', {
      sequenceId,
      form: t2vForm(model, 'Boats leave the harbour', 22),
    });
    await studio.call('sequences.generate', { sequenceId });
    const shots = await until(
      async () => {
        const view = await studio.call<SequenceView>('sequences.get', { sequenceId });
        if (view.shots.some((s) => s.state === 'failed')) throw new Error('a shot failed');
        return view.shots.every((s) => s.mediaUrl !== null) ? view.shots : undefined;
      },
      { ms: 120_000, what: 'both shots’ results' },
    );
    const trimmed = await studio.call<SequenceView>('sequences.trimShot', {
      sequenceId,
      shotId: shots[0]!.shotId,
      range: { inSeconds: 1, outSeconds: 3.5 },
    });
    const total = trimmed.totalSeconds!;
    expect(total).toBeCloseTo(2.5 + shots[1]!.durationSeconds!, 1);

    await studio.call('sequences.soundtrack.generateMusic', { sequenceId, prompt: 'Slow harbour strings' });
    await studio.call('sequences.soundtrack.addVoice', {
      sequenceId,
      atSeconds: 1,
      text: 'The boats come home before the fog.',
    });

    const delivered: DeliveryView[] = [];
    for (const preset of ['16x9', '9x16'] as const) {
      const started = await studio.call<DeliveryView>('sequences.deliver', {
        sequenceId,
        preset,
        ...(preset === '9x16' ? { fit: 'crop' } : {}),
      });
      delivered.push(
        await until(
          async () => {
            const list = await studio.call<DeliveryView[]>('sequences.deliveries.list', { sequenceId });
            const found = list.find((d) => d.deliveryId === started.deliveryId)!;
            if (found.state === 'failed') throw new Error(found.errorMessage ?? 'delivery failed');
            return found.state === 'ready' ? found : undefined;
          },
          { ms: 180_000, what: `the ${preset} delivery` },
        ),
      );
    }

    for (const delivery of delivered) {
      const files = studio.core.studio.deliveries.filesOf(delivery.deliveryId);
      const facts = probe(files.localPath!);
      const video = facts.streams.find((s) => s.codec_type === 'video')!;
      expect(`${video.width}x${video.height}`).toBe(delivery.preset === '16x9' ? '1920x1080' : '1080x1920');
      expect(video.codec_name).toBe('h264');
      expect(video.side_data_list ?? []).toEqual([]); // no rotation
      expect(facts.streams.some((s) => s.codec_type === 'audio' && s.codec_name === 'aac')).toBe(true);
      expect(Math.abs(Number(facts.format.duration) - total)).toBeLessThanOrEqual(1 / 24 + 0.03);
      const { integratedLufs } = await measureLoudness(files.localPath!);
      expect(Math.abs(integratedLufs - -14)).toBeLessThanOrEqual(1);

      const sidecar = JSON.parse(readFileSync(files.sidecarPath!, 'utf8')) as {
        preset: { name: string; fit: string };
        mix: { planKey: string; music: { gainDb: number } | null; voices: unknown[] } | null;
      };
      expect(sidecar.preset).toMatchObject({
        name: delivery.preset,
        fit: delivery.preset === '16x9' ? 'pad' : 'crop',
      });
      expect(sidecar.mix?.music).toMatchObject({ gainDb: -12 });
      expect(sidecar.mix?.voices).toHaveLength(1);
      // the trimmed shot is listed with its range
      expect(JSON.stringify(sidecar)).toContain('"inSeconds":1');
    }
  });
});
