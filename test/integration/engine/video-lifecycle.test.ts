import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CoreParts } from '../../../src/main/core/app/core-parts.js';
import { probeMedia } from '../../../src/main/core/media-tools/probe-media.js';
import { submitVideo, type LocalVideoDraft } from '../../../src/main/core/creating/submit-video.js';
import { locateMediaTools } from '../../../src/shared/node/ffmpeg-locator.js';
import type { RunningSimulator } from '../../../src/simulator/index.js';
import { createdPerKey } from '../../support/engine-harness.js';
import { openDesktopCore } from '../../support/worlds/desktop-core.js';
import { openSimulator } from '../../support/worlds/simulator.js';
import { mediaFixtures } from '../../support/media-fixtures.js';

let sim: RunningSimulator;
let core: CoreParts;
const fx = mediaFixtures();

beforeAll(async () => {
  sim = await openSimulator();
  core = await openDesktopCore(sim);
});
afterAll(async () => {
  await core.close();
  await sim.close();
});

type Probed = NonNullable<LocalVideoDraft['firstFrame']>;
const probe = async (file: string) => (await probeMedia(file)) as Probed;

function draft(mode: string, extra: Partial<LocalVideoDraft> = {}): LocalVideoDraft {
  return {
    model: 'h3-video',
    generationMode: mode,
    prompt: `A paper boat sails across a puddle (${mode}), Image 1 sets the look`,
    orientation: 'landscape',
    seconds: 5,
    resolutionTier: '768p',
    seed: 7,
    references: [],
    ...extra,
  };
}

function ffprobe(file: string) {
  const out = execFileSync(locateMediaTools().ffprobe, [
    '-v',
    'error',
    '-print_format',
    'json',
    '-show_streams',
    file,
  ]).toString();
  return JSON.parse(out) as {
    streams: {
      codec_type: string;
      width?: number;
      height?: number;
      r_frame_rate?: string;
      nb_frames?: string;
      channels?: number;
    }[];
  };
}

async function runAndVerify(d: LocalVideoDraft, key: string) {
  const result = await submitVideo(core, {
    profileId: 'simulator',
    draft: d,
    idempotencyKey: key,
    wait: { waitSeconds: 120 },
  });
  expect(result.state).toBe('succeeded');
  const job = result.job!;
  expect(job.status).toBe('succeeded');
  expect(job.outputs.length).toBeGreaterThan(0);
  for (const output of job.outputs) {
    expect(output.downloadState).toBe('verified');
    const bytes = readFileSync(output.localPath!);
    // the file on disk is exactly what the job announced
    expect(createHash('sha256').update(bytes).digest('hex')).toBe(output.expectedSha256);
    expect(bytes.length).toBe(output.expectedByteSize);
    expect(output.localPath!.startsWith(core.libraryDir)).toBe(true);
  }
  const video = job.outputs.find((o) => o.mimeType === 'video/mp4')!;
  const streams = ffprobe(video.localPath!).streams;
  const v = streams.find((s) => s.codec_type === 'video')!;
  expect([v.width, v.height]).toEqual(d.orientation === 'portrait' ? [768, 1376] : [1376, 768]);
  expect(v.r_frame_rate).toBe('24/1');
  expect(Number(v.nb_frames)).toBeLessThanOrEqual(362);
  expect(streams.find((s) => s.codec_type === 'audio')?.channels).toBe(2);
  // the sidecar makes the folder stand on its own offline
  const folder = path.dirname(video.localPath!);
  const sidecar = JSON.parse(readFileSync(path.join(folder, 'framewright.json'), 'utf8'));
  expect(sidecar).toMatchObject({
    jobId: job.jobId,
    model: 'h3-video',
    request: { generationMode: d.generationMode },
  });
  expect((await createdPerKey(sim.baseUrl, sim.token)).get(key)).toBe(1);
  return result;
}

describe('video lifecycle against the simulator, each H3 mode', () => {
  it('t2v: create, poll, download, verify (portrait)', async () => {
    const result = await runAndVerify(draft('t2v', { orientation: 'portrait' }), 'life-t2v-1');
    expect(result.uploads).toEqual([]);
  });

  it('i2v: uploads the first frame and sends it as input_image_asset_id', async () => {
    const result = await runAndVerify(draft('i2v', { firstFrame: await probe(fx.firstPng) }), 'life-i2v-1');
    expect(result.uploads).toHaveLength(1);
    const intent = core.journal.jobs.getIntent('life-i2v-1')!;
    const body = JSON.parse(intent.canonicalBodyJson);
    expect(body.input_image_asset_id).toBe(result.uploads[0]!.assetId);
    expect(body.referenceInputs).toBeUndefined();
  });

  it('first_last_frame_video: both frames', async () => {
    const result = await runAndVerify(
      draft('first_last_frame_video', {
        firstFrame: await probe(fx.firstPng),
        lastFrame: await probe(fx.lastPng),
      }),
      'life-fl-1',
    );
    const body = JSON.parse(core.journal.jobs.getIntent('life-fl-1')!.canonicalBodyJson);
    expect(body.input_image_asset_id).toBeDefined();
    expect(body.end_image_asset_id).toBeDefined();
    expect(result.uploads).toHaveLength(2);
  });

  it('universal_reference_video: images, a video, audio and a .mov with sound sent in the audio field', async () => {
    const refs = [
      await probe(fx.refJpg),
      await probe(fx.refWebp),
      await probe(fx.refMp4),
      await probe(fx.audioWav),
      await probe(fx.movWithAudio),
    ];
    const result = await runAndVerify(
      draft('universal_reference_video', { references: refs, seconds: 6 }),
      'life-urv-1',
    );
    const body = JSON.parse(core.journal.jobs.getIntent('life-urv-1')!.canonicalBodyJson);
    expect(body.referenceInputs.map((r: { role: string }) => r.role)).toEqual([
      'reference_image',
      'reference_image',
      'reference_video',
      'reference_audio',
      'reference_audio',
    ]);
    const mov = core.journal.uploads.findReusable({
      sha256: refs[4]!.sha256,
      profileId: 'simulator',
      credentialFingerprint: await (await core.profiles.clientFor('simulator')).credentialFingerprint(),
      model: 'h3-video',
      uploadField: 'audio',
    });
    expect(mov?.assetId).toBe(body.referenceInputs[4].assetId);
    expect(result.uploads).toHaveLength(5);
  });

  it('reuses still-valid uploads of the same bytes instead of uploading again', async () => {
    const first = await probe(fx.firstPng);
    const result = await submitVideo(core, {
      profileId: 'simulator',
      draft: draft('i2v', { firstFrame: first, prompt: 'Same image, a different intent' }),
      idempotencyKey: 'life-reuse-1',
      wait: { waitSeconds: 120 },
    });
    expect(result.state).toBe('succeeded');
    expect(result.uploads[0]!.fromJournal).toBe(true);
  });

  it('the same intent twice gives the same job and no second creation', async () => {
    const d = draft('t2v', { prompt: 'Twice the same click' });
    const [a, b] = await Promise.all([
      submitVideo(core, {
        profileId: 'simulator',
        draft: d,
        idempotencyKey: 'life-double-1',
        wait: { waitSeconds: 120 },
      }),
      submitVideo(core, {
        profileId: 'simulator',
        draft: d,
        idempotencyKey: 'life-double-1',
        wait: { waitSeconds: 120 },
      }),
    ]);
    expect(a.job!.jobId).toBe(b.job!.jobId);
    expect((await createdPerKey(sim.baseUrl, sim.token)).get('life-double-1')).toBe(1);
    expect(
      readdirSync(path.dirname(a.job!.outputs[0]!.localPath!)).filter((f) => f.endsWith('.mp4')),
    ).toHaveLength(1);
  });

  it('an invalid draft is refused before anything is uploaded or sent', async () => {
    const before = (await createdPerKey(sim.baseUrl, sim.token)).size;
    const bad = draft('i2v', { prompt: '   ' });
    await expect(
      submitVideo(core, {
        profileId: 'simulator',
        draft: bad,
        idempotencyKey: 'life-bad-1',
        wait: { waitSeconds: 5 },
      }),
    ).rejects.toMatchObject({ name: 'DraftInvalidError' });
    expect(core.journal.jobs.getIntent('life-bad-1')).toBeUndefined();
    expect((await createdPerKey(sim.baseUrl, sim.token)).size).toBe(before);
  });
});
