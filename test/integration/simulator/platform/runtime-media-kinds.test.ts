import { writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ffprobe, sha256, type Json } from '../client.js';
import { makeMp4, makePng, makeWav, scratchFile } from '../fixtures.js';
import {
  downloadVerifiedResult,
  expectPlatformError,
  pollRuntimeJob,
  runtimeCall,
  settleRuntimeJobs,
  type PlatformApp,
  type PlatformClient,
} from './platform-client.js';
import { usePlatformWorld } from './platform-fixture.js';
import type { LoopbackStorage } from './storage-server.js';

let client: PlatformClient;
let studio: PlatformApp;
let member: Json;
let storage: LoopbackStorage;

usePlatformWorld({ simulator: { timeScale: 0.02 }, sessions: ['member'] }, (world) => {
  ({ client, studio, storage } = world);
  member = world.sessions.member;
});

const call = (method: string, suffix: string, options: Parameters<typeof runtimeCall>[4] = {}) =>
  runtimeCall(client, studio, method, suffix, { sessionId: member.sessionId, ...options });

const IMAGE = {
  model: 'lumen-image',
  serviceKind: 'image_generation',
  params: { prompt: 'A lighthouse drawn in ink' },
  mediaSpec: { generationMode: 't2i', orientation: 'landscape', imageCount: 2 },
};
const SPEECH = {
  model: 'cadence-speech',
  serviceKind: 'audio_generation',
  params: { text: 'Welcome to the studio.' },
  mediaSpec: { generationMode: 'speech', voiceMode: 'text' },
};

const waitDone = (jobId: string) => pollRuntimeJob(client, studio, member.sessionId, jobId);

/** Downloads every result, checks its type, size and sha256, and returns the probed files. */
async function downloadAll(job: Json, extension: string) {
  const probes = [];
  for (const [index, result] of (job.results as Json[]).entries()) {
    expect(result).toMatchObject({
      resultId: expect.any(String),
      resultDownloadUrl: expect.stringContaining(client.platform.runtimeBaseUrl + '/media/jobs/'),
      mimeType: expect.any(String),
      byteSize: expect.any(Number),
      sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    const bytes = await downloadVerifiedResult(studio, member.sessionId, result);
    const file = scratchFile(`${job.platformJobId}-${index}.${extension}`);
    writeFileSync(file, bytes);
    probes.push(ffprobe(file));
  }
  return probes;
}

describe('image jobs on the runtime', () => {
  it('t2i: 202 with a recovery reference, then one downloadable image per imageCount at the canvas size', async () => {
    const created = await call('POST', '/media/jobs', { json: { ...IMAGE, clientTaskId: 'img-t2i' } });
    expect(created.status, created.text).toBe(202);
    expect(created.data).toMatchObject({
      clientTaskId: 'img-t2i',
      serviceKind: 'image_generation',
      model: 'lumen-image',
      jobRecoveryRef: expect.any(String),
    });
    const done = await waitDone(created.data.platformJobId);
    expect(done.status).toBe('succeeded');
    expect(done.results).toHaveLength(2);
    expect(done.results.map((r: Json) => r.mimeType)).toEqual(['image/png', 'image/png']);
    expect(done.results[0].sha256).not.toBe(done.results[1].sha256);
    const probes = await downloadAll(done, 'png');
    for (const probe of probes) expect(probe.streams[0]).toMatchObject({ width: 1344, height: 768 });
    // the reference reads the same job without the session
    const byRef = await call('GET', `/media/jobs/${done.platformJobId}`, {
      sessionId: '',
      headers: { 'X-Platform-Job-Recovery-Ref': created.data.jobRecoveryRef },
    });
    expect(byRef.data.results).toEqual(done.results);
  });

  it('i2i reads its reference_image readUrl and takes the serviceKind from the model when omitted', async () => {
    const png = makePng(96, 64, [200, 40, 40]);
    const url = storage.put('i2i.png', png, 'image/png');
    const before = storage.hits;
    const { serviceKind: _kind, ...withoutKind } = IMAGE;
    const created = await call('POST', '/media/jobs', {
      json: {
        ...withoutKind,
        clientTaskId: 'img-i2i',
        mediaSpec: { generationMode: 'i2i', orientation: 'square' },
        inputs: [{ readUrl: url, role: 'reference_image', sha256: sha256(png), byteSize: png.length }],
      },
    });
    expect(created.status, created.text).toBe(202);
    expect(storage.hits).toBe(before + 1);
    const done = await waitDone(created.data.platformJobId);
    expect(done).toMatchObject({ status: 'succeeded', serviceKind: 'image_generation' });
    const [probe] = await downloadAll(done, 'png');
    expect(probe!.streams[0]).toMatchObject({ width: 1024, height: 1024 });
  });
});

describe('audio jobs on the runtime', () => {
  it('speech: a downloadable audio result', async () => {
    const created = await call('POST', '/media/jobs', { json: { ...SPEECH, clientTaskId: 'speech-1' } });
    expect(created.status, created.text).toBe(202);
    const done = await waitDone(created.data.platformJobId);
    expect(done.status).toBe('succeeded');
    expect(done.results).toHaveLength(1);
    expect(done.results[0].mimeType).toMatch(/^audio\//);
    const [probe] = await downloadAll(done, 'audio');
    expect(probe!.streams.map((s) => s.codec_type)).toEqual(['audio']);
  });

  it('Foley: scores the video read from its reference_video readUrl for the seconds asked', async () => {
    const url = storage.put('clip.mp4', makeMp4(2), 'video/mp4');
    const created = await call('POST', '/media/jobs', {
      json: {
        model: 'cadence-foley',
        clientTaskId: 'foley-1',
        params: { prompt: 'Footsteps on gravel' },
        mediaSpec: { seconds: 3 },
        inputs: [{ readUrl: url, role: 'reference_video' }],
      },
    });
    expect(created.status, created.text).toBe(202);
    const done = await waitDone(created.data.platformJobId);
    expect(done).toMatchObject({ status: 'succeeded', serviceKind: 'audio_generation' });
    const [probe] = await downloadAll(done, 'audio');
    expect(probe!.streams.map((s) => s.codec_type)).toEqual(['audio']);
    expect(Number(probe!.format.duration)).toBeCloseTo(3, 0);
  });
});

describe('batch-get and events of image and audio jobs', () => {
  it('batch-get answers them with their results; the event stream follows them to succeeded', async () => {
    const ids: string[] = [];
    for (const body of [
      { ...IMAGE, clientTaskId: 'feed-img' },
      { ...SPEECH, clientTaskId: 'feed-speech' },
    ]) {
      const created = await call('POST', '/media/jobs', { json: body });
      expect(created.status, created.text).toBe(202);
      ids.push(created.data.platformJobId);
    }
    const settled = await settleRuntimeJobs(client, studio, member.sessionId, [...ids, 'job_unknown']);
    expect(settled.map((j) => [j.platformJobId, j.serviceKind, j.status])).toEqual([
      [ids[0], 'image_generation', 'succeeded'],
      [ids[1], 'audio_generation', 'succeeded'],
    ]);
    expect(settled.map((j) => j.results.length)).toEqual([2, 1]);
    const stream = await fetch(`${client.platform.runtimeBaseUrl}/media/events?once=true&limit=200`, {
      headers: {
        Authorization: `Bearer ${studio.appCredential}`,
        'X-Platform-Runtime-Session-Id': member.sessionId,
      },
    });
    const events = (await stream.text())
      .split('\n')
      .filter((line) => line.startsWith('data: '))
      .map((line) => JSON.parse(line.slice(6)) as Json);
    for (const id of ids) {
      const statuses = events.filter((e) => e.platformJobId === id).map((e) => e.status);
      expect(statuses[0]).toBe('queued');
      expect(statuses.at(-1)).toBe('succeeded');
    }
  });
});

describe('idempotency of image and audio jobs', () => {
  it('a replay answers the same job and reference; another body under the same key is 409', async () => {
    for (const [body, changed] of [
      [IMAGE, { ...IMAGE, params: { prompt: 'Another lighthouse' } }],
      [SPEECH, { ...SPEECH, params: { text: 'Something else.' } }],
    ] as const) {
      const json = { ...body, clientTaskId: `replay-${body.serviceKind}` };
      const headers = { 'Idempotency-Key': `key-${body.serviceKind}` };
      const first = await call('POST', '/media/jobs', { json, headers });
      expect(first.status, first.text).toBe(202);
      const replay = await call('POST', '/media/jobs', { json, headers });
      expect(replay.status).toBe(200);
      expect(replay.headers.get('idempotent-replayed')).toBe('true');
      expect(replay.data).toMatchObject({
        platformJobId: first.data.platformJobId,
        jobRecoveryRef: first.data.jobRecoveryRef,
      });
      expectPlatformError(
        await call('POST', '/media/jobs', {
          json: { ...changed, clientTaskId: json.clientTaskId },
          headers,
        }),
        409,
        'idempotency_conflict',
      );
    }
  });
});

describe('dry-run of image and audio jobs', () => {
  it('prices images per image and speech per request, with a normalized spec and nothing created', async () => {
    const image = await call('POST', '/media/jobs:dry-run', { json: { ...IMAGE, clientTaskId: 'dry-img' } });
    expect(image.status).toBe(200);
    expect(image.data).toMatchObject({
      accepted: true,
      serviceKind: 'image_generation',
      model: 'lumen-image',
      normalizedSpec: { generationMode: 't2i', width: 1344, height: 768, imageCount: 2 },
      estimatedCost: { resourceType: 'image_generation', usage: 2, unit: 'image' },
      admission: { decision: 'admit' },
    });
    const speech = await call('POST', '/media/jobs:dry-run', { json: { ...SPEECH, clientTaskId: 'dry-sp' } });
    expect(speech.data.estimatedCost).toMatchObject({ usage: 1, unit: 'request' });
    expect(speech.data.estimatedCost.estimatedAmount).toBeGreaterThan(0);
    // nothing was created: the same business is a first acceptance afterwards
    expect((await call('POST', '/media/jobs', { json: { ...IMAGE, clientTaskId: 'dry-img' } })).status).toBe(
      202,
    );
  });

  it('reports blockers for image and audio inputs: checksum, media kind, format, and roles the service does not take (not read)', async () => {
    const png = makePng(32, 32);
    const pngUrl = storage.put('dry-ref.png', png, 'image/png');
    const checksum = await call('POST', '/media/jobs:dry-run', {
      json: {
        ...IMAGE,
        clientTaskId: 'dry-sha',
        mediaSpec: { generationMode: 'i2i' },
        inputs: [{ readUrl: pngUrl, role: 'reference_image', sha256: 'c'.repeat(64) }],
      },
    });
    expect(checksum.status).toBe(200);
    expect(checksum.data).toMatchObject({ accepted: false, admission: { decision: 'reject' } });
    expect(checksum.data.blockers).toEqual([
      expect.objectContaining({ code: 'read_url_checksum_mismatch', phase: 'input_fetch', httpStatus: 422 }),
    ]);
    expect(checksum.data.readUrlChecks).toEqual([
      expect.objectContaining({ role: 'reference_image', ok: false, sha256: sha256(png), width: 32 }),
    ]);

    const wavUrl = storage.put('not-an-image.wav', makeWav(1), 'audio/wav');
    const kind = await call('POST', '/media/jobs:dry-run', {
      json: {
        ...IMAGE,
        clientTaskId: 'dry-kind',
        mediaSpec: { generationMode: 'i2i' },
        inputs: [{ readUrl: wavUrl, role: 'reference_image' }],
      },
    });
    expect(kind.data.accepted).toBe(false);
    expect(kind.data.blockers[0]).toMatchObject({ code: 'read_url_media_mismatch', httpStatus: 422 });

    // a 1x1 GIF: an image, but not a format the image service's public upload takes
    const gif = Buffer.from('R0lGODlhAQABAIAAAAAAAP///ywAAAAAAQABAAACAUwAOw==', 'base64');
    const format = await call('POST', '/media/jobs:dry-run', {
      json: {
        ...IMAGE,
        clientTaskId: 'dry-gif',
        mediaSpec: { generationMode: 'i2i' },
        inputs: [{ readUrl: storage.put('pixel.gif', gif, 'image/gif'), role: 'reference_image' }],
      },
    });
    expect(format.data.accepted).toBe(false);
    expect(format.data.blockers[0]).toMatchObject({
      code: 'read_url_media_mismatch',
      phase: 'input_validation',
      details: { field: 'inputs.0.readUrl', detected: 'image/gif' },
    });

    const mp4Url = storage.put('not-foley.mp4', makeMp4(1), 'video/mp4');
    const before = storage.hits;
    const role = await call('POST', '/media/jobs:dry-run', {
      json: { ...SPEECH, clientTaskId: 'dry-role', inputs: [{ readUrl: mp4Url, role: 'reference_video' }] },
    });
    expect(role.data.accepted).toBe(false);
    expect(role.data.blockers).toEqual([
      expect.objectContaining({
        code: 'input_role_not_supported',
        phase: 'input_validation',
        httpStatus: 400,
        details: { field: 'inputs.0.role', allowed: [] },
      }),
    ]);
    const foleyTwice = await call('POST', '/media/jobs:dry-run', {
      json: {
        model: 'cadence-foley',
        clientTaskId: 'dry-foley',
        inputs: [
          { readUrl: mp4Url, role: 'reference_video' },
          { readUrl: mp4Url, role: 'reference_video' },
        ],
      },
    });
    expect(foleyTwice.data.blockers[0]).toMatchObject({ code: 'invalid_input_composition' });
    expect(storage.hits).toBe(before); // refused before anything was read

    const t2iWithInput = await call('POST', '/media/jobs:dry-run', {
      json: { ...IMAGE, clientTaskId: 'dry-t2i', inputs: [{ readUrl: pngUrl, role: 'reference_image' }] },
    });
    expect(t2iWithInput.data.blockers[0]).toMatchObject({ code: 'invalid_input_composition' });
  });

  it('refuses a service kind the runtime does not serve, a parse without its document, and a model of another kind', async () => {
    expectPlatformError(
      await call('POST', '/media/jobs', {
        json: { clientTaskId: 'ocr', serviceKind: 'ocr', params: {} },
      }),
      400,
      'service_kind_not_supported',
    );
    expectPlatformError(
      await call('POST', '/media/jobs', {
        json: { clientTaskId: 'doc', serviceKind: 'document_parse', params: {} },
      }),
      400,
      'invalid_input_composition',
    );
    expectPlatformError(
      await call('POST', '/media/jobs', { json: { ...SPEECH, clientTaskId: 'mixed', model: 'lumen-image' } }),
      400,
      'model_not_supported',
    );
  });
});

describe('job_recovery_unavailable on job creation', () => {
  const scenario = { 'X-Simulator-Scenario': 'job_recovery_unavailable' };

  it('answers the named error for an accepted job; a replay of the same key and body returns it with its reference', async () => {
    const json = { ...IMAGE, clientTaskId: 'recovery-task' };
    const headers = { ...scenario, 'Idempotency-Key': 'recovery-key' };
    const first = await call('POST', '/media/jobs', { json, headers });
    expectPlatformError(first, 503, 'job_recovery_unavailable');
    expect(first.data).toMatchObject({ retryable: true, phase: 'job_recovery' });
    expect(Number(first.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(first.text).not.toMatch(/jrr_|platformJobId/);

    // the scenario is still on: a replay is answered from the stored job, not refused again
    const replay = await call('POST', '/media/jobs', { json, headers });
    expect(replay.status, replay.text).toBe(200);
    expect(replay.data.jobRecoveryRef).toEqual(expect.any(String));
    const again = await call('POST', '/media/jobs', { json, headers: { 'Idempotency-Key': 'recovery-key' } });
    expect(again.data).toMatchObject({
      platformJobId: replay.data.platformJobId,
      jobRecoveryRef: replay.data.jobRecoveryRef,
    });
    // the job was really accepted and runs; its reference reads it
    const done = await waitDone(replay.data.platformJobId);
    expect(done.status).toBe('succeeded');
    const byRef = await call('GET', `/media/jobs/${replay.data.platformJobId}`, {
      sessionId: '',
      headers: { 'X-Platform-Job-Recovery-Ref': replay.data.jobRecoveryRef },
    });
    expect(byRef.status).toBe(200);
    expectPlatformError(
      await call('POST', '/media/jobs', {
        json: { ...json, params: { prompt: 'changed' } },
        headers: { 'Idempotency-Key': 'recovery-key' },
      }),
      409,
      'idempotency_conflict',
    );
  });

  it('touches neither dry-run nor the public job routes', async () => {
    const dry = await call('POST', '/media/jobs:dry-run', {
      json: { ...IMAGE, clientTaskId: 'recovery-dry' },
      headers: scenario,
    });
    expect(dry.status).toBe(200);
    expect(dry.data.accepted).toBe(true);
    const publicJob = await fetch(client.sim.baseUrl + '/images/generations', {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${client.sim.token}`,
        'Content-Type': 'application/json',
        ...scenario,
      },
      body: JSON.stringify({ model: 'lumen-image', prompt: 'A public image' }),
    });
    expect(publicJob.status).toBe(202);
  });
});
