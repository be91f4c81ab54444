import SwaggerParser from '@apidevtools/swagger-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CatalogVoiceList, PublicModelList, ServiceEntryList } from '../../../src/shared/api/discovery.js';
import { MediaSpecContract } from '../../../src/shared/api/media-spec-contract.js';
import {
  FIXED_LOCAL_TEST_TOKEN,
  startSimulator,
  type RunningSimulator,
} from '../../../src/simulator/index.js';
import { expectError, sha256, startTestSimulator, type Json, type TestClient } from './client.js';

let sim: RunningSimulator;
let client: TestClient;

beforeAll(async () => {
  ({ sim, client } = await startTestSimulator({ tokens: ['second-identity-token'] }));
});
afterAll(async () => {
  await sim.close();
});

describe('serving and identities', () => {
  it('answers its first request as soon as start-up resolves, on loopback', async () => {
    const other = await startSimulator({ timeScale: 0.01 });
    try {
      const res = await fetch(other.baseUrl + '/services', {
        headers: { Authorization: `Bearer ${other.token}` },
      });
      expect(res.status).toBe(200);
      expect(other.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
      expect(other.token).toBe(FIXED_LOCAL_TEST_TOKEN);
    } finally {
      await other.close();
    }
  });

  it('rejects a missing, malformed or unknown bearer token with 401 PublicError', async () => {
    const none = await fetch(client.baseUrl + '/services');
    expectError({ status: none.status, data: await none.json() }, 401, 'unauthorized');
    expect(none.headers.get('www-authenticate')).toBe('Bearer');
    const basic = await fetch(client.baseUrl + '/services', {
      headers: { Authorization: `Basic ${FIXED_LOCAL_TEST_TOKEN}` },
    });
    expect(basic.status).toBe(401);
    expectError(await client.as('not-a-known-token').get('/services'), 401, 'unauthorized');
    expectError(await client.as('not-a-known-token').get('/openapi.json'), 401, 'unauthorized');
  });

  it('accepts the fixed token and every --token as separate identities', async () => {
    expect((await client.get('/services')).status).toBe(200);
    expect((await client.as('second-identity-token').get('/services')).status).toBe(200);
  });

  it('answers unknown routes with 404 and wrong methods with 405, as PublicError', async () => {
    expectError(await client.get('/nope'), 404, 'route_not_found');
    const outside = await fetch(client.baseUrl.replace('/v1', '/v2/services'), {
      headers: { Authorization: `Bearer ${sim.token}` },
    });
    expect(outside.status).toBe(404);
    const wrong = await client.request('DELETE', '/services');
    expectError(wrong, 405, 'method_not_allowed');
    expect(wrong.headers.get('allow')).toBe('GET');
    const noRequestId = await client.get('/nope');
    expect(noRequestId.data.requestId).toMatch(/^req_/);
    expect(noRequestId.headers.get('x-request-id')).toBe(noRequestId.data.requestId);
  });
});

describe('discovery', () => {
  it('publishes several services over the service kinds, some not available, aliases only', async () => {
    const res = await client.get('/services');
    const list = ServiceEntryList.parse(res.data);
    expect(list.object).toBe('list');
    const kinds = new Set(list.data.map((s) => s.serviceKind));
    for (const kind of [
      'video_generation',
      'image_generation',
      'audio_generation',
      'document_parse',
      'text_chat',
      'vision_chat',
      'audio_transcription',
      'embeddings',
      'rerank',
      'ocr',
    ]) {
      expect(kinds.has(kind), kind).toBe(true);
    }
    expect(list.data.some((s) => s.available === false)).toBe(true);
    expect(list.data.filter((s) => s.available === true).length).toBeGreaterThan(8);
    for (const service of list.data) {
      expect(service.modelAlias).toMatch(/^[a-z0-9-]+$/);
      expect(JSON.stringify(service)).not.toMatch(/workload|deployment|instance|publicationId/i);
    }
  });

  it('filters by exact serviceKind', async () => {
    const res = await client.get('/services?serviceKind=audio_generation');
    const list = ServiceEntryList.parse(res.data);
    expect(list.data.map((s) => s.modelAlias).sort()).toEqual([
      'cadence-foley',
      'cadence-music',
      'cadence-speech',
    ]);
    const none = ServiceEntryList.parse((await client.get('/services?serviceKind=audio')).data);
    expect(none.data).toEqual([]);
  });

  it('publishes a complete H3 mediaSpecContract, apiUsageContract and promptOptimization', async () => {
    const list = ServiceEntryList.parse((await client.get('/services?serviceKind=video_generation')).data);
    const h3 = list.data.find((s) => s.modelAlias === 'h3-video')!;
    expect(h3.available).toBe(true);
    const contract = MediaSpecContract.parse(h3.mediaSpecContract);
    expect(contract.requiredFields).toEqual([
      'model',
      'prompt',
      'generationMode',
      'resolutionTier',
      'orientation',
      'seconds',
    ]);
    expect(contract.forbiddenFields).toEqual(
      expect.arrayContaining(['fps', 'width', 'height', 'steps', 'num_frames', 'device']),
    );
    expect(contract.prompt).toEqual({ minCodePoints: 1, maxCodePoints: 7000, trim: true });
    const param = (name: string) => contract.parameters!.find((p) => p.name === name)!;
    expect(param('generationMode').values).toEqual([
      't2v',
      'i2v',
      'first_last_frame_video',
      'universal_reference_video',
    ]);
    expect(param('resolutionTier').values).toEqual(['768p']);
    expect(param('orientation').values).toEqual(['landscape', 'portrait']);
    expect([param('seconds').minimum, param('seconds').maximum]).toEqual([5, 15]);
    expect([param('seed').minimum, param('seed').maximum]).toEqual([0, 2147483647]);
    expect(contract.modes!.i2v!.frames).toEqual({ input_image_asset_id: 'first_frame' });
    expect(contract.modes!.first_last_frame_video!.frames).toEqual({
      input_image_asset_id: 'first_frame',
      end_image_asset_id: 'last_frame',
    });
    expect(contract.modes!.universal_reference_video!.referenceInputs).toEqual({
      maxItems: 12,
      maxImages: 9,
      maxImagesWithVideo: 8,
      maxVideos: 1,
      maxAudios: 3,
      minVisual: 1,
    });
    expect(contract.effectiveSpec).toEqual({
      fps: 24,
      maxFrames: 362,
      canvases: {
        '768p': { landscape: { width: 1376, height: 768 }, portrait: { width: 768, height: 1376 } },
      },
    });
    const MiB = 1024 * 1024;
    const limits = contract.uploadLimits!;
    expect(limits.first_frame!.maxBytes).toBe(16 * MiB);
    expect(limits.last_frame!.maxBytes).toBe(16 * MiB);
    expect(limits.reference_image!.maxBytes).toBe(30 * MiB);
    expect(limits.reference_image!.formats).toEqual(['image/png', 'image/jpeg', 'image/webp']);
    expect(limits.reference_video).toMatchObject({ formats: ['video/mp4'], maxBytes: 50 * MiB });
    expect(limits.reference_audio).toMatchObject({
      maxBytes: 15 * MiB,
      minSeconds: 2,
      maxSeconds: 15,
      maxTotalSeconds: 15,
    });
    expect(limits.reference_audio!.formats).toEqual(
      expect.arrayContaining([
        'audio/wav',
        'audio/mpeg',
        'audio/flac',
        'audio/x-m4a',
        'audio/aac',
        'audio/ogg',
        'video/quicktime',
      ]),
    );
    expect(h3.apiUsageContract).toBeTypeOf('object');
    const po = h3.promptOptimization as Json;
    expect(po.available).toBe(true);
    expect(po.profiles[0].name).toBe('typed-media/v1');
    expect(po.clientTimeoutSeconds).toBeGreaterThan(0);
    expect(po.styleAllowed).toBe(true);
    expect(po.profiles[0].roles.universal_reference_video.reference_image).toEqual({
      min: 0,
      max: 9,
      maxWithVideo: 8,
    });
  });

  it('publishes image, speech (custom_voice, voice_design), music, Foley and document contracts', async () => {
    const list = ServiceEntryList.parse((await client.get('/services')).data);
    const by = (alias: string) => list.data.find((s) => s.modelAlias === alias)!;
    expect(
      MediaSpecContract.parse(by('lumen-image').mediaSpecContract).parameters!.some(
        (p) => p.name === 'imageCount',
      ),
    ).toBe(true);
    const speech = MediaSpecContract.parse(by('cadence-speech').mediaSpecContract);
    expect(speech.parameters!.find((p) => p.name === 'voiceMode')!.values).toEqual([
      'text',
      'custom_voice',
      'voice_design',
    ]);
    expect(speech.parameters!.find((p) => p.name === 'text')!.maxLength).toBe(600);
    expect(speech.parameters!.find((p) => p.name === 'instruct')!.maxLength).toBe(160);
    expect(by('cadence-music').mediaSpecContract).toBeDefined();
    expect(MediaSpecContract.parse(by('cadence-foley').mediaSpecContract).requiredFields).toContain(
      'input_video_asset_id',
    );
    expect(by('folio-parse').mediaSpecContract).toBeDefined();
  });

  it('lists models and voices; a voice detail, 404 for an unknown voice', async () => {
    const models = PublicModelList.parse((await client.get('/models')).data);
    expect(
      models.data.find((m) => m.id === 'h3-video')!.mediaSpecContract!.parameters!.length,
    ).toBeGreaterThan(3);
    const voices = CatalogVoiceList.parse((await client.get('/audio/voices')).data);
    expect(voices.data.length).toBeGreaterThanOrEqual(3);
    const detail = await client.get(`/audio/voices/${voices.data[0]!.voiceId}`);
    expect(detail.status).toBe(200);
    expect(detail.data.voiceId).toBe(voices.data[0]!.voiceId);
    expectError(await client.get('/audio/voices/no-such-voice'), 404, 'voice_not_found');
    const preview = voices.data[0]!.previewAssetId!;
    const url = `${client.baseUrl}/assets/${preview}/content?model=cadence-speech`;
    for (const who of [client, client.as('second-identity-token')]) {
      const got = await who.download(url);
      expect(got.status).toBe(200);
      expect(got.headers.get('content-type')).toBe('audio/wav');
      expect(got.bytes.subarray(0, 4).toString('ascii')).toBe('RIFF');
      expect(got.headers.get('x-content-sha256')).toBe(sha256(got.bytes));
    }
    expect((await client.download(`${client.baseUrl}/assets/${preview}/content?model=h3-video`)).status).toBe(
      404,
    );
  });
});

describe('/openapi.json', () => {
  it('is a valid OpenAPI 3.1 document of every public path', async () => {
    const res = await client.get('/openapi.json');
    expect(res.status).toBe(200);
    const doc = res.data;
    expect(doc.openapi).toMatch(/^3\.1\./);
    expect(doc.info).toMatchObject({
      title: expect.any(String),
      description: expect.any(String),
      version: expect.any(String),
    });
    expect(doc.servers).toEqual([{ url: client.baseUrl }]);
    await SwaggerParser.validate(structuredClone(doc));
    const paths = Object.keys(doc.paths).sort();
    expect(paths).toEqual(
      [
        '/openapi.json',
        '/services',
        '/models',
        '/audio/voices',
        '/audio/voices/{voiceId}',
        '/chat/completions',
        '/embeddings',
        '/rerank',
        '/ocr',
        '/documents/parse',
        '/audio/transcriptions',
        '/audio/generations',
        '/images/generations',
        '/media/generations',
        '/media/prompt-optimizations',
        '/assets/input',
        '/jobs/{jobId}',
        '/assets/{assetId}/content',
        '/admission/preview',
      ].sort(),
    );
    expect(Object.keys(doc.paths['/assets/{assetId}/content']).sort()).toEqual(['get', 'head']);
    expect(doc.components.schemas.PublicError.additionalProperties).toBe(false);
    expect(doc.components.schemas.ReferenceInput.additionalProperties).toBe(false);
    expect(doc.components.schemas.PromptOptimizationRequest.additionalProperties).toBe(false);
    expect(doc.components.schemas.PromptOptimizationResponse.additionalProperties).toBe(false);
    expect(doc.components.schemas.MediaJob.required.sort()).toEqual([
      'jobId',
      'jobUrl',
      'requestId',
      'status',
    ]);
    expect(doc.paths['/media/generations'].post.requestBody.content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/MediaGenerationRequest',
    });
  });

  it('is used to validate the responses of this suite', async () => {
    await client.get('/services');
    await client.get('/models');
    expect(client.openapi!.checked).toBeGreaterThan(1);
  });
});
