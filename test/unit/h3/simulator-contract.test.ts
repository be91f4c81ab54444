/**
 * The H3 contract and promptOptimization object in the shape our simulator publishes them
 * (copied from src/simulator/catalog.ts on 2026-11-22, so this test does not depend on a
 * folder under construction), and the built bodies checked against the shared API schemas.
 */
import { describe, expect, test } from 'vitest';
import { MediaSpecContract } from '../../../src/shared/api/media-spec-contract.js';
import { MediaGenerationRequest } from '../../../src/shared/api/media-jobs.js';
import { PromptOptimizationRequest } from '../../../src/shared/api/prompt-optimization.js';
import type { DraftInvalidError } from '../../../src/shared/h3/index.js';
import {
  buildMediaGenerationRequest,
  buildOptimizationRequest,
  optimizationRolesFor,
  resolveEffectiveLimits,
  validateDraft,
} from '../../../src/shared/h3/index.js';
import { MiB, audio, codes, draft, image, many, mov, universal, uploadedAll, video } from './fixtures.js';

const IMAGE_FORMATS = ['image/png', 'image/jpeg', 'image/webp'];
const SIMULATOR_H3_CONTRACT = {
  version: '2026-11-01',
  profile: 'h3',
  requiredFields: ['model', 'prompt', 'generationMode', 'resolutionTier', 'orientation', 'seconds'],
  forbiddenFields: [
    'fps',
    'frame_rate',
    'frameRate',
    'frames',
    'frame_count',
    'frameCount',
    'num_frames',
    'numFrames',
    'width',
    'height',
    'steps',
    'num_inference_steps',
    'numInferenceSteps',
    'inference_steps',
    'device',
    'devices',
    'gpu',
    'gpus',
    'num_gpus',
    'runtime',
    'runtimeSettings',
    'runtime_settings',
    'precision',
    'dtype',
  ],
  parameters: [
    {
      name: 'generationMode',
      type: 'enum',
      required: true,
      values: ['t2v', 'i2v', 'first_last_frame_video', 'universal_reference_video'],
      default: 't2v',
    },
    { name: 'resolutionTier', type: 'enum', required: true, values: ['768p'], default: '768p' },
    {
      name: 'orientation',
      type: 'enum',
      required: true,
      values: ['landscape', 'portrait'],
      default: 'landscape',
    },
    { name: 'seconds', type: 'integer', required: true, minimum: 5, maximum: 15, default: 5 },
    { name: 'seed', type: 'integer', required: false, minimum: 0, maximum: 2147483647 },
    { name: 'prompt', type: 'string', required: true, maxLength: 7000 },
    {
      name: 'input_image_asset_id',
      type: 'string',
      required: true,
      modes: ['i2v', 'first_last_frame_video'],
    },
    { name: 'end_image_asset_id', type: 'string', required: true, modes: ['first_last_frame_video'] },
    { name: 'referenceInputs', type: 'array', required: true, modes: ['universal_reference_video'] },
  ],
  prompt: { minCodePoints: 1, maxCodePoints: 7000, trim: true },
  modes: {
    t2v: { frames: {} },
    i2v: { frames: { input_image_asset_id: 'first_frame' } },
    first_last_frame_video: {
      frames: { input_image_asset_id: 'first_frame', end_image_asset_id: 'last_frame' },
    },
    universal_reference_video: {
      referenceInputs: {
        maxItems: 12,
        maxImages: 9,
        maxImagesWithVideo: 8,
        maxVideos: 1,
        maxAudios: 3,
        minVisual: 1,
      },
    },
  },
  effectiveSpec: {
    fps: 24,
    maxFrames: 362,
    canvases: { '768p': { landscape: { width: 1376, height: 768 }, portrait: { width: 768, height: 1376 } } },
  },
  uploadLimits: {
    first_frame: { formats: IMAGE_FORMATS, maxBytes: 16 * MiB },
    last_frame: { formats: IMAGE_FORMATS, maxBytes: 16 * MiB },
    reference_image: { formats: IMAGE_FORMATS, maxBytes: 30 * MiB },
    reference_video: { formats: ['video/mp4'], maxBytes: 50 * MiB },
    reference_audio: {
      formats: [
        'audio/wav',
        'audio/mpeg',
        'audio/flac',
        'audio/x-m4a',
        'audio/mp4',
        'audio/aac',
        'audio/ogg',
        'video/quicktime',
      ],
      maxBytes: 15 * MiB,
      minSeconds: 2,
      maxSeconds: 15,
      maxTotalSeconds: 15,
      maxCount: 3,
      movWithAudioField: 'audio',
    },
  },
};
const SIMULATOR_PROMPT_OPTIMIZATION = {
  available: true,
  profiles: [
    {
      name: 'typed-media/v1',
      generationModes: ['t2v', 'i2v', 'first_last_frame_video', 'universal_reference_video'],
      roles: {
        t2v: {},
        i2v: { first_frame: { min: 1, max: 1 } },
        first_last_frame_video: { first_frame: { min: 1, max: 1 }, last_frame: { min: 1, max: 1 } },
        universal_reference_video: {
          reference_image: { min: 0, max: 9, maxWithVideo: 8 },
          reference_video: { min: 0, max: 1 },
          reference_audio: { min: 0, max: 3 },
          minVisual: 1,
          maxItems: 12,
        },
      },
      mediaSpecKeys: ['resolutionTier', 'orientation', 'seconds'],
    },
  ],
  clientTimeoutSeconds: 180,
  expectedDurationSeconds: { min: 0, max: 180 },
  originalPromptMaxCodePoints: 7000,
  optimizedPromptTargetCodePoints: 6000,
  optimizedPromptMaxCodePoints: 7000,
  styleAllowed: true,
  styleMaxCodePoints: 200,
  audioReferencePolicies: ['preserve_without_understanding'],
  clientRequestId: { minLength: 8, maxLength: 128, pattern: '^[A-Za-z0-9._:-]+$' },
  idempotencyKeyEqualsClientRequestId: true,
};

const live = resolveEffectiveLimits(
  MediaSpecContract.parse(SIMULATOR_H3_CONTRACT),
  SIMULATOR_PROMPT_OPTIMIZATION,
);
const h3 = resolveEffectiveLimits(undefined, {});

describe('the simulator contract resolves to the same rules as the document', () => {
  test.each([
    'prompt',
    'seconds',
    'seed',
    'resolutionTiers',
    'orientations',
    'modes',
    'canvases',
    'fps',
    'maxFrames',
  ] as const)('%s', (key) => {
    expect(live[key]).toEqual(h3[key]);
  });

  test('upload limits (formats compared as sets, x-m4a folded into audio/mp4)', () => {
    for (const role of [
      'first_frame',
      'last_frame',
      'reference_image',
      'reference_video',
      'reference_audio',
    ]) {
      expect(new Set(live.uploadLimits[role]?.formats)).toEqual(new Set(h3.uploadLimits[role]?.formats));
      expect(live.uploadLimits[role]?.maxBytes).toBe(h3.uploadLimits[role]?.maxBytes);
    }
  });

  test('core fields published as parameters are not "extra" fields', () => {
    expect(live.extraParameters).toEqual([]);
    expect(validateDraft(draft(), live)).toEqual([]);
  });

  test('forbidden fields, in any spelling', () => {
    expect(codes(validateDraft(draft({ extra: { frameRate: 30, num_gpus: 2 } }), live))).toEqual([
      'field.forbidden',
      'field.forbidden',
    ]);
  });

  test('optimizer roles by mode', () => {
    expect(optimizationRolesFor(live, 'i2v').roles.first_frame).toEqual({ min: 1, max: 1 });
    expect(optimizationRolesFor(live, 'universal_reference_video')).toMatchObject({
      maxItems: 12,
      minVisual: 1,
      roles: { reference_image: { min: 0, max: 9, maxWithVideo: 8 }, reference_audio: { min: 0, max: 3 } },
    });
    expect(live.optimization).toMatchObject({
      available: true,
      clientTimeoutSeconds: 180,
      styleAllowed: true,
      style: { minCodePoints: 1, maxCodePoints: 200 },
      originalPrompt: { minCodePoints: 1, maxCodePoints: 7000 },
      profileNames: ['typed-media/v1'],
    });
  });
});

describe('built bodies satisfy the shared API schemas', () => {
  const drafts = {
    t2v: draft({ seed: 0 }),
    i2v: draft({ generationMode: 'i2v', firstFrame: image() }),
    first_last_frame_video: draft({
      generationMode: 'first_last_frame_video',
      firstFrame: image(),
      lastFrame: image(),
    }),
    universal_reference_video: universal([...many(8, image), video(), audio(), mov(true), audio()]),
  };
  test.each(Object.entries(drafts))('%s', (_mode, d) => {
    const gen = buildMediaGenerationRequest(d, uploadedAll(d), live);
    expect(MediaGenerationRequest.parse(gen)).toEqual(gen);
    const opt = buildOptimizationRequest(d, uploadedAll(d), live, {
      clientRequestId: 'opt:0001',
      style: 'warm noir',
    });
    expect(PromptOptimizationRequest.parse(opt)).toEqual(opt);
  });

  test('optimizer with-video image limit from the profile', () => {
    const tighter = resolveEffectiveLimits(MediaSpecContract.parse(SIMULATOR_H3_CONTRACT), {
      ...SIMULATOR_PROMPT_OPTIMIZATION,
      profiles: [
        {
          name: 'typed-media/v1',
          generationModes: ['universal_reference_video'],
          roles: { universal_reference_video: { reference_image: { max: 9, maxWithVideo: 4 } } },
        },
      ],
    });
    const d = universal([...many(5, image), video()]);
    expect(validateDraft(d, tighter)).toEqual([]);
    try {
      buildOptimizationRequest(d, uploadedAll(d), tighter, { clientRequestId: 'opt:0001' });
      expect.unreachable();
    } catch (e) {
      expect((e as DraftInvalidError).violations.map((v) => [v.code, v.params])).toEqual([
        ['optimization.too_many_references', { role: 'reference_image', count: 5, max: 4 }],
      ]);
    }
  });

  test('optimizer prompt limit from the profile', () => {
    const l = resolveEffectiveLimits(undefined, { originalPromptMaxCodePoints: 100 });
    expect(() =>
      buildOptimizationRequest(draft({ prompt: 'a'.repeat(100) }), new Map(), l, {
        clientRequestId: 'opt:0001',
      }),
    ).not.toThrow();
    try {
      buildOptimizationRequest(draft({ prompt: 'a'.repeat(101) }), new Map(), l, {
        clientRequestId: 'opt:0001',
      });
      expect.unreachable();
    } catch (e) {
      expect((e as DraftInvalidError).violations.map((v) => [v.code, v.target])).toEqual([
        ['optimization.prompt_length', 'prompt'],
      ]);
    }
  });
});
