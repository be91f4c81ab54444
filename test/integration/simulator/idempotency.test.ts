import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PromptOptimizationResponse } from '../../../src/shared/api/prompt-optimization.js';
import type { RunningSimulator } from '../../../src/simulator/index.js';
import { expectError, H3_BASE, startTestSimulator, type Json, type TestClient } from './client.js';
import { astral, makePng, makeWav, removeScratch } from './fixtures.js';

let sim: RunningSimulator;
let client: TestClient;
let other: TestClient;

beforeAll(async () => {
  ({ sim, client } = await startTestSimulator({ tokens: ['other-identity'] }));
  other = client.as('other-identity');
});
afterAll(async () => {
  await sim.close();
  removeScratch();
});

async function ledger(c: TestClient = client): Promise<Json[]> {
  const res = await c.get('/_simulator/idempotency');
  expect(res.status).toBe(200);
  return res.data.data;
}

describe('video creation idempotency', () => {
  it('same key and body: 202 first, then the stored job (200); one job created', async () => {
    const body = { ...H3_BASE, prompt: 'Idempotent lighthouse', seed: 11 };
    const first = await client.post('/media/generations', body, { 'Idempotency-Key': 'intent-1' });
    expect(first.status).toBe(202);
    const reordered = Object.fromEntries(Object.entries(body).reverse());
    const again = await client.post('/media/generations', reordered, { 'Idempotency-Key': 'intent-1' });
    expect(again.status).toBe(200);
    expect(again.data.jobId).toBe(first.data.jobId);
    expect(again.data.requestId).toBe(first.data.requestId);
    expect(again.headers.get('location')).toBe(first.data.jobUrl);
    const { job } = await client.waitJob(first.data.jobUrl);
    const terminal = await client.post('/media/generations', body, { 'Idempotency-Key': 'intent-1' });
    expect(terminal.status).toBe(200);
    expect(terminal.data).toMatchObject({ jobId: job.jobId, status: 'succeeded' });
    const entry = (await ledger()).find((e) => e.idempotencyKey === 'intent-1');
    expect(entry).toMatchObject({
      operation: 'media.generation',
      created: 1,
      replays: 2,
      resourceIds: [first.data.jobId],
    });
  });

  it('same key with a different body is 409 (including a changed seed); nothing is created', async () => {
    const body = { ...H3_BASE, prompt: 'Conflict check', seed: 1 };
    expect((await client.post('/media/generations', body, { 'Idempotency-Key': 'intent-2' })).status).toBe(
      202,
    );
    expectError(
      await client.post('/media/generations', { ...body, seed: 2 }, { 'Idempotency-Key': 'intent-2' }),
      409,
      'idempotency_conflict',
    );
    expectError(
      await client.post(
        '/media/generations',
        { ...body, prompt: 'Other' },
        { 'Idempotency-Key': 'intent-2' },
      ),
      409,
      'idempotency_conflict',
    );
    expect((await ledger()).find((e) => e.idempotencyKey === 'intent-2').created).toBe(1);
  });

  it('keys are per identity: the same key under another identity is a separate intent', async () => {
    const body = { ...H3_BASE, prompt: 'Per identity' };
    const mine = await client.post('/media/generations', body, { 'Idempotency-Key': 'shared-key' });
    const theirs = await other.post('/media/generations', body, { 'Idempotency-Key': 'shared-key' });
    expect(theirs.status).toBe(202);
    expect(theirs.data.jobId).not.toBe(mine.data.jobId);
    expect((await ledger(other)).map((e) => e.idempotencyKey)).toEqual(['shared-key']);
  });

  it('without a key every call creates a job; a malformed key is 400', async () => {
    const body = { ...H3_BASE, prompt: 'No key' };
    const a = await client.post('/media/generations', body);
    const b = await client.post('/media/generations', body);
    expect(a.data.jobId).not.toBe(b.data.jobId);
    expectError(
      await client.post('/media/generations', body, { 'Idempotency-Key': 'has space' }),
      400,
      'invalid_idempotency_key',
    );
  });

  it('dropped connection: the job is accepted, the answer is lost; replaying the key returns it, created once', async () => {
    const body = { ...H3_BASE, prompt: 'Outcome unknown', seed: 99 };
    await expect(
      client.post('/media/generations', body, {
        'Idempotency-Key': 'lost-1',
        'X-Simulator-Scenario': 'dropped_connection',
      }),
    ).rejects.toThrow();
    const replay = await client.post('/media/generations', body, { 'Idempotency-Key': 'lost-1' });
    expect(replay.status).toBe(200);
    expect(replay.data.jobId).toMatch(/^job_/);
    const { job } = await client.waitJob(replay.data.jobUrl);
    expect(job.status).toBe('succeeded');
    expect((await ledger()).find((e) => e.idempotencyKey === 'lost-1')).toMatchObject({
      created: 1,
      replays: 1,
    });
  });

  it('image and audio creation are idempotent too', async () => {
    const image = { model: 'lumen-image', prompt: 'Idempotent image' };
    const a = await client.post('/images/generations', image, { 'Idempotency-Key': 'img-1' });
    const b = await client.post('/images/generations', image, { 'Idempotency-Key': 'img-1' });
    expect([a.status, b.status]).toEqual([202, 200]);
    expect(b.data.jobId).toBe(a.data.jobId);
    expectError(
      await client.post('/images/generations', { ...image, prompt: 'x' }, { 'Idempotency-Key': 'img-1' }),
      409,
      'idempotency_conflict',
    );
    const speech = { model: 'cadence-speech', text: 'Once only.' };
    const c = await client.post('/audio/generations', speech, { 'Idempotency-Key': 'aud-1' });
    const d = await client.post('/audio/generations', speech, { 'Idempotency-Key': 'aud-1' });
    expect([c.status, d.status]).toEqual([202, 200]);
    expect(d.data.jobId).toBe(c.data.jobId);
  });
});

describe('prompt optimization', () => {
  const base = {
    clientRequestId: 'opt-00000001',
    model: 'h3-video',
    generationMode: 't2v',
    originalPrompt: 'A lighthouse at dusk',
    mediaSpec: { resolutionTier: '768p', orientation: 'landscape', seconds: 5 },
    referenceInputs: [],
  };
  const optimize = (body: Record<string, unknown>, key: string | null = body.clientRequestId as string) =>
    client.post('/media/prompt-optimizations', body, key === null ? {} : { 'Idempotency-Key': key });
  let n = 0;
  const fresh = (extra: Record<string, unknown> = {}) => {
    n += 1;
    return { ...base, clientRequestId: `opt-fresh-${n}`, ...extra };
  };

  it('answers 201 with exactly {requestId, optimization}; never starts a generation', async () => {
    const jobsBefore = (await ledger()).length;
    const res = await optimize(base);
    expect(res.status).toBe(201);
    const body = PromptOptimizationResponse.parse(res.data);
    expect(body.optimization).toMatchObject({
      status: 'succeeded',
      serviceKind: 'video_generation',
      generationMode: 't2v',
      originalPrompt: base.originalPrompt,
    });
    expect(body.optimization.optimizedPrompt.startsWith(base.originalPrompt)).toBe(true);
    expect(body.optimization.optimizedPrompt.length).toBeGreaterThan(base.originalPrompt.length);
    expect(Date.parse(body.optimization.expiresAt)).toBeGreaterThan(Date.parse(body.optimization.createdAt));
    const entries = await ledger();
    expect(entries.length).toBe(jobsBefore + 1);
    expect(entries.at(-1)).toMatchObject({ operation: 'prompt.optimization', created: 1 });
  });

  it('Idempotency-Key is required and must equal clientRequestId', async () => {
    expectError(await optimize(fresh(), null), 400, 'idempotency_key_required');
    expectError(await optimize(fresh(), 'some-other-key'), 400, 'idempotency_key_mismatch');
  });

  it('replays the same optimization for the same key and body; a different body is 409', async () => {
    const body = fresh({ originalPrompt: 'Replay me' });
    const a = await optimize(body);
    const b = await optimize(body);
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(b.data).toEqual(a.data);
    expectError(await optimize({ ...body, originalPrompt: 'Changed' }), 409, 'idempotency_conflict');
    const entry = (await ledger()).find((e) => e.idempotencyKey === body.clientRequestId);
    expect(entry).toMatchObject({ created: 1, replays: 1 });
  });

  it('clientRequestId is 8..128 chars of [A-Za-z0-9._:-]', async () => {
    for (const id of ['a'.repeat(8), 'b'.repeat(128), 'A1._:-xyz'])
      expect((await optimize({ ...base, clientRequestId: id })).status).toBe(201);
    for (const id of ['c'.repeat(7), 'd'.repeat(129), 'bad/char!']) {
      expectError(
        await optimize({ ...base, clientRequestId: id }, id.includes(' ') ? 'x' : id),
        400,
        'invalid_request',
      );
    }
  });

  it('originalPrompt is 1..7000 code points (astral); style 1..200; output never over 7000', async () => {
    const long = await optimize(fresh({ originalPrompt: astral(7000) }));
    expect(long.status).toBe(201);
    expect([...long.data.optimization.optimizedPrompt].length).toBeLessThanOrEqual(7000);
    expect(long.data.optimization.optimizedPrompt).toBe(astral(7000));
    expectError(await optimize(fresh({ originalPrompt: astral(7001) })), 400, 'invalid_prompt_length');
    expectError(await optimize(fresh({ originalPrompt: '   ' })), 400, 'invalid_prompt_length');
    const near = await optimize(fresh({ originalPrompt: 'p'.repeat(6950) }));
    expect([...near.data.optimization.optimizedPrompt].length).toBeLessThanOrEqual(7000);
    expect((await optimize(fresh({ style: astral(200) }))).status).toBe(201);
    expectError(await optimize(fresh({ style: astral(201) })), 400, 'invalid_request');
    expectError(await optimize(fresh({ style: '' })), 400, 'invalid_request');
  });

  it('rejects extra fields, mediaType in references, unknown mediaSpec keys and bad media specs', async () => {
    expectError(await optimize(fresh({ seed: 1 })), 400, 'invalid_request');
    expectError(await optimize(fresh({ mediaSpec: { ...base.mediaSpec, fps: 24 } })), 400, 'invalid_request');
    expectError(
      await optimize(fresh({ mediaSpec: { ...base.mediaSpec, seconds: 16 } })),
      400,
      'invalid_media_spec',
    );
    expectError(
      await optimize(fresh({ mediaSpec: { orientation: 'landscape', seconds: 5 } })),
      400,
      'invalid_media_spec',
    );
    expectError(await optimize(fresh({ generationMode: 'v2v' })), 400, 'invalid_generation_mode');
    expectError(await optimize(fresh({ model: 'h3-video-preview' })), 409, 'service_not_available');
    const image = await client.uploadId('h3-video', makePng(10, 10, [3, 4, 5]));
    expectError(
      await optimize(
        fresh({
          generationMode: 'i2v',
          referenceInputs: [{ role: 'first_frame', assetId: image, mediaType: 'image' }],
        }),
      ),
      400,
      'invalid_request',
    );
  });

  it('typed roles per mode, counts, audio policy, ownership', async () => {
    const images = [];
    for (let i = 0; i < 10; i += 1) images.push(await client.uploadId('h3-video', makePng(9, 9, [i, 8, 7])));
    const audio = await client.uploadId('h3-video', makeWav(3, 523), { field: 'audio' });
    const r = (role: string, assetId: string) => ({ role, assetId });
    expect(
      (await optimize(fresh({ generationMode: 'i2v', referenceInputs: [r('first_frame', images[0]!)] })))
        .status,
    ).toBe(201);
    expectError(
      await optimize(fresh({ generationMode: 'i2v', referenceInputs: [] })),
      400,
      'invalid_input_composition',
    );
    expectError(
      await optimize(fresh({ generationMode: 'i2v', referenceInputs: [r('reference_image', images[0]!)] })),
      400,
      'invalid_input_composition',
    );
    expect(
      (
        await optimize(
          fresh({
            generationMode: 'first_last_frame_video',
            referenceInputs: [r('first_frame', images[0]!), r('last_frame', images[1]!)],
          }),
        )
      ).status,
    ).toBe(201);
    const urv = (refs: unknown[], extra: Record<string, unknown> = {}) =>
      optimize(fresh({ generationMode: 'universal_reference_video', referenceInputs: refs, ...extra }));
    expect((await urv(images.slice(0, 9).map((id) => r('reference_image', id)))).status).toBe(201);
    expectError(
      await urv(images.slice(0, 10).map((id) => r('reference_image', id))),
      400,
      'invalid_input_composition',
    );
    expectError(
      await urv([r('reference_image', images[0]!), r('reference_audio', audio)]),
      400,
      'missing_field',
    );
    expect(
      (
        await urv([r('reference_image', images[0]!), r('reference_audio', audio)], {
          audioReferencePolicy: 'preserve_without_understanding',
        })
      ).status,
    ).toBe(201);
    expectError(
      await urv([r('reference_audio', audio)], { audioReferencePolicy: 'preserve_without_understanding' }),
      400,
      'invalid_input_composition',
    );
    expectError(
      await urv([r('reference_image', images[0]!), r('reference_image', images[0]!)]),
      400,
      'duplicate_reference',
    );
    const foreign = await other.uploadId('h3-video', makePng(9, 9, [99, 1, 1]));
    expectError(await urv([r('reference_image', foreign)]), 404, 'asset_not_found');
  });
});
