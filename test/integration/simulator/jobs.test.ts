import { writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MediaJob } from '../../../src/shared/api/media-jobs.js';
import type { RunningSimulator } from '../../../src/simulator/index.js';
import {
  expectError,
  ffprobe,
  H3_BASE,
  sha256,
  startTestSimulator,
  type ProbeJson,
  type TestClient,
} from './client.js';
import { makeMp4, makePng, makeWav, removeScratch, scratchFile } from './fixtures.js';

let sim: RunningSimulator;
let client: TestClient;
let other: TestClient;

beforeAll(async () => {
  ({ sim, client } = await startTestSimulator({ tokens: ['other-identity'], timeScale: 0.1 }));
  other = client.as('other-identity');
});
afterAll(async () => {
  await sim.close();
  removeScratch();
});

async function saveAndProbe(bytes: Buffer, name: string): Promise<ProbeJson> {
  const file = scratchFile(name);
  writeFileSync(file, bytes);
  return ffprobe(file);
}

describe('video job lifecycle', () => {
  it('202 queued with Location and Retry-After, then queued → running → succeeded with a real H3 video', async () => {
    const res = await client.post(
      '/media/generations',
      { ...H3_BASE, seed: 42 },
      { 'X-Client-Request-Id': 'corr-1' },
    );
    expect(res.status).toBe(202);
    const job = MediaJob.parse(res.data);
    expect(job).toMatchObject({
      status: 'queued',
      stage: 'queued',
      object: 'media.generation.job',
      model: 'h3-video',
      serviceKind: 'video_generation',
    });
    expect(job.id).toBe(job.jobId);
    expect(job.clientRequestId).toBe('corr-1');
    expect(job.requestId).toMatch(/^req_/);
    expect(job.requestId).not.toBe('corr-1');
    expect(job.jobUrl).toBe(`${client.baseUrl}/jobs/${job.jobId}?model=h3-video`);
    expect(res.headers.get('location')).toBe(job.jobUrl);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(0);
    expect(job.refreshAfterSeconds).toBeGreaterThanOrEqual(0);
    expect(job.retryAfterSeconds).toBeGreaterThanOrEqual(0);
    expect(job.outputs).toBeUndefined();
    expect(job.effectiveMediaSpec).toMatchObject({
      width: 1376,
      height: 768,
      fps: 24,
      seconds: 5,
      resolutionTier: '768p',
      orientation: 'landscape',
      generationMode: 't2v',
    });

    const { job: done, seen } = await client.waitJob(job.jobUrl);
    // the creation's answer is the first state seen: a first poll later than the 200 ms queue (a
    // loaded machine) finds the job running already, which is the same lifecycle
    expect([job.status, ...seen].filter((status, i, all) => status !== all[i - 1])).toEqual([
      'queued',
      'running',
      'succeeded',
    ]);
    expect(done.stage).toBe('succeeded');
    expect(done.startedAt).toBeDefined();
    expect(done.completedAt).toBeDefined();
    expect(done.runningSeconds).toBeGreaterThan(0);
    expect(done.elapsedSeconds).toBeGreaterThanOrEqual(done.runningSeconds!);
    expect(done.outputs).toHaveLength(1);
    expect(done.assets).toEqual(done.outputs);
    const output = done.outputs![0]!;
    expect(output).toMatchObject({ kind: 'video', mimeType: 'video/mp4' });
    expect(output.contentUrl).toBe(`${client.baseUrl}/assets/${output.assetId}/content?model=h3-video`);
    const download = await client.download(output.contentUrl);
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toBe('video/mp4');
    expect(download.bytes.length).toBe(output.byteSize);
    expect(sha256(download.bytes)).toBe(output.sha256);

    const probe = await saveAndProbe(download.bytes, 'landscape.mp4');
    const v = probe.streams.find((s) => s.codec_type === 'video');
    const a = probe.streams.find((s) => s.codec_type === 'audio');
    expect(v).toMatchObject({
      codec_name: 'h264',
      width: 1376,
      height: 768,
      r_frame_rate: '24/1',
      nb_frames: '120',
    });
    expect(a).toMatchObject({ codec_name: 'aac', channels: 2 });
    expect(Number(probe.format.duration)).toBeCloseTo(5, 1);
  });

  it('portrait is 768x1376; frames are seconds*24 and never more than 362', async () => {
    const res = await client.post('/media/generations', {
      ...H3_BASE,
      orientation: 'portrait',
      seconds: 6,
      seed: 3,
    });
    const { job } = await client.waitJob(res.data.jobUrl);
    expect(job.effectiveMediaSpec).toMatchObject({
      width: 768,
      height: 1376,
      fps: 24,
      seconds: 6,
      frameCount: 144,
    });
    const bytes = (await client.download(job.outputs![0]!.contentUrl)).bytes;
    const v = (await saveAndProbe(bytes, 'portrait.mp4')).streams.find((s) => s.codec_type === 'video');
    expect(v).toMatchObject({ width: 768, height: 1376, nb_frames: '144' });
    const longest = await client.post(
      '/media/generations',
      { ...H3_BASE, seconds: 15 },
      { 'X-Simulator-Scenario': 'job_failed' },
    );
    expect(longest.data.effectiveMediaSpec.frameCount).toBe(360);
    expect(longest.data.effectiveMediaSpec.frameCount).toBeLessThanOrEqual(362);
  });

  it('is deterministic for the same request and seed (same bytes), different for another seed', async () => {
    const a = await client.post(
      '/media/generations',
      { ...H3_BASE, prompt: 'Determinism check', seed: 1234 },
      { 'Idempotency-Key': 'det-a' },
    );
    const b = await client.post(
      '/media/generations',
      { ...H3_BASE, prompt: 'Determinism check', seed: 1234 },
      { 'Idempotency-Key': 'det-b' },
    );
    const c = await client.post('/media/generations', {
      ...H3_BASE,
      prompt: 'Determinism check',
      seed: 1235,
    });
    expect(a.data.jobId).not.toBe(b.data.jobId);
    const [ja, jb, jc] = await Promise.all([a, b, c].map((r) => client.waitJob(r.data.jobUrl)));
    expect(ja!.job.outputs![0]!.sha256).toBe(jb!.job.outputs![0]!.sha256);
    expect(ja!.job.outputs![0]!.assetId).not.toBe(jb!.job.outputs![0]!.assetId);
    expect(jc!.job.outputs![0]!.sha256).not.toBe(ja!.job.outputs![0]!.sha256);
    expect(ja!.job.effectiveMediaSpec!.seed).toBe(1234);
  });

  it('composites reference images and mixes reference audio (universal reference)', async () => {
    const image = await client.uploadId('h3-video', makePng(64, 64, [250, 250, 0]));
    const clip = await client.uploadId('h3-video', makeMp4(1), { field: 'video' });
    const voice = await client.uploadId('h3-video', makeWav(3, 660), { field: 'audio' });
    const res = await client.post('/media/generations', {
      ...H3_BASE,
      generationMode: 'universal_reference_video',
      seed: 9,
      referenceInputs: [
        { role: 'reference_image', assetId: image },
        { role: 'reference_video', assetId: clip, mediaType: 'video' },
        { role: 'reference_audio', assetId: voice },
      ],
    });
    expect(res.status).toBe(202);
    const { job } = await client.waitJob(res.data.jobUrl);
    expect(job.status).toBe('succeeded');
    const plain = await client.waitJob(
      (await client.post('/media/generations', { ...H3_BASE, generationMode: 't2v', seed: 9 })).data.jobUrl,
    );
    expect(job.outputs![0]!.sha256).not.toBe(plain.job.outputs![0]!.sha256);
    const probe = await saveAndProbe((await client.download(job.outputs![0]!.contentUrl)).bytes, 'refs.mp4');
    expect(probe.streams.find((s) => s.codec_type === 'audio')?.channels).toBe(2);
  });

  it('i2v and first/last frame jobs render with their frames', async () => {
    const first = await client.uploadId('h3-video', makePng(80, 45, [0, 200, 0]));
    const last = await client.uploadId('h3-video', makePng(80, 45, [0, 0, 200]));
    const res = await client.post('/media/generations', {
      ...H3_BASE,
      generationMode: 'first_last_frame_video',
      input_image_asset_id: first,
      end_image_asset_id: last,
    });
    const { job } = await client.waitJob(res.data.jobUrl);
    expect(job.status).toBe('succeeded');
    expect(job.effectiveMediaSpec!.generationMode).toBe('first_last_frame_video');
  });
});

describe('visibility', () => {
  it('jobs and results are visible only to the identity and model that made them (404, never revealing which)', async () => {
    const res = await client.post('/media/generations', { ...H3_BASE, seed: 5 });
    const { job } = await client.waitJob(res.data.jobUrl);
    const foreignJob = await other.get(job.jobUrl);
    const wrongScope = await client.get(`/jobs/${job.jobId}?model=lumen-image`);
    const unknown = await client.get(`/jobs/job_doesnotexist?model=h3-video`);
    for (const r of [foreignJob, wrongScope, unknown]) expectError(r, 404, 'job_not_found');
    expect(foreignJob.data.message).toBe(unknown.data.message);
    expectError(await client.get(`/jobs/${job.jobId}`), 400, 'invalid_request');
    const content = job.outputs![0]!.contentUrl;
    expect((await other.download(content)).status).toBe(404);
    expect((await client.download(content.replace('model=h3-video', 'model=lumen-image'))).status).toBe(404);
    expect((await client.download(content)).status).toBe(200);
  });
});

describe('image and audio jobs', () => {
  it('image generation renders PNGs of the published canvas; imageCount bounds', async () => {
    const res = await client.post('/images/generations', {
      model: 'lumen-image',
      prompt: 'A red kite',
      imageCount: 2,
      orientation: 'landscape',
      seed: 4,
    });
    expect(res.status).toBe(202);
    expect(res.headers.get('location')).toBe(res.data.jobUrl);
    const { job } = await client.waitJob(res.data.jobUrl);
    expect(job.serviceKind).toBe('image_generation');
    expect(job.outputs).toHaveLength(2);
    const png = await client.download(job.outputs![0]!.contentUrl);
    expect(png.headers.get('content-type')).toBe('image/png');
    expect(png.bytes.subarray(1, 4).toString('ascii')).toBe('PNG');
    expect(png.bytes.readUInt32BE(16)).toBe(1344);
    expect(png.bytes.readUInt32BE(20)).toBe(768);
    expect(sha256(png.bytes)).toBe(job.outputs![0]!.sha256);
    expect(
      (await client.post('/images/generations', { model: 'lumen-image', prompt: 'x', imageCount: 4 })).status,
    ).toBe(202);
    expectError(
      await client.post('/images/generations', { model: 'lumen-image', prompt: 'x', imageCount: 5 }),
      400,
      'invalid_imageCount',
    );
    expectError(
      await client.post('/images/generations', { model: 'lumen-image', prompt: 'x', imageCount: 0 }),
      400,
      'invalid_request',
    );
    expectError(
      await client.post('/images/generations', { model: 'lumen-image', prompt: 'x'.repeat(2001) }),
      400,
      'invalid_prompt_length',
    );
    expectError(
      await client.post('/images/generations', { model: 'lumen-image', prompt: 'x', generationMode: 'i2i' }),
      400,
      'invalid_input_composition',
    );
    const input = await client.uploadId('lumen-image', makePng(30, 30));
    const i2i = await client.post('/images/generations', {
      model: 'lumen-image',
      prompt: 'x',
      generationMode: 'i2i',
      input_image_asset_id: input,
    });
    expect(i2i.status).toBe(202);
    expectError(
      await client.post('/images/generations', { model: 'lumen-image-xl', prompt: 'x' }),
      409,
      'service_not_available',
    );
  });

  it('speech: text <= 600, custom_voice needs a published speaker, voice_design needs instruct <= 160', async () => {
    const ok = await client.post('/audio/generations', {
      model: 'cadence-speech',
      text: 'Hello from the simulator.',
      voiceMode: 'custom_voice',
      speaker: 'amber',
    });
    expect(ok.status).toBe(202);
    const { job } = await client.waitJob(ok.data.jobUrl);
    expect(job.status).toBe('succeeded');
    const wav = await client.download(job.outputs![0]!.contentUrl);
    expect(wav.headers.get('content-type')).toBe('audio/wav');
    const probe = await saveAndProbe(wav.bytes, 'speech.wav');
    expect(Number(probe.format.duration)).toBeGreaterThan(0.5);
    expect(Number(probe.format.duration)).toBeLessThan(10);
    expect(
      (await client.post('/audio/generations', { model: 'cadence-speech', text: 'a'.repeat(600) })).status,
    ).toBe(202);
    expectError(
      await client.post('/audio/generations', { model: 'cadence-speech', text: 'a'.repeat(601) }),
      400,
      'invalid_text_length',
    );
    expectError(
      await client.post('/audio/generations', {
        model: 'cadence-speech',
        text: 'hi',
        voiceMode: 'custom_voice',
      }),
      400,
      'missing_field',
    );
    expectError(
      await client.post('/audio/generations', {
        model: 'cadence-speech',
        text: 'hi',
        voiceMode: 'custom_voice',
        speaker: 'nobody',
      }),
      400,
      'unknown_speaker',
    );
    expect(
      (
        await client.post('/audio/generations', {
          model: 'cadence-speech',
          text: 'hi',
          voiceMode: 'voice_design',
          instruct: 'b'.repeat(160),
        })
      ).status,
    ).toBe(202);
    expectError(
      await client.post('/audio/generations', {
        model: 'cadence-speech',
        text: 'hi',
        voiceMode: 'voice_design',
        instruct: 'b'.repeat(161),
      }),
      400,
      'invalid_instruct_length',
    );
    expectError(
      await client.post('/audio/generations', {
        model: 'cadence-speech',
        text: 'hi',
        voiceMode: 'voice_design',
      }),
      400,
      'missing_field',
    );
    expectError(
      await client.post('/audio/generations', {
        model: 'cadence-speech',
        text: 'hi',
        input_video_asset_id: 'asset_x',
      }),
      400,
      'field_not_supported',
    );
  });

  it('music lasts the requested seconds; Foley takes an uploaded video', async () => {
    const music = await client.post('/audio/generations', {
      model: 'cadence-music',
      prompt: 'calm piano',
      seconds: 5,
      seed: 2,
    });
    const { job } = await client.waitJob(music.data.jobUrl);
    const probe = await saveAndProbe((await client.download(job.outputs![0]!.contentUrl)).bytes, 'music.wav');
    expect(Number(probe.format.duration)).toBeCloseTo(5, 1);
    expectError(
      await client.post('/audio/generations', { model: 'cadence-music', prompt: 'x', seconds: 31 }),
      400,
      'invalid_seconds',
    );
    expectError(
      await client.post('/audio/generations', { model: 'cadence-foley', prompt: 'steps' }),
      400,
      'missing_field',
    );
    const clip = await client.uploadId('cadence-foley', makeMp4(2), { field: 'video' });
    const foley = await client.post('/audio/generations', {
      model: 'cadence-foley',
      input_video_asset_id: clip,
      prompt: 'footsteps',
    });
    const foleyJob = await client.waitJob(foley.data.jobUrl);
    const foleyProbe = await saveAndProbe(
      (await client.download(foleyJob.job.outputs![0]!.contentUrl)).bytes,
      'foley.wav',
    );
    expect(Number(foleyProbe.format.duration)).toBeCloseTo(2, 0);
  });
});
