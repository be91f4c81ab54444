import { execFileSync } from 'node:child_process';
import { createReadStream, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAppCore, type AppCore } from '../../../src/main/core/app/app-core.js';
import { defaultSimulatorLauncher } from '../../../src/main/core/app/default-simulator-launcher.js';
import type { DraftForm, DraftMedia, ServicesList } from '../../../src/shared/bridge/contract.js';
import { locateMediaTools } from '../../../src/shared/node/ffmpeg-locator.js';
import { BROWSER_HOST } from '../../../src/main/core/library/studio-host.js';
import { MemorySecretStore } from '../../unit/secrets/fakes.js';
import { tempFolder } from '../../support/worlds/temp-folder.js';

// A reference trimmed in Create (issue 31): only the kept range is uploaded, it passes the H3
// rules, and a resubmit of the same draft uploads nothing new and creates no second job.

const FPS = 24;
let core: AppCore;
let dataDir: string;
let longMp4: string;
let longWav: string;

async function call<T = unknown>(method: string, params: unknown): Promise<T> {
  const response = await core.dispatcher.dispatch(method, params);
  if (!response.ok) throw Object.assign(new Error(response.error.message), response.error);
  return response.result as T;
}

function stage(file: string): Promise<DraftMedia> {
  return core.studio.staged.stageStream(createReadStream(file), path.basename(file)) as Promise<DraftMedia>;
}

function probe(file: string, stream: 'v:0' | 'a:0'): { duration: number; frames?: number } {
  const { ffprobe } = locateMediaTools();
  const out = JSON.parse(
    execFileSync(ffprobe, [
      '-v',
      'error',
      '-select_streams',
      stream,
      '-count_frames',
      '-show_entries',
      'stream=duration,nb_read_frames',
      '-of',
      'json',
      file,
    ]).toString(),
  ) as { streams: { duration: string; nb_read_frames?: string }[] };
  const s = out.streams[0]!;
  return { duration: Number(s.duration), frames: s.nb_read_frames ? Number(s.nb_read_frames) : undefined };
}

/** The simulator's stored uploads (one file per uploaded asset). */
const uploadsDir = () => path.join(dataDir, 'simulator', 'uploads');
const uploadedFiles = () => readdirSync(uploadsDir()).sort();
const uploadOf = (assetId: string) => {
  const name = uploadedFiles().find((f) => f.startsWith(assetId));
  if (!name) throw new Error(`asset ${assetId} was not uploaded`);
  return path.join(uploadsDir(), name);
};

async function referenceForm(references: DraftMedia[]): Promise<DraftForm> {
  const list = await call<ServicesList>('services.list', { serviceKind: 'video_generation' });
  const service = list.services.find((s) => s.available)!;
  return {
    profileId: 'simulator',
    model: service.modelAlias,
    generationMode: 'universal_reference_video',
    prompt: 'Video 1 in the rhythm of Audio 1',
    orientation: 'landscape',
    seconds: 5,
    resolutionTier: '768p',
    seed: 3,
    references,
  };
}

beforeAll(async () => {
  dataDir = tempFolder('fw-ref-trim-');
  const work = tempFolder('fw-ref-trim-files-');
  core = await createAppCore({
    dataDir,
    host: BROWSER_HOST,
    launchSimulator: defaultSimulatorLauncher(dataDir, 0.02),
    secretStore: new MemorySecretStore(),
    resumeOnStart: false,
  });
  const { ffmpeg } = locateMediaTools();
  longMp4 = path.join(work, 'long-take.mp4');
  longWav = path.join(work, 'long-voice.wav');
  execFileSync(ffmpeg, [
    ...['-v', 'error', '-f', 'lavfi', '-i', `testsrc=s=320x240:r=${FPS}:d=20`],
    ...['-f', 'lavfi', '-i', 'sine=frequency=220:duration=20', '-shortest'],
    ...['-pix_fmt', 'yuv420p', '-c:v', 'libx264', '-preset', 'ultrafast', '-c:a', 'aac', longMp4],
  ]);
  execFileSync(ffmpeg, [
    '-v',
    'error',
    '-f',
    'lavfi',
    '-i',
    'sine=frequency=440:duration=20',
    '-ar',
    '48000',
    longWav,
  ]);
});

afterAll(async () => {
  await core?.close();
});

describe('a reference trimmed in Create', () => {
  it('a range that still breaks the rules is refused with the rule engine own message', async () => {
    const audio = await stage(longWav);
    const video = await stage(longMp4);
    const draft = await call<{ id: string }>('drafts.create', {
      form: await referenceForm([video, { ...audio, trim: { startSeconds: 1, endSeconds: 18 } }]),
    });
    const error = await call('video.submit', { draftId: draft.id }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'h3.draft_invalid' });
    expect((error as { details: unknown[] }).details).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          code: 'reference.audio_too_long',
          message:
            'Audio 1 "long-voice.wav" lasts 17 s; each audio reference may last at most 15 s. Trim it.',
        }),
      ]),
    );
    // nothing was uploaded for it
    expect(uploadedFiles()).toEqual([]);
  });

  it('uploads only the kept ranges, passes the H3 rules, and a resubmit makes no new upload or job', async () => {
    const video = await stage(longMp4);
    const audio = await stage(longWav);
    expect(audio.durationSeconds).toBeCloseTo(20, 3);
    const videoTrim = { startSeconds: 2.5, endSeconds: 8 };
    const audioTrim = { startSeconds: 3.25, endSeconds: 13.25 };
    const form = await referenceForm([
      { ...video, trim: videoTrim },
      { ...audio, trim: audioTrim },
    ]);
    const draft = await call<{ id: string; idempotencyKey: string; form: DraftForm }>('drafts.create', {
      form,
    });
    // the draft remembers the ranges
    const saved = await call<{ form: DraftForm }>('drafts.get', { draftId: draft.id });
    expect(saved.form.references.map((r) => r.trim)).toEqual([videoTrim, audioTrim]);

    const before = uploadedFiles();
    const first = await call<{ jobRowId: number | null; idempotencyKey: string }>('video.submit', {
      draftId: draft.id,
    });
    expect(first.jobRowId).not.toBeNull();
    const added = uploadedFiles().filter((f) => !before.includes(f));
    expect(added).toHaveLength(2);

    const intent = core.services.journal.jobs.getIntent(draft.idempotencyKey)!;
    const body = JSON.parse(intent.canonicalBodyJson) as {
      referenceInputs: { role: string; assetId: string }[];
    };
    const byRole = Object.fromEntries(body.referenceInputs.map((r) => [r.role, uploadOf(r.assetId)]));

    // the video: the kept 5.5 s (132 frames at 24 fps), within one frame, smaller than the source
    const sentVideo = byRole.reference_video!;
    const v = probe(sentVideo, 'v:0');
    expect(Math.abs(v.duration - 5.5)).toBeLessThanOrEqual(1 / FPS);
    expect(Math.abs((v.frames ?? 0) - 5.5 * FPS)).toBeLessThanOrEqual(1);
    expect(statSync(sentVideo).size).toBeLessThan(statSync(longMp4).size);
    // the audio: exactly the kept 10 s, smaller than the source
    const sentAudio = byRole.reference_audio!;
    expect(probe(sentAudio, 'a:0').duration).toBeCloseTo(10, 3);
    expect(statSync(sentAudio).size).toBeLessThan(statSync(longWav).size);
    // the originals never change
    expect(statSync(core.studio.staged.pathOf(audio.id)).size).toBe(audio.byteSize);

    // a resubmit of the same draft: same job, nothing uploaded, the key created once
    const again = await call<{ jobRowId: number | null }>('video.submit', { draftId: draft.id });
    expect(again.jobRowId).toBe(first.jobRowId);
    expect(uploadedFiles()).toEqual([...before, ...added].sort());
    const running = await core.services.simulator.get();
    const res = await fetch(`${running.baseUrl}/_simulator/idempotency`, {
      headers: { authorization: `Bearer ${running.token}` },
    });
    const seen = (await res.json()) as { data: { idempotencyKey: string; created: number }[] };
    expect(seen.data.filter((d) => d.idempotencyKey === draft.idempotencyKey)).toEqual([
      expect.objectContaining({ created: 1 }),
    ]);

    // the same draft's inputs resolved again (a replay, a restart): the same cut bytes and body
    const resolved = await core.studio.staged.resolve(audio.id, audioTrim);
    expect(resolved.sha256).toBe((await core.studio.staged.resolve(audio.id, audioTrim)).sha256);
    // "Copy to Create" of it keeps the ranges and reuses the very same assets: nothing new is sent
    const copy = await call<{ id: string; form: DraftForm }>('drafts.create', {
      fromJobRowId: first.jobRowId,
    });
    expect(copy.form.references.map((r) => r.trim)).toEqual([videoTrim, audioTrim]);
    const copied = await call<{ jobRowId: number | null }>('video.submit', { draftId: copy.id });
    expect(copied.jobRowId).not.toBe(first.jobRowId);
    expect(uploadedFiles()).toEqual([...before, ...added].sort());
  });
});
