import { readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type RunningSimulator } from '../../../../src/simulator/index.js';
import { sha256, type Json } from '../client.js';
import { makePng, makeWav, removeScratch } from '../fixtures.js';
import { OpenApiResponses } from '../openapi-validator.js';
import {
  expectPlatformError,
  platformDocument,
  PlatformClient,
  runtimeCall,
  startPlatformSimulator,
  type PlatformApp,
} from './platform-client.js';
import { recoveryRefOfFailedJob } from './recovery-ref.js';
import { LoopbackStorage } from './storage-server.js';
import { tempFolder } from '../../../support/worlds/temp-folder.js';

let sim: RunningSimulator;
let client: PlatformClient;
let studio: PlatformApp;
let member: Json;
let recoveryRef: string;
const storage = new LoopbackStorage();
const dataDir = tempFolder('fw-platsync-opt-');
const PATH = '/media/prompt-optimizations';

beforeAll(async () => {
  ({ sim, client } = await startPlatformSimulator({ dataDir }));
  studio = client.app(0);
  member = await client.openSession(studio, 'member');
  await storage.start();
  recoveryRef = await recoveryRefOfFailedJob(client, studio, member.sessionId, 'opt-recovery');
});
afterAll(async () => {
  await sim.close();
  await storage.stop();
  removeScratch();
});

function call(
  method: string,
  suffix: string,
  json?: unknown,
  headers: Record<string, string> = {},
  sessionId?: string,
) {
  return runtimeCall(client, studio, method, suffix, {
    sessionId: sessionId ?? member.sessionId,
    json,
    headers,
  });
}

const T2V = {
  model: 'h3-video',
  generationMode: 't2v',
  originalPrompt: 'A lighthouse at dusk, waves against the rocks',
  mediaSpec: { resolutionTier: '768p', orientation: 'landscape', seconds: 5 },
  referenceInputs: [],
};
let n = 0;
/** A body under a new clientRequestId. */
const fresh = (extra: Record<string, unknown> = {}): Json => {
  n += 1;
  return { ...T2V, clientRequestId: `rt-opt-${n}-${Date.now()}`, ...extra };
};
const optimize = (body: Json, headers: Record<string, string> = {}, sessionId?: string) =>
  call('POST', PATH, body, { 'Idempotency-Key': body.clientRequestId, ...headers }, sessionId);

/** A reference served by the application's loopback storage. */
function ref(role: string, name: string, bytes: Buffer, type: string): Json {
  return { role, readUrl: storage.put(name, bytes, type), byteSize: bytes.length, sha256: sha256(bytes) };
}

describe('POST /media/prompt-optimizations (runtime form)', () => {
  it('is in the platform document', async () => {
    const doc = await platformDocument(sim);
    expect(doc.paths[`/runtime${PATH}`]?.post).toBeDefined();
  });

  it('answers 201 with the public optimization of the same request, plus publicationId; no job is created', async () => {
    const body = fresh();
    const res = await optimize(body);
    expect(res.status, res.text).toBe(201);
    expect(res.data.optimization).toMatchObject({
      status: 'succeeded',
      serviceKind: 'video_generation',
      generationMode: 't2v',
      originalPrompt: T2V.originalPrompt,
      publicationId: expect.any(String),
    });
    const pub = await fetch(sim.baseUrl + PATH, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${sim.token}`,
        'Content-Type': 'application/json',
        'Idempotency-Key': body.clientRequestId,
      },
      body: JSON.stringify(body),
    });
    expect(pub.status).toBe(201);
    const publicOptimization = ((await pub.json()) as Json).optimization;
    for (const field of ['optimizedPrompt', 'outcome', 'noticeCodes'])
      expect(res.data.optimization[field], field).toEqual(publicOptimization[field]);

    // no task: the person's event snapshot lists only the job made in beforeAll
    const events = await call('GET', '/media/events?once=true');
    const snapshot = JSON.parse(/event: snapshot\nid: \d+\ndata: (.*)\n/.exec(events.text)![1]!);
    expect(snapshot.jobs.map((j: Json) => j.clientTaskId)).toEqual(['opt-recovery']);
  });

  it('reads references from readUrl (checked, never kept) and writes them into the prompt', async () => {
    const png = makePng(48, 48, [200, 10, 10]);
    const wav = makeWav(3, 520);
    const before = storage.hits;
    const body = fresh({
      generationMode: 'universal_reference_video',
      referenceInputs: [
        { ...ref('reference_image', 'look.png', png, 'image/png'), mimeType: 'image/png', purpose: 'look' },
        ref('reference_audio', 'voice.wav', wav, 'audio/wav'),
      ],
      audioReferencePolicy: 'preserve_without_understanding',
    });
    const res = await optimize(body);
    expect(res.status, res.text).toBe(201);
    expect(storage.hits).toBe(before + 2);
    expect(res.data.optimization.optimizedPrompt).toContain(
      'Keep the look of visual reference 1 (reference_image).',
    );
    expect(res.data.optimization.optimizedPrompt).toContain('Preserve the supplied audio references');
    expect(readdirSync(path.join(dataDir, 'tmp'))).toEqual([]);
    expect(readdirSync(path.join(dataDir, 'uploads'))).toEqual([]);

    // a replay of the same key and body answers the same optimization without reading again
    const replay = await optimize(body);
    expect(replay.status).toBe(201);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.data.optimization).toEqual(res.data.optimization);
    expect(storage.hits).toBe(before + 2);
    // the same key with another body conflicts
    expectPlatformError(
      await optimize({ ...body, originalPrompt: 'Something else' }),
      409,
      'idempotency_conflict',
    );
  });

  it('requires Idempotency-Key equal to clientRequestId', async () => {
    const body = fresh();
    expectPlatformError(await call('POST', PATH, body, {}), 400, 'idempotency_key_required');
    expectPlatformError(
      await optimize(body, { 'Idempotency-Key': 'another-key-1' }),
      400,
      'idempotency_key_mismatch',
    );
  });

  it('refuses a personal asset id, mediaType, missing facts and the public composition rules', async () => {
    const png = makePng();
    const good = ref('reference_image', 'g.png', png, 'image/png');
    const urv = { generationMode: 'universal_reference_video' };
    const assetId = await optimize(
      fresh({ ...urv, referenceInputs: [{ role: 'reference_image', assetId: 'asset_x' }] }),
    );
    expectPlatformError(assetId, 400, 'asset_id_not_accepted');
    expect(assetId.data.details.field).toBe('referenceInputs.0.assetId');
    expectPlatformError(
      await optimize(fresh({ ...urv, referenceInputs: [{ ...good, mediaType: 'image' }] })),
      400,
      'media_type_not_accepted',
    );
    const { sha256: _sha, ...noSha } = good;
    expectPlatformError(await optimize(fresh({ ...urv, referenceInputs: [noSha] })), 400, 'invalid_request');
    const { byteSize: _size, ...noSize } = good;
    expectPlatformError(await optimize(fresh({ ...urv, referenceInputs: [noSize] })), 400, 'invalid_request');
    expectPlatformError(
      await optimize(fresh({ ...urv, referenceInputs: [{ ...good, byteSize: 0 }] })),
      400,
      'invalid_request',
    );
    // t2v takes no reference; audio alone is invalid; at most 12 references; content given twice
    expectPlatformError(await optimize(fresh({ referenceInputs: [good] })), 400, 'invalid_input_composition');
    const audio = ref('reference_audio', 'a.wav', makeWav(2), 'audio/wav');
    expectPlatformError(
      await optimize(
        fresh({ ...urv, referenceInputs: [audio], audioReferencePolicy: 'preserve_without_understanding' }),
      ),
      400,
      'invalid_input_composition',
    );
    const thirteen = Array.from({ length: 13 }, (_, i) =>
      ref('reference_image', `m${i}.png`, makePng(8, 8, [i, 0, 0]), 'image/png'),
    );
    expectPlatformError(await optimize(fresh({ ...urv, referenceInputs: thirteen })), 400, 'invalid_request');
    expectPlatformError(
      await optimize(fresh({ ...urv, referenceInputs: [good, { ...good, role: 'reference_image' }] })),
      400,
      'duplicate_reference',
    );
    expectPlatformError(
      await optimize(fresh({ mediaSpec: { ...T2V.mediaSpec, seconds: 16 } })),
      400,
      'invalid_media_spec',
    );
  });

  it('refuses a readUrl by the read-url rules: address before any contact, then checksum, size and kind', async () => {
    const png = makePng(16, 16, [1, 1, 1]);
    const base = ref('reference_image', 'r.png', png, 'image/png');
    const urv = { generationMode: 'universal_reference_video' };
    const before = storage.hits;
    for (const [readUrl, code] of [
      ['file:///etc/passwd', 'read_url_scheme_not_allowed'],
      ['http://10.2.3.4/r.png', 'read_url_address_not_allowed'],
      ['http://169.254.169.254/latest/meta-data', 'read_url_address_not_allowed'],
      ['/home/me/frames/r.png', 'read_url_invalid'],
    ] as const) {
      const res = await optimize(
        fresh({ ...urv, referenceInputs: [base, { ...base, readUrl, sha256: 'd'.repeat(64) }] }),
      );
      expectPlatformError(res, 400, code);
    }
    expect(storage.hits).toBe(before);
    const wrongSha = await optimize(
      fresh({ ...urv, referenceInputs: [{ ...base, sha256: 'e'.repeat(64) }] }),
    );
    expectPlatformError(wrongSha, 422, 'read_url_checksum_mismatch');
    expectPlatformError(
      await optimize(fresh({ ...urv, referenceInputs: [{ ...base, byteSize: png.length + 5 }] })),
      422,
      'read_url_size_mismatch',
    );
    const wav = makeWav(2, 700);
    expectPlatformError(
      await optimize(fresh({ ...urv, referenceInputs: [ref('reference_image', 'w.wav', wav, 'audio/wav')] })),
      422,
      'read_url_media_mismatch',
    );
    expectPlatformError(
      await optimize(fresh({ ...urv, referenceInputs: [{ ...base, mimeType: 'image/jpeg' }] })),
      422,
      'read_url_media_mismatch',
    );
    // what an upload for the role would refuse: an audio clip under 2 s, an image over 30 MiB
    const short = ref('reference_audio', 'short.wav', makeWav(1, 300), 'audio/wav');
    const tooShort = await optimize(
      fresh({
        ...urv,
        referenceInputs: [base, short],
        audioReferencePolicy: 'preserve_without_understanding',
      }),
    );
    expectPlatformError(tooShort, 422, 'audio_duration_out_of_range');
    expect(tooShort.data.details.field).toBe('referenceInputs.1');
    const big = ref(
      'reference_image',
      'big.png',
      makePng(16, 16, [2, 2, 2], 30 * 1024 * 1024 + 1),
      'image/png',
    );
    const tooLarge = await optimize(fresh({ ...urv, referenceInputs: [big] }));
    expectPlatformError(tooLarge, 422, 'read_url_too_large');
    expect(tooLarge.data.details.maxBytes).toBe(30 * 1024 * 1024);
    expect(readdirSync(path.join(dataDir, 'tmp'))).toEqual([]);
  });

  it('needs a user session; a job recovery reference cannot authorize it', async () => {
    const body = fresh();
    expectPlatformError(await optimize(body, {}, ''), 401, 'runtime_session_required');
    expectPlatformError(await optimize(body, {}, 'rs_forged'), 401, 'runtime_session_invalid');
    const recovery = await optimize(body, { 'X-Platform-Job-Recovery-Ref': recoveryRef }, '');
    expectPlatformError(recovery, 403, 'job_recovery_ref_not_allowed');
    expect(recovery.text).not.toContain(recoveryRef);
    // another person's session does not replay this person's optimization
    const first = await optimize(body);
    expect(first.status).toBe(201);
    const other = await client.openSession(studio, 'manager');
    const theirs = await optimize(body, {}, other.sessionId);
    expect(theirs.status).toBe(201);
    expect(theirs.data.optimization.optimizationId).not.toBe(first.data.optimization.optimizationId);
  });
});

describe('scenarios', () => {
  it('402, 409, 429 and 503 before the optimization runs', async () => {
    const s = (scenario: string) => optimize(fresh(), { 'X-Simulator-Scenario': scenario });
    expectPlatformError(await s('insufficient_balance'), 402, 'insufficient_balance');
    expectPlatformError(await s('idempotency_conflict'), 409, 'idempotency_conflict');
    expectPlatformError(await s('invalid_request'), 400, 'invalid_request');
    const limited = await s('rate_limited');
    expectPlatformError(limited, 429, 'rate_limited');
    expect(limited.headers.get('retry-after')).toBe('2');
    const down = await s('unavailable');
    expectPlatformError(down, 503, 'service_unavailable');
    expect(down.headers.get('retry-after')).toBe('5');
  });

  it('a dropped connection after acceptance: the replay of the same key and body answers the optimization', async () => {
    const body = fresh();
    await expect(optimize(body, { 'X-Simulator-Scenario': 'dropped_connection' })).rejects.toThrow();
    const replay = await optimize(body);
    expect(replay.status).toBe(201);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.data.optimization.originalPrompt).toBe(T2V.originalPrompt);
  });
});

describe('state', () => {
  it('a replay answers the same optimization after a restart with the same data folder', async () => {
    const body = fresh({ originalPrompt: 'Survives a restart' });
    const first = await optimize(body);
    expect(first.status).toBe(201);
    await sim.close();
    sim = await startSimulator({ timeScale: 0.01, dataDir });
    client = new PlatformClient(sim, new OpenApiResponses(await platformDocument(sim)));
    studio = client.app(0);
    member = await client.openSession(studio, 'member');
    const replay = await optimize(body);
    expect(replay.status, replay.text).toBe(201);
    expect(replay.data.optimization).toEqual(first.data.optimization);
  });
});
