import { writeFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import type { RunningSimulator } from '../../../../src/simulator/index.js';
import { ffprobe, sha256, type Json } from '../client.js';
import { makePng, makeWav, scratchFile } from '../fixtures.js';
import {
  downloadVerifiedResult,
  expectPlatformError,
  pollRuntimeJob,
  runtimeCall,
  type PlatformApp,
  type PlatformClient,
} from './platform-client.js';
import { usePlatformWorld } from './platform-fixture.js';
import type { LoopbackStorage } from './storage-server.js';

let sim: RunningSimulator;
let client: PlatformClient;
let studio: PlatformApp;
let helper: PlatformApp;
let member: Json;
let manager: Json;
let storage: LoopbackStorage;

usePlatformWorld({ simulator: { timeScale: 0.02 }, sessions: ['member', 'manager'] }, (world) => {
  ({ sim, client, studio, helper, storage } = world);
  ({ member, manager } = world.sessions);
});

const T2V = {
  model: 'h3-video',
  serviceKind: 'video_generation',
  params: { prompt: 'A paper boat drifting down a rain gutter' },
  mediaSpec: { generationMode: 't2v', resolutionTier: '768p', orientation: 'landscape', seconds: 5 },
};

const call = (method: string, suffix: string, options: Parameters<typeof runtimeCall>[4] = {}) =>
  runtimeCall(client, studio, method, suffix, { sessionId: member.sessionId, ...options });

const waitRuntimeJob = (jobId: string, sessionId: string = member.sessionId) =>
  pollRuntimeJob(client, studio, sessionId, jobId);

describe('GET /available-services', () => {
  it('lists the public simulator catalogue with the list wrapper, filters and paging', async () => {
    const all = await call('GET', '/available-services');
    expect(all.status).toBe(200);
    expect(all.data).toMatchObject({ object: 'list', page: 1, pageSize: 100 });
    const publicList = await fetch(sim.baseUrl + '/services', {
      headers: { Authorization: `Bearer ${sim.token}` },
    });
    const publicModels = ((await publicList.json()) as Json).data.map((s: Json) => s.modelAlias).sort();
    expect(all.data.items.map((s: Json) => s.model).sort()).toEqual(publicModels);
    expect(all.data.total).toBe(publicModels.length);
    expect(all.data.items.some((s: Json) => s.status === 'unavailable')).toBe(true);

    const available = await call('GET', '/available-services?includeUnavailable=false');
    expect(available.data.items.every((s: Json) => s.status === 'available')).toBe(true);
    expect(available.data.total).toBeLessThan(all.data.total);
    const videos = await call('GET', '/available-services?serviceKind=video_generation');
    expect(videos.data.items.length).toBeGreaterThan(0);
    expect(videos.data.items.every((s: Json) => s.serviceKind === 'video_generation')).toBe(true);
    expect((await call('GET', '/available-services?serviceKind=video')).data.total).toBe(0);
    const page2 = await call('GET', '/available-services?page=2&pageSize=3');
    expect(page2.data.items.map((s: Json) => s.model)).toEqual(
      all.data.items.slice(3, 6).map((s: Json) => s.model),
    );
    expect((await call('GET', '/available-services?pageSize=200')).status).toBe(200);
    expectPlatformError(await call('GET', '/available-services?pageSize=201'), 400, 'invalid_request');
    expectPlatformError(await call('GET', '/available-services?page=0'), 400, 'invalid_request');
  });

  it('needs the credential and a usable session', async () => {
    expectPlatformError(
      await call('GET', '/available-services', { sessionId: '' }),
      401,
      'runtime_session_required',
    );
    expectPlatformError(
      await call('GET', '/available-services', { sessionId: 'rs_forged' }),
      401,
      'runtime_session_invalid',
    );
    expectPlatformError(
      await runtimeCall(client, helper, 'GET', '/available-services', { sessionId: member.sessionId }),
      401,
      'runtime_session_invalid',
    );
    const noCredential = await client.request('GET', client.platform.runtimeBaseUrl + '/available-services', {
      headers: { 'X-Platform-Runtime-Session-Id': member.sessionId },
    });
    expectPlatformError(noCredential, 401, 'UNAUTHENTICATED');
  });
});

describe('POST /media/jobs and reading it', () => {
  it('202 with jobRecoveryRef, then a real video with sound; reads do not resend the reference', async () => {
    const created = await call('POST', '/media/jobs', {
      json: {
        ...T2V,
        clientTaskId: 'task-t2v-1',
        resourceAttribution: { resourceType: 'project', resourceId: 'p1' },
      },
      headers: { 'Idempotency-Key': 'key-t2v-1' },
    });
    expect(created.status, created.text).toBe(202);
    expect(created.data).toMatchObject({
      clientTaskId: 'task-t2v-1',
      status: 'queued',
      stage: expect.any(String),
    });
    expect(created.data.jobRecoveryRef).toMatch(/^jrr_/);
    const done = await waitRuntimeJob(created.data.platformJobId);
    expect(done.status).toBe('succeeded');
    expect(done.jobRecoveryRef).toBeUndefined();
    expect(done.results).toHaveLength(1);
    const result = done.results[0];
    expect(result.resultDownloadUrl.startsWith(client.platform.runtimeBaseUrl + '/')).toBe(true);
    const bytes = await downloadVerifiedResult(studio, member.sessionId, result);
    const file = scratchFile('runtime-result.mp4');
    writeFileSync(file, bytes);
    const probe = ffprobe(file);
    expect(probe.streams.map((s) => s.codec_type).sort()).toEqual(['audio', 'video']);
  });

  it('a replay of the same business answers the same job and reference; a changed body is 409; header and body keys must agree', async () => {
    const body = { ...T2V, clientTaskId: 'task-replay', idempotencyKey: 'key-replay' };
    const first = await call('POST', '/media/jobs', { json: body });
    expect(first.status).toBe(202);
    const replay = await call('POST', '/media/jobs', {
      json: body,
      headers: { 'Idempotency-Key': 'key-replay' },
    });
    expect(replay.status).toBe(200);
    expect(replay.data.platformJobId).toBe(first.data.platformJobId);
    expect(replay.data.jobRecoveryRef).toBe(first.data.jobRecoveryRef);
    const changed = await call('POST', '/media/jobs', {
      json: { ...body, params: { prompt: 'Something else entirely' } },
    });
    expectPlatformError(changed, 409, 'idempotency_conflict');
    expectPlatformError(
      await call('POST', '/media/jobs', { json: body, headers: { 'Idempotency-Key': 'another-key' } }),
      400,
      'idempotency_key_mismatch',
    );
  });

  it('refuses a prompt at top level, mediaType in inputs, an undeclared resource type and the H3 rules', async () => {
    expectPlatformError(
      await call('POST', '/media/jobs', { json: { ...T2V, clientTaskId: 't-top', prompt: 'top level' } }),
      400,
      'invalid_request',
    );
    const url = storage.put('frame-a.png', makePng(64, 48), 'image/png');
    expectPlatformError(
      await call('POST', '/media/jobs', {
        json: {
          ...T2V,
          clientTaskId: 't-mt',
          inputs: [{ readUrl: url, role: 'first_frame', mediaType: 'image' }],
        },
      }),
      400,
      'invalid_request',
    );
    expectPlatformError(
      await call('POST', '/media/jobs', {
        json: {
          ...T2V,
          clientTaskId: 't-rt',
          resourceAttribution: { resourceType: 'storyboard.board', resourceId: 'b' },
        },
      }),
      400,
      'resource_type_not_declared',
    );
    // t2v takes no frame: the composition rule of H3 applies to readUrl inputs
    expectPlatformError(
      await call('POST', '/media/jobs', {
        json: { ...T2V, clientTaskId: 't-comp', inputs: [{ readUrl: url, role: 'first_frame' }] },
      }),
      400,
      'invalid_input_composition',
    );
    expectPlatformError(
      await call('POST', '/media/jobs', {
        json: { ...T2V, clientTaskId: 't-secs', mediaSpec: { ...T2V.mediaSpec, seconds: 16 } },
      }),
      400,
      'invalid_seconds',
    );
  });

  it('a failed job is read with 200 and its error', async () => {
    const created = await call('POST', '/media/jobs', {
      json: { ...T2V, clientTaskId: 'task-fails' },
      headers: { 'X-Simulator-Scenario': 'job_failed' },
    });
    expect(created.status).toBe(202);
    const done = await waitRuntimeJob(created.data.platformJobId);
    expect(done).toMatchObject({ status: 'failed', errorCode: expect.any(String), retryable: false });
  });
});

describe('readUrl inputs', () => {
  it('reads a loopback URL once, checks sha256 and byteSize, and uses the frame', async () => {
    const png = makePng(64, 48, [20, 160, 90]);
    const url = storage.put('first.png', png, 'image/png');
    const before = storage.hits;
    const body = {
      ...T2V,
      clientTaskId: 'task-i2v',
      mediaSpec: { ...T2V.mediaSpec, generationMode: 'i2v' },
      inputs: [
        {
          readUrl: url,
          role: 'first_frame',
          mimeType: 'image/png',
          sha256: sha256(png),
          byteSize: png.length,
        },
      ],
    };
    const created = await call('POST', '/media/jobs', { json: body });
    expect(created.status, created.text).toBe(202);
    expect(storage.hits).toBe(before + 1);
    expect((await waitRuntimeJob(created.data.platformJobId)).status).toBe('succeeded');

    const wrongSha = await call('POST', '/media/jobs', {
      json: {
        ...body,
        clientTaskId: 'task-i2v-sha',
        inputs: [{ ...body.inputs[0], sha256: 'a'.repeat(64) }],
      },
    });
    expectPlatformError(wrongSha, 422, 'read_url_checksum_mismatch');
    expect(wrongSha.data.phase).toBe('input_fetch');
    expectPlatformError(
      await call('POST', '/media/jobs', {
        json: {
          ...body,
          clientTaskId: 'task-i2v-size',
          inputs: [{ ...body.inputs[0], byteSize: png.length + 1 }],
        },
      }),
      422,
      'read_url_size_mismatch',
    );
    expectPlatformError(
      await call('POST', '/media/jobs', {
        json: {
          ...body,
          clientTaskId: 'task-i2v-404',
          inputs: [{ readUrl: `${storage.origin}/bucket/none.png`, role: 'first_frame' }],
        },
      }),
      422,
      'read_url_unreadable',
    );
    const wav = storage.put('voice.wav', makeWav(2), 'audio/wav');
    expectPlatformError(
      await call('POST', '/media/jobs', {
        json: { ...body, clientTaskId: 'task-i2v-kind', inputs: [{ readUrl: wav, role: 'first_frame' }] },
      }),
      422,
      'read_url_media_mismatch',
    );
  });

  it('refuses local paths, other schemes, private, link-local and non-loopback addresses without contacting anything', async () => {
    const good = storage.put('good.png', makePng(), 'image/png');
    const cases: [string, string][] = [
      ['/etc/passwd', 'read_url_invalid'],
      ['file:///etc/passwd', 'read_url_scheme_not_allowed'],
      ['ftp://127.0.0.1/frame.png', 'read_url_scheme_not_allowed'],
      ['data:image/png;base64,AAAA', 'read_url_scheme_not_allowed'],
      ['http://10.1.2.3/frame.png', 'read_url_address_not_allowed'],
      ['http://192.168.0.10/frame.png', 'read_url_address_not_allowed'],
      ['http://172.20.0.1/frame.png', 'read_url_address_not_allowed'],
      ['http://169.254.169.254/latest/meta-data', 'read_url_address_not_allowed'],
      ['http://[fe80::1]/frame.png', 'read_url_address_not_allowed'],
      ['http://[fd00::1]/frame.png', 'read_url_address_not_allowed'],
      ['https://example.com/frame.png', 'read_url_address_not_allowed'],
    ];
    const before = storage.hits;
    for (const [readUrl, code] of cases) {
      const res = await call('POST', '/media/jobs', {
        json: {
          ...T2V,
          clientTaskId: `refuse-${code}`,
          mediaSpec: { ...T2V.mediaSpec, generationMode: 'i2v' },
          // a valid loopback input after the refused one is not read either
          inputs: [
            { readUrl, role: 'first_frame' },
            { readUrl: good, role: 'reference_image' },
          ],
        },
      });
      expectPlatformError(res, 400, code);
      expect(res.text).not.toContain('meta-data');
    }
    expect(storage.hits).toBe(before);
  });
});

describe('recovery references and ownership', () => {
  let job: Json;
  let otherJob: Json;
  beforeAll(async () => {
    job = (await call('POST', '/media/jobs', { json: { ...T2V, clientTaskId: 'task-recover' } })).data;
    otherJob = (await call('POST', '/media/jobs', { json: { ...T2V, clientTaskId: 'task-recover-2' } })).data;
    await waitRuntimeJob(job.platformJobId);
  });
  const withRef = (ref: string) => ({ sessionId: '', headers: { 'X-Platform-Job-Recovery-Ref': ref } });

  it('reads its own job and downloads its result, never another job', async () => {
    const read = await call('GET', `/media/jobs/${job.platformJobId}`, withRef(job.jobRecoveryRef));
    expect(read.status).toBe(200);
    expect(read.data.status).toBe('succeeded');
    const download = await fetch(read.data.results[0].resultDownloadUrl, {
      headers: {
        Authorization: `Bearer ${studio.appCredential}`,
        'X-Platform-Job-Recovery-Ref': job.jobRecoveryRef,
      },
    });
    expect(download.status).toBe(200);
    expectPlatformError(
      await call('GET', `/media/jobs/${otherJob.platformJobId}`, withRef(job.jobRecoveryRef)),
      404,
      'job_not_found',
    );
    expectPlatformError(
      await runtimeCall(
        client,
        helper,
        'GET',
        `/media/jobs/${job.platformJobId}`,
        withRef(job.jobRecoveryRef),
      ),
      404,
      'job_not_found',
    );
  });

  it('authorizes no creation, batch-get, dry-run or listing, and never goes with the session header', async () => {
    const ref = withRef(job.jobRecoveryRef);
    for (const res of [
      await call('POST', '/media/jobs', { ...ref, json: { ...T2V, clientTaskId: 'by-ref' } }),
      await call('POST', '/media/jobs:dry-run', { ...ref, json: { ...T2V, clientTaskId: 'by-ref' } }),
      await call('POST', '/media/jobs:batch-get', { ...ref, json: { platformJobIds: [job.platformJobId] } }),
      await call('GET', '/available-services', ref),
    ])
      expectPlatformError(res, 403, 'job_recovery_ref_not_allowed');
    expectPlatformError(
      await call('GET', `/media/jobs/${job.platformJobId}`, {
        headers: { 'X-Platform-Job-Recovery-Ref': job.jobRecoveryRef },
      }),
      400,
      'conflicting_runtime_credentials',
    );
  });

  it("another person's session neither reads nor downloads the job (404, as for an unknown id)", async () => {
    const res = await call('GET', `/media/jobs/${job.platformJobId}`, { sessionId: manager.sessionId });
    expectPlatformError(res, 404, 'job_not_found');
    const unknown = await call('GET', '/media/jobs/job_unknown');
    expect(unknown.data.message).toBe(res.data.message);
  });

  it('batch-get answers own jobs, de-duplicated; unknown and not owned ids are missing; 1..100 ids', async () => {
    const res = await call('POST', '/media/jobs:batch-get', {
      json: { platformJobIds: [job.platformJobId, otherJob.platformJobId, job.platformJobId, 'job_unknown'] },
    });
    expect(res.status).toBe(200);
    expect(res.data.items.map((j: Json) => j.platformJobId)).toEqual([
      job.platformJobId,
      otherJob.platformJobId,
    ]);
    expect(res.data.missing).toEqual(['job_unknown']);
    for (const item of res.data.items) expect(item.jobRecoveryRef).toBeUndefined();
    const asManager = await call('POST', '/media/jobs:batch-get', {
      sessionId: manager.sessionId,
      json: { platformJobIds: [job.platformJobId] },
    });
    expect(asManager.data).toEqual({ items: [], missing: [job.platformJobId] });
    expect(
      (
        await call('POST', '/media/jobs:batch-get', {
          json: { platformJobIds: Array.from({ length: 100 }, (_, i) => `j${i}`) },
        })
      ).status,
    ).toBe(200);
    for (const platformJobIds of [[], Array.from({ length: 101 }, (_, i) => `j${i}`), ['']])
      expectPlatformError(
        await call('POST', '/media/jobs:batch-get', { json: { platformJobIds } }),
        400,
        'invalid_request',
      );
  });
});

describe('POST /media/jobs:dry-run', () => {
  it('accepts a valid body with its normalized spec and estimated cost, creating nothing', async () => {
    const body = {
      ...T2V,
      clientTaskId: 'task-dry',
      resourceAttribution: { resourceType: 'project', resourceId: 'p9' },
    };
    const res = await call('POST', '/media/jobs:dry-run', { json: body });
    expect(res.status).toBe(200);
    expect(res.data).toMatchObject({
      accepted: true,
      clientTaskId: 'task-dry',
      appContext: { appKey: studio.appKey, appVersionId: studio.appVersionId },
      serviceKind: 'video_generation',
      model: 'h3-video',
      blockers: [],
      admission: { decision: 'admit' },
    });
    expect(res.data.normalizedSpec).toMatchObject({
      seconds: 5,
      resolutionTier: '768p',
      width: 1376,
      height: 768,
    });
    expect(JSON.stringify(res.data.normalizedSpec)).not.toContain('paper boat');
    expect(res.data.estimatedCost.usage).toBe(5);
    // nothing was created: the same business is a first acceptance afterwards
    expect((await call('POST', '/media/jobs', { json: body })).status).toBe(202);
  });

  it('reports a readUrl whose sha256 does not match as a blocker of a 200 accepted:false', async () => {
    const png = makePng(64, 48, [1, 2, 3]);
    const url = storage.put('dry.png', png, 'image/png');
    const res = await call('POST', '/media/jobs:dry-run', {
      json: {
        ...T2V,
        clientTaskId: 'task-dry-sha',
        mediaSpec: { ...T2V.mediaSpec, generationMode: 'i2v' },
        inputs: [{ readUrl: url, role: 'first_frame', sha256: 'b'.repeat(64) }],
      },
    });
    expect(res.status).toBe(200);
    expect(res.data.accepted).toBe(false);
    expect(res.data.blockers).toEqual([
      expect.objectContaining({
        code: 'read_url_checksum_mismatch',
        phase: 'input_fetch',
        retryable: false,
        httpStatus: 422,
      }),
    ]);
    expect(res.data.readUrlChecks).toEqual([
      expect.objectContaining({
        index: 0,
        role: 'first_frame',
        ok: false,
        sha256: sha256(png),
        width: 64,
        height: 48,
      }),
    ]);
    expect(res.data.admission.decision).toBe('reject');
  });

  it('keeps early JSON and authentication errors as 4xx', async () => {
    expectPlatformError(
      await call('POST', '/media/jobs:dry-run', {
        body: '{"clientTaskId":',
        headers: { 'Content-Type': 'application/json' },
      }),
      400,
      'invalid_json',
    );
    expectPlatformError(
      await call('POST', '/media/jobs:dry-run', { sessionId: '', json: T2V }),
      401,
      'runtime_session_required',
    );
  });
});
