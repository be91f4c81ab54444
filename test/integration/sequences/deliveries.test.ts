import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AssemblyView, DeliveryView, SequenceView } from '../../../src/shared/bridge/contract.js';
import { openJournal, type Journal } from '../../../src/main/core/journal/open-journal.js';
import type { Logger } from '../../../src/main/core/logging/logger.js';
import { measureLoudness, mixSoundtrack } from '../../../src/main/core/media-tools/mix-soundtrack.js';
import { toSrt } from '../../../src/main/core/media-tools/captions.js';
import { sha256OfFile } from '../../../src/main/core/media-tools/probe-media.js';
import { probeDelivery } from '../../../src/main/core/media-tools/delivery-render.js';
import {
  DeliveriesFeature,
  deliveriesFolderOf,
} from '../../../src/main/core/sequences/deliveries-feature.js';
import type { DeliveryMixPlan, DeliverySoundtrack } from '../../../src/main/core/sequences/delivery-ports.js';
import { locateMediaTools } from '../../../src/shared/node/ffmpeg-locator.js';
import { tempFolder } from '../../support/worlds/temp-folder.js';

/**
 * Deliveries over real ffmpeg/ffprobe: a synthetic assembled film (H3's landscape canvas, 24 fps,
 * with sound) delivered in each preset, padded or cropped, normalized to the web or broadcast
 * target, captions burned in, reused when nothing changed, rendered again when the preset or the
 * mix plan changed, and cancelled or crashed renders leaving nothing in the library. The sequence
 * and its assembly are fakes of the ports; the sound track is a fake `DeliverySoundtrack`.
 */

const silent = { warn: () => undefined, info: () => undefined, error: () => undefined } as unknown as Logger;
const SECONDS = 3;

let dir: string;
let libraryDir: string;
let journal: Journal;
let film: string;
let music: string;
let voice: string;
let filmSha: string;
let plan: DeliveryMixPlan | null;
let cues: { startSeconds: number; endSeconds: number; text: string }[];

function make(name: string, args: string[]): string {
  const out = path.join(dir, name);
  execFileSync(locateMediaTools().ffmpeg, ['-loglevel', 'error', '-y', ...args, out]);
  return out;
}

const soundtrack: DeliverySoundtrack = {
  mixPlanOf: () => Promise.resolve(plan),
  captionsOf: () => Promise.resolve(cues),
};

/** The feature over a fake sequence whose current assembly is `source` (the 3 s film by default). */
function feature(source = { path: '', seconds: SECONDS, sha256: '' }): DeliveriesFeature {
  const file = source.path || film;
  const seconds = source.path ? source.seconds : SECONDS;
  const assembly: AssemblyView = {
    assemblyId: '00000000-0000-4000-8000-000000000001',
    sequenceId: 's1',
    state: 'ready',
    progress: 1,
    crossfadeSeconds: 0,
    mediaUrl: '/media/assembly/x',
    fileName: 'film.mp4',
    durationSeconds: seconds,
    byteSize: 1,
    sha256: source.sha256 || filmSha,
    chapters: [{ title: 'Shot 1', startSeconds: 0, endSeconds: seconds }],
    errorMessage: null,
    createdAt: 0,
    reused: false,
  };
  return new DeliveriesFeature({
    journal,
    sequences: {
      get: () => Promise.resolve({ sequenceId: 's1', assembly, assemblyCurrent: true } as SequenceView),
      assemble: () => Promise.reject(new Error('the assembly is current')),
    },
    assembler: {
      finished: () => Promise.reject(new Error('the assembly is current')),
      filesOf: () => ({ localPath: file, sidecarPath: `${film}.json` }),
    },
    soundtrack,
    mixer: { mixSoundtrack, measureLoudness, toSrt },
    libraryDir: () => libraryDir,
    host: { kind: 'browser', mediaBase: '/media/', opensFolders: false },
    logger: silent,
    emit: () => undefined,
    changed: () => undefined,
  });
}

async function deliver(f: DeliveriesFeature, request: Partial<Parameters<DeliveriesFeature['deliver']>[0]>) {
  const started = await f.deliver({ sequenceId: 's1', preset: '16x9', ...request });
  const done = await f.finished(started.deliveryId);
  return { started, done, file: f.filesOf(done.deliveryId).localPath! };
}

/** The mean luma (0..255) of a strip of the frame at 1 s. */
function meanLuma(file: string, crop: string): number {
  const out = execFileSync(locateMediaTools().ffmpeg, [
    ...['-loglevel', 'error', '-ss', '1', '-i', file, '-frames:v', '1'],
    ...['-vf', `crop=${crop},scale=1:1:flags=area,format=gray`, '-f', 'rawvideo', '-'],
  ]);
  return out[0]!;
}

const leftovers = () =>
  readdirSync(deliveriesFolderOf(libraryDir)).filter(
    (name) => name.startsWith('.') || !/\.(mp4|json)$/.test(name),
  );

beforeAll(async () => {
  dir = tempFolder('fw-deliver-');
  libraryDir = path.join(dir, 'library');
  journal = openJournal({ path: path.join(dir, 'journal.db') });
  journal.sequences.create('s1', 'Harbour film');
  film = make('film.mp4', [
    ...['-f', 'lavfi', '-i', `testsrc2=s=1376x768:r=24:d=${SECONDS}`],
    ...['-f', 'lavfi', '-i', `sine=frequency=330:sample_rate=48000:duration=${SECONDS}`],
    ...['-af', 'volume=-20dB', '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p'],
    ...['-c:a', 'aac', '-ac', '2', '-shortest'],
  ]);
  writeFileSync(`${film}.json`, JSON.stringify({ shots: [{ position: 1, jobId: 'job_1', inSeconds: 0.5 }] }));
  music = make('music.wav', ['-f', 'lavfi', '-i', 'sine=frequency=220:sample_rate=48000:duration=2']);
  voice = make('voice.wav', ['-f', 'lavfi', '-i', 'sine=frequency=880:sample_rate=48000:duration=1']);
  filmSha = await sha256OfFile(film);
  plan = null;
  cues = [];
});

describe('deliveries', () => {
  it('each preset has its size, H.264/AAC 48 kHz stereo, no rotation, the film’s duration and −14 LUFS', async () => {
    const f = feature();
    const sizes = { '16x9': [1920, 1080], '9x16': [1080, 1920], '1x1': [1080, 1080] } as const;
    for (const preset of ['16x9', '9x16', '1x1'] as const) {
      const { done, file } = await deliver(f, { preset });
      expect(done).toMatchObject({ state: 'ready', preset, fit: 'pad', loudnessTarget: -14, reused: false });
      expect(done.mediaUrl).toMatch(/^\/media\/delivery\/[0-9a-f-]{36}\?s=/);
      const facts = await probeDelivery(file);
      expect([facts.width, facts.height]).toEqual(sizes[preset]);
      expect(facts).toMatchObject({ videoCodec: 'h264', pixelFormat: 'yuv420p', audioCodec: 'aac' });
      expect(facts).toMatchObject({ sampleRate: 48000, channels: 2, rotation: 0 });
      expect(Math.abs(facts.durationSeconds! - SECONDS)).toBeLessThanOrEqual(1 / 24 + 0.001);
      expect(Math.abs((await measureLoudness(file)).integratedLufs - -14)).toBeLessThanOrEqual(1);
      expect(Math.abs(done.measuredLufs! - -14)).toBeLessThanOrEqual(1);
      expect(await sha256OfFile(file)).toBe(done.sha256);
      const sidecar = JSON.parse(readFileSync(f.filesOf(done.deliveryId).sidecarPath!, 'utf8')) as {
        preset: { name: string; width: number; fit: string };
        assembly: { sha256: string };
        shots: unknown[];
        loudness: { targetLufs: number };
        sha256: string;
      };
      expect(sidecar).toMatchObject({
        preset: { name: preset, width: sizes[preset][0], fit: 'pad' },
        assembly: { sha256: filmSha },
        shots: [{ position: 1, jobId: 'job_1', inSeconds: 0.5 }],
        loudness: { targetLufs: -14 },
        sha256: done.sha256,
      });
    }
    expect(leftovers()).toEqual([]);
  });

  it('pads with black bars or crops to fill the frame', async () => {
    const f = feature();
    const padded = await deliver(f, { preset: '9x16', fit: 'pad' });
    const cropped = await deliver(f, { preset: '9x16', fit: 'crop' });
    expect(cropped.done.reused).toBe(false);
    // the landscape film in a portrait frame: bars above it when padded, picture when cropped
    expect(meanLuma(padded.file, '1080:200:0:0')).toBeLessThan(24);
    expect(meanLuma(cropped.file, '1080:200:0:0')).toBeGreaterThan(40);
    expect((await probeDelivery(cropped.file)).height).toBe(1920);
  });

  it('normalizes to the broadcast target and burns captions in when asked', async () => {
    const f = feature();
    cues = [{ startSeconds: 0, endSeconds: SECONDS, text: 'WWWWWWWWWWWW WWWWWWWWWWWW' }];
    const plain = await deliver(f, { preset: '1x1', loudnessTarget: -23 });
    const captioned = await deliver(f, { preset: '1x1', loudnessTarget: -23, burnCaptions: true });
    expect(captioned.done.reused).toBe(false);
    expect(Math.abs((await measureLoudness(plain.file)).integratedLufs - -23)).toBeLessThanOrEqual(1);
    const bottom = '1080:160:0:880';
    expect(Math.abs(meanLuma(captioned.file, bottom) - meanLuma(plain.file, bottom))).toBeGreaterThan(3);
    cues = [];
  });

  it('reuses an unchanged delivery, and renders again when the preset or the mix plan changes', async () => {
    const f = feature();
    const first = await deliver(f, { preset: '16x9', loudnessTarget: -16 });
    const again = await deliver(f, { preset: '16x9', loudnessTarget: -16 });
    expect(again.started).toMatchObject({ reused: true, deliveryId: first.done.deliveryId, state: 'ready' });
    const other = await deliver(f, { preset: '1x1', loudnessTarget: -16 });
    expect(other.started.reused).toBe(false);
    // the library's films: every sequence's ready deliveries, with the sequence's name
    const films = f.list();
    expect(films.map((d) => d.deliveryId)).toEqual(
      expect.arrayContaining([first.done.deliveryId, other.done.deliveryId]),
    );
    expect(films.every((d) => d.state === 'ready' && d.sequenceName === 'Harbour film')).toBe(true);
    plan = {
      music: { path: music, gainDb: -6 },
      voices: [{ path: voice, atSeconds: 1, gainDb: 0 }],
      duckDb: 12,
      planKey: 'plan-with-music',
    };
    const mixed = await deliver(f, { preset: '16x9', loudnessTarget: -16 });
    expect(mixed.started.reused).toBe(false);
    expect(mixed.done.deliveryId).not.toBe(first.done.deliveryId);
    expect(Math.abs((await measureLoudness(mixed.file)).integratedLufs - -16)).toBeLessThanOrEqual(1);
    const sidecar = JSON.parse(readFileSync(f.filesOf(mixed.done.deliveryId).sidecarPath!, 'utf8')) as {
      mix: { planKey: string; music: { file: string }; voices: { atSeconds: number }[]; duckDb: number };
    };
    expect(sidecar.mix).toMatchObject({
      planKey: 'plan-with-music',
      music: { file: 'music.wav' },
      duckDb: 12,
    });
    expect(sidecar.mix.voices).toEqual([{ file: 'voice.wav', atSeconds: 1, gainDb: 0 }]);
    plan = null;
    // a delivery whose file was changed on disk is not reused
    writeFileSync(first.file, 'tampered');
    const redone = await deliver(f, { preset: '16x9', loudnessTarget: -16 });
    expect(redone.started.reused).toBe(false);
  });

  it('a cancelled render leaves no file, and a crash-left one is cleaned at start', async () => {
    // a longer film, cancelled while its picture is being encoded into the temporary file
    const long = make('long.mp4', [
      ...['-f', 'lavfi', '-i', 'testsrc2=s=1376x768:r=24:d=20'],
      ...['-f', 'lavfi', '-i', 'sine=frequency=330:sample_rate=48000:duration=20'],
      ...['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-shortest'],
    ]);
    const f = feature({ path: long, seconds: 20, sha256: await sha256OfFile(long) });
    const started = await f.deliver({ sequenceId: 's1', preset: '16x9', loudnessTarget: -18 });
    let sawPartialFile = false;
    const done = await f.finished(started.deliveryId, (view) => {
      sawPartialFile ||= readdirSync(deliveriesFolderOf(libraryDir)).some((n) => n.endsWith('.part.mp4'));
      if (view.state === 'rendering' && sawPartialFile) f.cancel(view.deliveryId);
    });
    expect(sawPartialFile).toBe(true);
    expect(done.state).toBe('cancelled');
    expect(f.filesOf(done.deliveryId).localPath).toBeNull();
    expect(
      readdirSync(deliveriesFolderOf(libraryDir)).filter((n) => n.includes(done.deliveryId.slice(0, 8))),
    ).toEqual([]);
    expect(leftovers()).toEqual([]);
    // cancelled: not reused, the next request renders again (cancelled too: a render's finish is
    // the other tests' subject, and this one is 20 s of 1080p)
    const next = await f.deliver({ sequenceId: 's1', preset: '16x9', loudnessTarget: -18 });
    expect(next).toMatchObject({ reused: false });
    expect(next.deliveryId).not.toBe(done.deliveryId);
    expect(['queued', 'rendering']).toContain(next.state);
    f.cancel(next.deliveryId);
    expect((await f.finished(next.deliveryId)).state).toBe('cancelled');

    // a process that died mid-render left its temporary file and its row 'rendering'
    const crashed = journal.deliveries.start({
      id: '00000000-0000-4000-8000-0000000000cc',
      sequenceId: 's1',
      preset: '1x1',
      fit: 'crop',
      loudnessTarget: -14,
      burnCaptions: false,
      reuseKey: 'c'.repeat(64),
    });
    const deadPid = 2 ** 22 + 12345;
    const temp = path.join(deliveriesFolderOf(libraryDir), `.${crashed.id}.${deadPid}.part.mp4`);
    const mixing = path.join(
      deliveriesFolderOf(libraryDir),
      `..${crashed.id}.${deadPid}.part.mix.wav.x.part`,
    );
    writeFileSync(temp, 'half a file');
    writeFileSync(mixing, 'half a mix');
    await feature().cleanUpInterrupted();
    expect(existsSync(temp)).toBe(false);
    expect(existsSync(mixing)).toBe(false);
    expect(journal.deliveries.get(crashed.id)).toMatchObject({ state: 'failed' });
    expect(f.list('s1').map((d: DeliveryView) => d.state)).toContain('cancelled');

    // deleting the sequence takes its delivered files (and sidecars) out of the library
    const files = f.list('s1').flatMap((d) => Object.values(f.filesOf(d.deliveryId)));
    expect(files.filter((file) => file && existsSync(file)).length).toBeGreaterThan(0);
    await f.removeFilesOf('s1');
    expect(files.filter((file) => file && existsSync(file))).toEqual([]);
  });
});
