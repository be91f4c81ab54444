import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSimulator } from '../../../src/simulator/index.js';
import { expectError, H3_BASE, sha256, startTestSimulator, type TestClient } from './client.js';
import { astral, makeMov, makeMp4, makePng, makeWav, removeScratch } from './fixtures.js';

const MiB = 1024 * 1024;
let sim: RunningSimulator;
let client: TestClient;
let other: TestClient;
let images: string[];
let video: string;
let video2: string;
let audios: string[];

const create = (body: Record<string, unknown>) => client.post('/media/generations', body);
const ref = (role: string, assetId: string, extra: Record<string, unknown> = {}) => ({
  role,
  assetId,
  ...extra,
});
const urv = (referenceInputs: unknown[]) =>
  create({ ...H3_BASE, generationMode: 'universal_reference_video', referenceInputs });

beforeAll(async () => {
  // Accepted jobs stay queued at this pacing: these tests are about admission rules, not rendering.
  ({ sim, client } = await startTestSimulator({ tokens: ['other-identity'], timeScale: 1000 }));
  other = client.as('other-identity');
  images = [];
  for (let i = 0; i < 11; i += 1)
    images.push(await client.uploadId('h3-video', makePng(16, 16, [i * 20, 40, 90])));
  video = await client.uploadId('h3-video', makeMp4(1), { field: 'video' });
  video2 = await client.uploadId('h3-video', makeMp4(2), { field: 'video' });
  audios = [];
  for (const [i, seconds] of [5, 5, 5, 5.5, 2].entries()) {
    audios.push(await client.uploadId('h3-video', makeWav(seconds, 300 + i * 50), { field: 'audio' }));
  }
});
afterAll(async () => {
  await sim.close();
  removeScratch();
});

describe('H3 fields', () => {
  it('counts the prompt in Unicode code points after trimming: 7000 accepted, 7001 rejected (astral)', async () => {
    expect((await create({ ...H3_BASE, prompt: astral(7000) })).status).toBe(202);
    expect((await create({ ...H3_BASE, prompt: `  \n${astral(7000)}\t ` })).status).toBe(202);
    const over = await create({ ...H3_BASE, prompt: astral(7001) });
    expectError(over, 400, 'invalid_prompt_length');
    expect(over.data.details).toMatchObject({ field: 'prompt', codePoints: 7001 });
    expect((await create({ ...H3_BASE, prompt: 'a'.repeat(7000) })).status).toBe(202);
    expectError(await create({ ...H3_BASE, prompt: 'a'.repeat(7001) }), 400, 'invalid_prompt_length');
    expectError(await create({ ...H3_BASE, prompt: ' \n\t ' }), 400, 'invalid_prompt_length');
    expect((await create({ ...H3_BASE, prompt: 'x' })).status).toBe(202);
  });

  it('requires model, prompt, generationMode, resolutionTier, orientation and seconds', async () => {
    for (const field of ['prompt', 'generationMode', 'resolutionTier', 'orientation', 'seconds']) {
      const body: Record<string, unknown> = { ...H3_BASE };
      delete body[field];
      const res = await create(body);
      expectError(res, 400, 'missing_field');
      expect(res.data.details.field).toBe(field);
    }
    expectError(await create({ ...H3_BASE, model: undefined }), 400, 'missing_field');
  });

  it('seconds 5..15, seed 0..2147483647, tier 768p only, known modes and orientations', async () => {
    for (const seconds of [5, 15]) expect((await create({ ...H3_BASE, seconds })).status).toBe(202);
    for (const seconds of [4, 16]) expectError(await create({ ...H3_BASE, seconds }), 400, 'invalid_seconds');
    expectError(await create({ ...H3_BASE, seconds: 5.5 }), 400, 'invalid_request');
    for (const seed of [0, 2147483647]) expect((await create({ ...H3_BASE, seed })).status).toBe(202);
    for (const seed of [-1, 2147483648])
      expectError(await create({ ...H3_BASE, seed }), 400, 'invalid_request');
    expectError(await create({ ...H3_BASE, resolutionTier: '1080p' }), 400, 'invalid_resolution_tier');
    expectError(await create({ ...H3_BASE, generationMode: 'v2v' }), 400, 'invalid_generation_mode');
    expectError(await create({ ...H3_BASE, orientation: 'square' }), 400, 'invalid_request');
  });

  it('rejects the fields H3 must not be sent (fps, frame counts, width/height, steps, runtime/device)', async () => {
    for (const field of [
      'fps',
      'num_frames',
      'frame_count',
      'width',
      'height',
      'steps',
      'num_inference_steps',
      'device',
      'runtime',
    ]) {
      const res = await create({ ...H3_BASE, [field]: 24 });
      expectError(res, 400, 'forbidden_field');
      expect(res.data.details.field).toBe(field);
    }
    expectError(await create({ ...H3_BASE, input_audio_asset_id: audios[0] }), 400, 'field_not_supported');
    expectError(await create({ ...H3_BASE, input_video_asset_id: video }), 400, 'field_not_supported');
  });

  it('rejects an unknown model (404), an unavailable one (409) and one of another kind (400)', async () => {
    expectError(await create({ ...H3_BASE, model: 'h9-video' }), 404, 'model_not_found');
    expectError(await create({ ...H3_BASE, model: 'h3-video-preview' }), 409, 'service_not_available');
    expectError(await create({ ...H3_BASE, model: 'atlas-chat' }), 400, 'model_not_supported');
  });

  it('answers 400 for malformed JSON and 415 for a non-JSON body', async () => {
    const bad = await client.request('POST', '/media/generations', {
      body: '{"model":',
      headers: { 'Content-Type': 'application/json' },
    });
    expectError(bad, 400, 'invalid_json');
    const text = await client.request('POST', '/media/generations', {
      body: 'model=h3-video',
      headers: { 'Content-Type': 'text/plain' },
    });
    expectError(text, 415, 'unsupported_media_type');
  });
});

describe('H3 mode/input composition table', () => {
  it('t2v takes no assets', async () => {
    expectError(
      await create({ ...H3_BASE, input_image_asset_id: images[0] }),
      400,
      'invalid_input_composition',
    );
    expectError(
      await create({ ...H3_BASE, referenceInputs: [ref('reference_image', images[0]!)] }),
      400,
      'invalid_input_composition',
    );
    expect((await create({ ...H3_BASE, referenceInputs: [] })).status).toBe(202);
  });

  it('i2v takes exactly one first image, no last image, no referenceInputs', async () => {
    const i2v = { ...H3_BASE, generationMode: 'i2v' };
    expect((await create({ ...i2v, input_image_asset_id: images[0] })).status).toBe(202);
    expectError(await create(i2v), 400, 'invalid_input_composition');
    expectError(
      await create({ ...i2v, input_image_asset_id: images[0], end_image_asset_id: images[1] }),
      400,
      'invalid_input_composition',
    );
    expectError(
      await create({
        ...i2v,
        input_image_asset_id: images[0],
        referenceInputs: [ref('reference_image', images[1]!)],
      }),
      400,
      'invalid_input_composition',
    );
    expectError(await create({ ...i2v, input_image_asset_id: audios[0] }), 422, 'asset_kind_mismatch');
  });

  it('first_last_frame_video takes exactly first and last image, no referenceInputs', async () => {
    const flf = { ...H3_BASE, generationMode: 'first_last_frame_video' };
    expect(
      (await create({ ...flf, input_image_asset_id: images[0], end_image_asset_id: images[1] })).status,
    ).toBe(202);
    expectError(await create({ ...flf, input_image_asset_id: images[0] }), 400, 'invalid_input_composition');
    expectError(await create({ ...flf, end_image_asset_id: images[1] }), 400, 'invalid_input_composition');
    expectError(
      await create({
        ...flf,
        input_image_asset_id: images[0],
        end_image_asset_id: images[1],
        referenceInputs: [ref('reference_image', images[2]!)],
      }),
      400,
      'invalid_input_composition',
    );
  });

  it('universal_reference_video: up to 9 images without video, 8 with one video', async () => {
    expect((await urv(images.slice(0, 9).map((id) => ref('reference_image', id)))).status).toBe(202);
    expectError(
      await urv(images.slice(0, 10).map((id) => ref('reference_image', id))),
      400,
      'invalid_input_composition',
    );
    expect(
      (
        await urv([
          ...images.slice(0, 8).map((id) => ref('reference_image', id)),
          ref('reference_video', video),
        ])
      ).status,
    ).toBe(202);
    expectError(
      await urv([
        ...images.slice(0, 9).map((id) => ref('reference_image', id)),
        ref('reference_video', video),
      ]),
      400,
      'invalid_input_composition',
    );
  });

  it('universal_reference_video: at most 1 video, at most 3 audios, at least one visual, at most 12 items', async () => {
    expectError(
      await urv([ref('reference_video', video), ref('reference_video', video2)]),
      400,
      'invalid_input_composition',
    );
    expect(
      (
        await urv([
          ref('reference_image', images[0]!),
          ...audios.slice(0, 3).map((id) => ref('reference_audio', id)),
        ])
      ).status,
    ).toBe(202);
    expectError(
      await urv([
        ref('reference_image', images[0]!),
        ...[audios[0], audios[1], audios[2], audios[4]].map((id) => ref('reference_audio', id!)),
      ]),
      400,
      'invalid_input_composition',
    );
    expectError(await urv([ref('reference_audio', audios[0]!)]), 400, 'invalid_input_composition');
    expectError(await urv([]), 400, 'invalid_input_composition');
    expect((await urv([ref('reference_video', video)])).status).toBe(202);
    const twelve = [
      ...images.slice(0, 8).map((id) => ref('reference_image', id)),
      ref('reference_video', video),
      ...audios.slice(0, 3).map((id) => ref('reference_audio', id)),
    ];
    expect((await urv(twelve)).status).toBe(202);
    expectError(await urv([...twelve, ref('reference_image', images[9]!)]), 400, 'invalid_request');
  });

  it('reference audio: 15 s combined accepted, 15.5 s rejected (422)', async () => {
    expect(
      (
        await urv([
          ref('reference_image', images[0]!),
          ...audios.slice(0, 3).map((id) => ref('reference_audio', id)),
        ])
      ).status,
    ).toBe(202);
    const res = await urv([
      ref('reference_image', images[0]!),
      ...[audios[0], audios[1], audios[3]].map((id) => ref('reference_audio', id!)),
    ]);
    expectError(res, 422, 'audio_total_duration_exceeded');
  });

  it('reference items: roles, mediaType agreement, no extra fields, unique ids, matching kind, checksum hint', async () => {
    expect((await urv([ref('reference_image', images[0]!, { mediaType: 'image' })])).status).toBe(202);
    expectError(
      await urv([ref('reference_image', images[0]!, { mediaType: 'video' })]),
      400,
      'reference_media_type_mismatch',
    );
    expectError(
      await urv([ref('reference_video', video, { mediaType: 'audio' })]),
      400,
      'reference_media_type_mismatch',
    );
    expectError(await urv([ref('reference_sketch', images[0]!)]), 400, 'invalid_request');
    expectError(
      await urv([ref('reference_image', images[0]!, { url: 'https://example.com/a.png' })]),
      400,
      'invalid_request',
    );
    expectError(
      await urv([ref('reference_image', images[0]!), ref('reference_image', images[0]!)]),
      400,
      'duplicate_reference',
    );
    expectError(await urv([ref('reference_image', video)]), 422, 'asset_kind_mismatch');
    expectError(
      await urv([ref('reference_image', images[0]!), ref('reference_audio', images[1]!)]),
      422,
      'asset_kind_mismatch',
    );
    expect(
      (await urv([ref('reference_image', images[0]!, { sha256: sha256(makePng(16, 16, [0, 40, 90])) })]))
        .status,
    ).toBe(202);
    expectError(
      await urv([ref('reference_image', images[0]!, { sha256: 'f'.repeat(64) })]),
      422,
      'asset_checksum_mismatch',
    );
  });

  it('a .mov with audio is reference audio, never a video slot', async () => {
    const mov = await client.uploadId('h3-video', makeMov(3, true), { field: 'audio' });
    expect(
      (
        await urv([
          ref('reference_image', images[0]!),
          ref('reference_video', video),
          ref('reference_audio', mov),
        ])
      ).status,
    ).toBe(202);
    expectError(await urv([ref('reference_video', mov)]), 422, 'asset_kind_mismatch');
  });

  it('first/last frame images are at most 16 MiB (reference images may be 30 MiB)', async () => {
    const exact = await client.uploadId('h3-video', makePng(16, 16, [7, 7, 7], 16 * MiB));
    const over = await client.uploadId('h3-video', makePng(16, 16, [7, 7, 6], 16 * MiB + 1));
    expect((await create({ ...H3_BASE, generationMode: 'i2v', input_image_asset_id: exact })).status).toBe(
      202,
    );
    expectError(
      await create({ ...H3_BASE, generationMode: 'i2v', input_image_asset_id: over }),
      422,
      'asset_too_large_for_role',
    );
    expectError(
      await create({
        ...H3_BASE,
        generationMode: 'first_last_frame_video',
        input_image_asset_id: images[0],
        end_image_asset_id: over,
      }),
      422,
      'asset_too_large_for_role',
    );
    expect((await urv([ref('reference_image', over)])).status).toBe(202);
  });

  it('assets must be owned by this identity and model scope: 404 otherwise, same answer as unknown', async () => {
    const foreignAsset = await other.uploadId('h3-video', makePng(12, 12, [1, 1, 1]));
    const otherScope = await client.uploadId('lumen-image', makePng(12, 12, [2, 2, 2]));
    const unknown = await create({
      ...H3_BASE,
      generationMode: 'i2v',
      input_image_asset_id: 'asset_unknown',
    });
    const foreign = await create({ ...H3_BASE, generationMode: 'i2v', input_image_asset_id: foreignAsset });
    const scope = await urv([ref('reference_image', otherScope)]);
    for (const res of [unknown, foreign, scope]) expectError(res, 404, 'asset_not_found');
    expect(foreign.data.message).toBe(unknown.data.message);
    expect(
      (
        await other.post('/media/generations', {
          ...H3_BASE,
          generationMode: 'i2v',
          input_image_asset_id: foreignAsset,
        })
      ).status,
    ).toBe(202);
  });
});
