import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  runtimeJobBody,
  type RuntimeInputItem,
  type RuntimeServiceKind,
} from '../../../src/main/core/jobs/runtime-job-body.js';
import { sessionAuth } from '../../../src/main/core/api-clients/runtime/runtime-auth.js';
import { makeMp4, makePng } from '../simulator/fixtures.js';
import { LoopbackStorage } from '../simulator/platform/storage-server.js';
import { RuntimeWorld } from './runtime-world.js';

/**
 * Every creation request Framewright builds (H3's four modes, image t2i/i2i, speech, music,
 * Foley), turned into the runtime body by runtimeJobBody, is accepted by the platform's
 * `POST /media/jobs` (the simulator, which applies the spec's runtime rules and the public ones).
 */
let world: RuntimeWorld;
let storage: LoopbackStorage;
let sessionId: string;

beforeAll(async () => {
  world = new RuntimeWorld();
  await world.start();
  storage = new LoopbackStorage();
  await storage.start();
  sessionId = await world.signIn('member');
});
afterAll(async () => {
  await storage.stop();
  await world.close();
});

function input(
  name: string,
  bytes: Buffer,
  mimeType: string,
  role: RuntimeInputItem['role'],
): RuntimeInputItem {
  return {
    readUrl: storage.put(name, bytes, mimeType),
    role,
    mimeType,
    sha256: createHash('sha256').update(bytes).digest('hex'),
    byteSize: bytes.length,
  };
}

const H3 = {
  model: 'h3-video',
  prompt: 'A kite over the dunes',
  resolutionTier: '768p',
  orientation: 'landscape',
  seconds: 5,
};

const CASES: {
  name: string;
  kind: RuntimeServiceKind;
  request: Record<string, unknown>;
  inputs?: () => RuntimeInputItem[];
}[] = [
  { name: 'H3 t2v', kind: 'video_generation', request: { ...H3, generationMode: 't2v', seed: 3 } },
  {
    name: 'H3 i2v first_frame',
    kind: 'video_generation',
    request: { ...H3, generationMode: 'i2v', input_image_asset_id: 'asset_public_not_sent' },
    inputs: () => [input('first.png', makePng(64, 48, [10, 20, 30]), 'image/png', 'first_frame')],
  },
  {
    name: 'H3 first and last frame',
    kind: 'video_generation',
    request: { ...H3, generationMode: 'first_last_frame_video' },
    inputs: () => [
      input('flf-a.png', makePng(64, 48, [40, 20, 30]), 'image/png', 'first_frame'),
      input('flf-b.png', makePng(64, 48, [40, 90, 30]), 'image/png', 'last_frame'),
    ],
  },
  {
    name: 'H3 universal reference',
    kind: 'video_generation',
    request: {
      ...H3,
      generationMode: 'universal_reference_video',
      referenceInputs: [{ role: 'reference_image', assetId: 'asset_public_not_sent', mediaType: 'image' }],
    },
    inputs: () => [input('ref.png', makePng(64, 48, [90, 20, 130]), 'image/png', 'reference_image')],
  },
  {
    name: 'image t2i',
    kind: 'image_generation',
    request: {
      model: 'lumen-image',
      prompt: 'An ink lighthouse',
      generationMode: 't2i',
      orientation: 'landscape',
      imageCount: 1,
    },
  },
  {
    name: 'image i2i',
    kind: 'image_generation',
    request: {
      model: 'lumen-image',
      prompt: 'The same, at night',
      generationMode: 'i2i',
      input_image_asset_ids: ['x'],
    },
    inputs: () => [input('i2i.png', makePng(64, 48, [200, 200, 30]), 'image/png', 'reference_image')],
  },
  {
    name: 'speech',
    kind: 'audio_generation',
    request: {
      model: 'cadence-speech',
      generationMode: 'speech',
      voiceMode: 'text',
      text: 'Welcome to the studio.',
    },
  },
  {
    name: 'music',
    kind: 'audio_generation',
    request: { model: 'cadence-music', prompt: 'A calm piano loop', seconds: 5 },
  },
  {
    name: 'Foley',
    kind: 'audio_generation',
    request: { model: 'cadence-foley', prompt: 'Footsteps on gravel', seconds: 3, input_video_asset_id: 'x' },
    inputs: () => [input('foley.mp4', makeMp4(3), 'video/mp4', 'reference_video')],
  },
];

describe('runtime creation bodies against the platform', () => {
  it.each(CASES)('$name is accepted by POST /media/jobs', async ({ name, kind, request, inputs }) => {
    const clientTaskId = `shape-${name.replace(/\W+/g, '-')}`;
    const body = runtimeJobBody(kind, request, { clientTaskId, inputs: inputs?.() });
    expect(body).not.toHaveProperty('prompt');
    expect(JSON.stringify(body)).not.toMatch(/asset_public_not_sent|"mediaType"|_asset_id/);
    const answer = await world.client.createJob(sessionAuth(sessionId), body, `key-${clientTaskId}`);
    expect(answer.httpStatus).toBe(202);
    expect(answer.body).toMatchObject({ clientTaskId, status: expect.any(String) });
    expect(answer.body.jobRecoveryRef).toEqual(expect.any(String));
    // the same key and body replay the same job (200), never a second one
    const replay = await world.client.createJob(sessionAuth(sessionId), body, `key-${clientTaskId}`);
    expect(replay.httpStatus).toBe(200);
    expect(replay.body.platformJobId).toBe(answer.body.platformJobId);
  });
});
