import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UploadResponse } from '../../../src/shared/api/assets.js';
import type { RunningSimulator } from '../../../src/simulator/index.js';
import { expectError, H3_BASE, sha256, startTestSimulator, type TestClient } from './client.js';
import { makeMov, makeMp4, makePdf, makePng, makeWav, removeScratch } from './fixtures.js';

const MiB = 1024 * 1024;
let sim: RunningSimulator;
let client: TestClient;
let other: TestClient;

beforeAll(async () => {
  // Accepted jobs stay queued at this pacing: nothing here needs a render.
  ({ sim, client } = await startTestSimulator({ tokens: ['other-identity'], timeScale: 1000 }));
  other = client.as('other-identity');
});
afterAll(async () => {
  await sim.close();
  removeScratch();
});

describe('POST /assets/input', () => {
  it('stores one file and answers 201 with exactly {asset, usage}', async () => {
    const png = makePng();
    const res = await client.upload('h3-video', png, {
      field: 'image',
      filename: 'frame.png',
      headers: { 'X-Client-Request-Id': 'upload-1' },
    });
    expect(res.status).toBe(201);
    const body = UploadResponse.parse(res.data);
    expect(Object.keys(res.data).sort()).toEqual(['asset', 'usage']);
    expect(body.asset).toMatchObject({
      kind: 'image',
      mimeType: 'image/png',
      byteSize: png.length,
      status: 'available',
      reused: false,
    });
    expect(body.asset.assetId).toMatch(/^asset_/);
    expect(res.data.id).toBeUndefined();
    const created = Date.parse(body.asset.createdAt);
    expect(Date.parse(body.asset.expiresAt) - created).toBe(24 * 3600 * 1000);
  });

  it('reuses an identical upload in the same identity and model scope, not across identities', async () => {
    const png = makePng(32, 32, [1, 2, 3]);
    const first = UploadResponse.parse((await client.upload('h3-video', png)).data);
    const again = UploadResponse.parse((await client.upload('h3-video', png)).data);
    expect(again.asset.assetId).toBe(first.asset.assetId);
    expect(again.asset.reused).toBe(true);
    const foreign = UploadResponse.parse((await other.upload('h3-video', png)).data);
    expect(foreign.asset.assetId).not.toBe(first.asset.assetId);
    expect(foreign.asset.reused).toBe(false);
  });

  it('requires the model query, a known model and exactly one file', async () => {
    const png = makePng();
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(png)]), 'a.png');
    expectError(await client.request('POST', '/assets/input', { body: form }), 400, 'invalid_request');
    expectError(await client.upload('no-such-model', png), 404, 'model_not_found');
    const two = new FormData();
    two.append('file', new Blob([new Uint8Array(png)]), 'a.png');
    two.append('image', new Blob([new Uint8Array(makePng(10, 10))]), 'b.png');
    expectError(
      await client.request('POST', '/assets/input?model=h3-video', { body: two }),
      400,
      'invalid_file_count',
    );
    const empty = new FormData();
    empty.append('note', 'no file');
    expectError(
      await client.request('POST', '/assets/input?model=h3-video', { body: empty }),
      400,
      'invalid_file_count',
    );
    expectError(await client.upload('h3-video', png, { field: 'picture' }), 400, 'invalid_field_name');
    expectError(await client.upload('h3-video', Buffer.alloc(0)), 400, 'empty_file');
    expectError(
      await client.request('POST', '/assets/input?model=h3-video', { json: { file: 'x' } }),
      415,
      'unsupported_media_type',
    );
  });

  it('checks X-Client-Request-Id: visible ASCII, at most 512 bytes', async () => {
    const png = makePng(8, 8);
    expect(
      (await client.upload('h3-video', png, { headers: { 'X-Client-Request-Id': 'a'.repeat(512) } })).status,
    ).toBe(201);
    expectError(
      await client.upload('h3-video', png, { headers: { 'X-Client-Request-Id': 'a'.repeat(513) } }),
      400,
      'invalid_client_request_id',
    );
    expectError(
      await client.upload('h3-video', png, { headers: { 'X-Client-Request-Id': 'has space' } }),
      400,
      'invalid_client_request_id',
    );
  });

  it('detects the format from content: 415 for unsupported, 422 when the field disagrees', async () => {
    expectError(
      await client.upload('h3-video', Buffer.from('just some text, not media')),
      415,
      'unsupported_media_type',
    );
    expectError(await client.upload('h3-video', makePdf()), 415, 'unsupported_media_type');
    expectError(await client.upload('h3-video', makePng(), { field: 'audio' }), 422, 'field_kind_mismatch');
    const wavAsPng = await client.upload('h3-video', makeWav(3), { field: 'file', filename: 'fake.png' });
    expect(wavAsPng.status).toBe(201);
    expect(wavAsPng.data.asset.kind).toBe('audio');
    expect(wavAsPng.data.asset.mimeType).toBe('audio/wav');
  });

  it('H3 reference images: 30 MiB accepted, one byte more is 413', async () => {
    expect((await client.upload('h3-video', makePng(16, 16, [9, 9, 9], 30 * MiB))).status).toBe(201);
    expectError(
      await client.upload('h3-video', makePng(16, 16, [9, 9, 8], 30 * MiB + 1)),
      413,
      'payload_too_large',
    );
  });

  it('general limits apply to a model without upload limits: PNG 16 MiB, one byte more is 413', async () => {
    expect((await client.upload('atlas-vision', makePng(16, 16, [1, 9, 9], 16 * MiB))).status).toBe(201);
    expectError(
      await client.upload('atlas-vision', makePng(16, 16, [1, 9, 8], 16 * MiB + 1)),
      413,
      'payload_too_large',
    );
    expectError(await client.upload('atlas-vision', makeMov(1, false)), 415, 'unsupported_media_type');
  });

  it('H3 reference audio lasts 2..15 s (ffprobe), checked at and just past each bound', async () => {
    for (const seconds of [2, 15]) {
      const res = await client.upload('h3-video', makeWav(seconds), { field: 'audio' });
      expect(res.status, `${seconds}s`).toBe(201);
    }
    for (const seconds of [1.9, 15.1]) {
      expectError(
        await client.upload('h3-video', makeWav(seconds), { field: 'audio' }),
        422,
        'audio_duration_out_of_range',
      );
    }
  });

  it('a .mov with an audio track must come in the audio field and becomes reference audio', async () => {
    const mov = makeMov(3, true);
    expectError(await client.upload('h3-video', mov, { field: 'file' }), 422, 'mov_audio_field_required');
    expectError(await client.upload('h3-video', mov, { field: 'video' }), 422, 'mov_audio_field_required');
    const ok = UploadResponse.parse(
      (await client.upload('h3-video', mov, { field: 'audio', filename: 'voice.mov' })).data,
    );
    expect(ok.asset.kind).toBe('audio');
    expect(ok.asset.mimeType).toBe('video/quicktime');
    expectError(
      await client.upload('h3-video', makeMov(3, false), { field: 'video' }),
      415,
      'unsupported_media_type',
    );
  });

  it('accepts an MP4 reference video', async () => {
    const res = await client.upload('h3-video', makeMp4(1), { field: 'video' });
    expect(res.status).toBe(201);
    expect(res.data.asset).toMatchObject({ kind: 'video', mimeType: 'video/mp4' });
  });

  it('H3 reference video MP4 <= 50 MiB and reference audio <= 15 MiB, checked at and just past each bound', async () => {
    const pad = (bytes: Buffer, total: number) => Buffer.concat([bytes, Buffer.alloc(total - bytes.length)]);
    const mp4 = makeMp4(1);
    expect((await client.upload('h3-video', pad(mp4, 50 * MiB), { field: 'video' })).status).toBe(201);
    expectError(
      await client.upload('h3-video', pad(mp4, 50 * MiB + 1), { field: 'video' }),
      413,
      'payload_too_large',
    );
    const wav = makeWav(5, 880);
    expect((await client.upload('h3-video', pad(wav, 15 * MiB), { field: 'audio' })).status).toBe(201);
    expectError(
      await client.upload('h3-video', pad(wav, 15 * MiB + 1), { field: 'audio' }),
      413,
      'payload_too_large',
    );
  });

  it('general limits: WAV audio <= 25 MiB; other audio formats are unsupported', async () => {
    const wav = makeWav(2, 990);
    const padded = Buffer.concat([wav, Buffer.alloc(25 * MiB - wav.length)]);
    expect((await client.upload('atlas-vision', padded, { field: 'audio' })).status).toBe(201);
    expectError(
      await client.upload('atlas-vision', Buffer.concat([padded, Buffer.alloc(1)]), { field: 'audio' }),
      413,
      'payload_too_large',
    );
    expectError(
      await client.upload('atlas-vision', makeMov(2, true), { field: 'audio' }),
      415,
      'unsupported_media_type',
    );
  });

  it('documents go to a document service only', async () => {
    const res = await client.upload('folio-parse', makePdf());
    expect(res.status).toBe(201);
    expect(res.data.asset).toMatchObject({ kind: 'document', mimeType: 'application/pdf' });
  });

  it('an unavailable model takes no uploads (409)', async () => {
    expectError(await client.upload('h3-video-preview', makePng()), 409, 'service_not_available');
  });
});

describe('GET and HEAD /assets/{assetId}/content', () => {
  it('returns the bytes with type, length and checksum; HEAD returns headers only; ranges work', async () => {
    const png = makePng(20, 20, [50, 100, 150]);
    const id = await client.uploadId('h3-video', png);
    const url = `${client.baseUrl}/assets/${id}/content?model=h3-video`;
    const got = await client.download(url);
    expect(got.status).toBe(200);
    expect(got.headers.get('content-type')).toBe('image/png');
    expect(Number(got.headers.get('content-length'))).toBe(png.length);
    expect(sha256(got.bytes)).toBe(sha256(png));
    expect(got.headers.get('x-content-sha256')).toBe(sha256(png));
    const head = await client.request('HEAD', url);
    expect(head.status).toBe(200);
    expect(head.text).toBe('');
    expect(Number(head.headers.get('content-length'))).toBe(png.length);
    const part = await fetch(url, { headers: { Authorization: `Bearer ${sim.token}`, Range: 'bytes=0-7' } });
    expect(part.status).toBe(206);
    expect(Buffer.from(await part.arrayBuffer())).toEqual(png.subarray(0, 8));
  });

  it('is 404 for another identity, another model scope and unknown ids, with the same answer', async () => {
    const id = await client.uploadId('h3-video', makePng(21, 21));
    const foreign = await other.get(`/assets/${id}/content?model=h3-video`);
    const scope = await client.get(`/assets/${id}/content?model=lumen-image`);
    const unknown = await client.get(`/assets/asset_doesnotexist/content?model=h3-video`);
    for (const res of [foreign, scope, unknown]) expectError(res, 404, 'asset_not_found');
    expect(foreign.data.message).toBe(unknown.data.message);
    expect(scope.data.message).toBe(unknown.data.message);
    expectError(await client.get(`/assets/${id}/content`), 400, 'invalid_request');
  });

  it('input assets expire after 24 hours: re-upload needed, content gone', async () => {
    const png = makePng(22, 22, [5, 5, 5]);
    const id = await client.uploadId('h3-video', png);
    const clock = await client.post('/_simulator/clock', { advanceSeconds: 24 * 3600 - 5 });
    expect(clock.status).toBe(200);
    expect((await client.get(`/assets/${id}/content?model=h3-video`)).status).toBe(200);
    const fresh = await client.post('/media/generations', {
      ...H3_BASE,
      generationMode: 'i2v',
      input_image_asset_id: id,
    });
    expect(fresh.status).toBe(202);
    await client.post('/_simulator/clock', { advanceSeconds: 6 });
    expectError(await client.get(`/assets/${id}/content?model=h3-video`), 404, 'asset_not_found');
    expectError(
      await client.post('/media/generations', {
        ...H3_BASE,
        generationMode: 'i2v',
        input_image_asset_id: id,
      }),
      422,
      'asset_expired',
    );
    const again = UploadResponse.parse((await client.upload('h3-video', png)).data);
    expect(again.asset.reused).toBe(false);
    expect(again.asset.assetId).not.toBe(id);
  });
});
