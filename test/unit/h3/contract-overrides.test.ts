import { describe, expect, test } from 'vitest';
import { MediaSpecContract } from '../../../src/shared/api/media-spec-contract.js';
import {
  H3_DEFAULTS,
  canvasFor,
  isForbiddenField,
  resolveEffectiveLimits,
  validateDraft,
} from '../../../src/shared/h3/index.js';
import { MiB, audio, brief, codes, draft, image, many, universal, video } from './fixtures.js';

/** A contract as the simulator publishes it, parsed with the shared schema. */
const contract = (c: unknown) => MediaSpecContract.parse(c);

describe('fallback to the document H3 numbers', () => {
  test.each([undefined, null, {}])('contract %j resolves to the H3 numbers', (c) => {
    const l = resolveEffectiveLimits(c as MediaSpecContract | null | undefined);
    expect(l.prompt).toEqual({ minCodePoints: 1, maxCodePoints: 7000, trim: true });
    expect(l.seconds).toEqual({ min: 5, max: 15, integer: true });
    expect(l.seed).toEqual({ min: 0, max: 2147483647, integer: true });
    expect(l.resolutionTiers).toEqual(['768p']);
    expect(l.orientations).toEqual(['landscape', 'portrait']);
    expect(Object.keys(l.modes)).toEqual([
      't2v',
      'i2v',
      'first_last_frame_video',
      'universal_reference_video',
    ]);
    expect(l.modes.t2v).toEqual({ frames: {} });
    expect(l.modes.i2v).toEqual({ frames: { input_image_asset_id: 'first_frame' } });
    expect(l.modes.first_last_frame_video).toEqual({
      frames: { input_image_asset_id: 'first_frame', end_image_asset_id: 'last_frame' },
    });
    expect(l.modes.universal_reference_video?.referenceInputs).toEqual({
      maxItems: 12,
      maxImages: 9,
      maxImagesWithVideo: 8,
      maxVideos: 1,
      maxAudios: 3,
      minVisual: 1,
    });
    expect(l.uploadLimits.first_frame).toEqual({
      formats: ['image/jpeg', 'image/png', 'image/webp'],
      maxBytes: 16 * MiB,
    });
    expect(l.uploadLimits.last_frame?.maxBytes).toBe(16 * MiB);
    expect(l.uploadLimits.reference_image?.maxBytes).toBe(30 * MiB);
    expect(l.uploadLimits.reference_video).toEqual({ formats: ['video/mp4'], maxBytes: 50 * MiB });
    expect(l.uploadLimits.reference_audio).toMatchObject({
      maxBytes: 15 * MiB,
      minSeconds: 2,
      maxSeconds: 15,
      maxTotalSeconds: 15,
    });
    expect(canvasFor(l, '768p', 'landscape')).toEqual({ width: 1376, height: 768 });
    expect(canvasFor(l, '768p', 'portrait')).toEqual({ width: 768, height: 1376 });
    expect(l.fps).toBe(24);
    expect(l.maxFrames).toBe(362);
  });

  test('mutating resolved limits never changes the defaults', () => {
    const l = resolveEffectiveLimits();
    l.resolutionTiers.push('x');
    l.uploadLimits.reference_image!.formats.push('image/gif');
    l.modes.universal_reference_video!.referenceInputs!.maxImages = 99;
    l.modes.i2v!.frames.extra = 'x';
    const again = resolveEffectiveLimits();
    expect(again.resolutionTiers).toEqual(['768p']);
    expect(again.uploadLimits.reference_image?.formats).toEqual(['image/jpeg', 'image/png', 'image/webp']);
    expect(again.modes.universal_reference_video?.referenceInputs?.maxImages).toBe(9);
    expect(again.modes.i2v?.frames).toEqual({ input_image_asset_id: 'first_frame' });
    expect(H3_DEFAULTS.resolutionTiers).toEqual(['768p']);
  });

  test.each([
    'fps',
    'FPS',
    'num_frames',
    'numFrames',
    'frame_count',
    'width',
    'height',
    'steps',
    'num_inference_steps',
    'device',
    'runtime',
  ])('%s is forbidden by default', (field) => {
    expect(isForbiddenField(field, resolveEffectiveLimits())).toBe(true);
  });
  test.each(['prompt', 'negativePrompt', 'cameraMotion', 'style'])('%s is not forbidden', (field) => {
    expect(isForbiddenField(field, resolveEffectiveLimits())).toBe(false);
  });
});

describe('values the contract adds work with no code change', () => {
  test('a new resolution tier from the parameter enum', () => {
    const l = resolveEffectiveLimits(
      contract({ parameters: [{ name: 'resolutionTier', type: 'enum', values: ['768p', '1080p'] }] }),
    );
    expect(validateDraft(draft({ resolutionTier: '1080p' }), l)).toEqual([]);
    expect(codes(validateDraft(draft({ resolutionTier: '4k' }), l))).toEqual(['resolutionTier.invalid']);
  });

  test('a new tier and a new canvas from effectiveSpec.canvases', () => {
    const l = resolveEffectiveLimits(
      contract({
        effectiveSpec: {
          canvases: {
            '768p': { landscape: { width: 1376, height: 768 }, portrait: { width: 768, height: 1376 } },
            '1080p': { landscape: { width: 1920, height: 1080 }, square: { width: 1080, height: 1080 } },
          },
        },
      }),
    );
    expect(l.resolutionTiers).toEqual(['768p', '1080p']);
    expect(l.orientations).toEqual(['landscape', 'portrait', 'square']);
    expect(validateDraft(draft({ resolutionTier: '1080p', orientation: 'square' }), l)).toEqual([]);
    expect(canvasFor(l, '1080p', 'square')).toEqual({ width: 1080, height: 1080 });
    expect(canvasFor(l, '1080p', 'portrait')).toBeUndefined();
    // a published tier offers only the orientations it lists
    expect(brief(validateDraft(draft({ resolutionTier: '1080p', orientation: 'portrait' }), l))).toEqual([
      { code: 'orientation.not_for_tier', target: 'orientation' },
    ]);
    expect(brief(validateDraft(draft({ resolutionTier: '768p', orientation: 'square' }), l))).toEqual([
      { code: 'orientation.not_for_tier', target: 'orientation' },
    ]);
  });

  test('H3 fallback canvases never restrict a new orientation the contract publishes', () => {
    const l = resolveEffectiveLimits(
      contract({
        parameters: [{ name: 'orientation', type: 'enum', values: ['landscape', 'portrait', 'square'] }],
      }),
    );
    expect(l.canvasesFromContract).toBe(false);
    expect(validateDraft(draft({ orientation: 'square' }), l)).toEqual([]);
  });

  test('a new orientation from the parameter enum', () => {
    const l = resolveEffectiveLimits(
      contract({
        parameters: [{ name: 'orientation', type: 'enum', values: ['landscape', 'portrait', 'square'] }],
      }),
    );
    expect(validateDraft(draft({ orientation: 'square' }), l)).toEqual([]);
  });

  test('a new mode with its own composition from contract.modes', () => {
    const l = resolveEffectiveLimits(
      contract({
        modes: {
          t2v: {},
          keyframe_video: { frames: { input_image_asset_id: 'first_frame' } },
          moodboard_video: { referenceInputs: { maxItems: 4, maxImages: 4, maxVideos: 0, maxAudios: 0 } },
        },
      }),
    );
    expect(Object.keys(l.modes)).toEqual(['t2v', 'keyframe_video', 'moodboard_video']);
    expect(brief(validateDraft(draft({ generationMode: 'keyframe_video' }), l))).toEqual([
      { code: 'mode.first_frame_required', target: 'firstFrame' },
    ]);
    expect(validateDraft(draft({ generationMode: 'keyframe_video', firstFrame: image() }), l)).toEqual([]);
    expect(
      validateDraft(draft({ generationMode: 'moodboard_video', references: many(4, image) }), l),
    ).toEqual([]);
    expect(
      codes(validateDraft(draft({ generationMode: 'moodboard_video', references: many(5, image) }), l)),
    ).toEqual(['references.too_many_items', 'references.too_many_images']);
    expect(
      codes(validateDraft(draft({ generationMode: 'moodboard_video', references: [video()] }), l)),
    ).toEqual(['references.too_many_videos']);
    // H3 modes the contract no longer lists are unknown now.
    expect(codes(validateDraft(draft({ generationMode: 'i2v', firstFrame: image() }), l))).toEqual([
      'mode.unknown',
    ]);
  });

  test('a new mode from the generationMode enum only takes no assets', () => {
    const l = resolveEffectiveLimits(
      contract({
        parameters: [{ name: 'generationMode', type: 'enum', values: ['t2v', 'i2v', 'loop_video'] }],
      }),
    );
    expect(validateDraft(draft({ generationMode: 'loop_video' }), l)).toEqual([]);
    expect(l.modes.i2v).toEqual({ frames: { input_image_asset_id: 'first_frame' } });
    expect(codes(validateDraft(universal([image()]), l))).toEqual(['mode.unknown']);
  });

  test('a larger maxBytes for a role', () => {
    const l = resolveEffectiveLimits(contract({ uploadLimits: { reference_image: { maxBytes: 40 * MiB } } }));
    expect(validateDraft(universal([image({ byteSize: 40 * MiB })]), l)).toEqual([]);
    expect(codes(validateDraft(universal([image({ byteSize: 40 * MiB + 1 })]), l))).toEqual([
      'reference.too_large',
    ]);
    // formats of the role still fall back to H3
    expect(l.uploadLimits.reference_image?.formats).toEqual(['image/jpeg', 'image/png', 'image/webp']);
  });

  test('a new accepted format (normalized)', () => {
    const l = resolveEffectiveLimits(
      contract({
        uploadLimits: {
          reference_image: { formats: ['image/jpeg', 'image/png', 'image/webp', 'IMAGE/AVIF'] },
        },
      }),
    );
    expect(validateDraft(universal([image({ mimeType: 'image/avif' })]), l)).toEqual([]);
  });

  test('a contract that accepts QuickTime video makes a silent .mov a valid video reference', () => {
    const l = resolveEffectiveLimits(
      contract({ uploadLimits: { reference_video: { formats: ['video/mp4', 'video/quicktime'] } } }),
    );
    const m = video({ mimeType: 'video/quicktime', hasAudioTrack: false });
    expect(validateDraft(universal([m]), l)).toEqual([]);
  });

  test('more images from the contract', () => {
    const l = resolveEffectiveLimits(
      contract({
        modes: {
          universal_reference_video: {
            referenceInputs: { maxItems: 20, maxImages: 16, maxImagesWithVideo: 15 },
          },
        },
      }),
    );
    expect(validateDraft(universal(many(16, image)), l)).toEqual([]);
    expect(validateDraft(universal([...many(15, image), video()]), l)).toEqual([]);
    expect(codes(validateDraft(universal(many(17, image)), l))).toEqual(['references.too_many_images']);
  });

  test('a longer prompt limit', () => {
    const l = resolveEffectiveLimits(contract({ prompt: { maxCodePoints: 10000 } }));
    expect(validateDraft(draft({ prompt: 'a'.repeat(10000) }), l)).toEqual([]);
    expect(codes(validateDraft(draft({ prompt: 'a'.repeat(10001) }), l))).toEqual(['prompt.too_long']);
  });

  test('longer seconds', () => {
    const l = resolveEffectiveLimits(
      contract({ parameters: [{ name: 'seconds', type: 'integer', minimum: 5, maximum: 20 }] }),
    );
    expect(validateDraft(draft({ seconds: 20 }), l)).toEqual([]);
    expect(codes(validateDraft(draft({ seconds: 21 }), l))).toEqual(['seconds.out_of_range']);
  });
});

describe('a contract that tightens a limit is honoured', () => {
  test.each([
    [
      'prompt max 2000',
      { prompt: { maxCodePoints: 2000 } },
      draft({ prompt: 'a'.repeat(2001) }),
      ['prompt.too_long'],
    ],
    ['prompt min 10', { prompt: { minCodePoints: 10 } }, draft({ prompt: 'short' }), ['prompt.too_short']],
    [
      'seconds max 10',
      { parameters: [{ name: 'seconds', type: 'integer', maximum: 10 }] },
      draft({ seconds: 11 }),
      ['seconds.out_of_range'],
    ],
    [
      'seconds only 5 or 10',
      { parameters: [{ name: 'seconds', type: 'enum', values: [5, 10] }] },
      draft({ seconds: 7 }),
      ['seconds.not_allowed'],
    ],
    [
      'seed max 1000',
      { parameters: [{ name: 'seed', type: 'integer', minimum: 0, maximum: 1000 }] },
      draft({ seed: 1001 }),
      ['seed.out_of_range'],
    ],
    [
      'only landscape',
      { parameters: [{ name: 'orientation', type: 'enum', values: ['landscape'] }] },
      draft({ orientation: 'portrait' }),
      ['orientation.invalid'],
    ],
    [
      'max 4 images (with-video limit follows)',
      { modes: { universal_reference_video: { referenceInputs: { maxImages: 4 } } } },
      universal([...many(5, image)]),
      ['references.too_many_images'],
    ],
    [
      'max 4 images, 5 with a video',
      { modes: { universal_reference_video: { referenceInputs: { maxImages: 4 } } } },
      universal([...many(5, image), video()]),
      ['references.too_many_images'],
    ],
    [
      'max 1 audio',
      { modes: { universal_reference_video: { referenceInputs: { maxAudios: 1 } } } },
      universal([image(), audio(), audio()]),
      ['references.too_many_audios'],
    ],
    [
      'max 4 items',
      { modes: { universal_reference_video: { referenceInputs: { maxItems: 4 } } } },
      universal([...many(3, image), audio(), audio()]),
      ['references.too_many_items'],
    ],
    [
      'first frame 8 MiB',
      { uploadLimits: { first_frame: { maxBytes: 8 * MiB } } },
      draft({ generationMode: 'i2v', firstFrame: image({ byteSize: 8 * MiB + 1 }) }),
      ['frame.too_large'],
    ],
    [
      'reference images PNG only',
      { uploadLimits: { reference_image: { formats: ['image/png'] } } },
      universal([image({ mimeType: 'image/jpeg' })]),
      ['reference.format'],
    ],
    [
      'audio clips at least 3 s',
      { uploadLimits: { reference_audio: { minSeconds: 3 } } },
      universal([image(), audio({ durationSeconds: 2.5 })]),
      ['reference.audio_too_short'],
    ],
    [
      'audio 10 s combined',
      { uploadLimits: { reference_audio: { maxTotalSeconds: 10 } } },
      universal([image(), audio({ durationSeconds: 5 }), audio({ durationSeconds: 5.5 })]),
      ['references.audio_total_too_long'],
    ],
  ])('%s', (_name, c, d, expectedCodes) => {
    const l = resolveEffectiveLimits(contract(c));
    expect(codes(validateDraft(d, l))).toEqual(expectedCodes);
    // ...and the same draft is valid under the H3 numbers
    expect(validateDraft(d, resolveEffectiveLimits())).toEqual([]);
  });

  test('prompt trim: false counts white space', () => {
    const l = resolveEffectiveLimits(contract({ prompt: { maxCodePoints: 5, trim: false } }));
    expect(codes(validateDraft(draft({ prompt: ' abcd ' }), l))).toEqual(['prompt.too_long']);
    expect(
      validateDraft(
        draft({ prompt: ' abcd ' }),
        resolveEffectiveLimits(contract({ prompt: { maxCodePoints: 5 } })),
      ),
    ).toEqual([]);
  });

  test('forbidden fields from the contract are added to the H3 list', () => {
    const l = resolveEffectiveLimits(contract({ forbiddenFields: ['guidance_scale'] }));
    expect(isForbiddenField('guidance_scale', l)).toBe(true);
    expect(isForbiddenField('guidanceScale', l)).toBe(true);
    expect(isForbiddenField('fps', l)).toBe(true);
  });

  test('a field the contract publishes as a parameter is no longer forbidden', () => {
    const l = resolveEffectiveLimits(contract({ parameters: [{ name: 'width', type: 'integer' }] }));
    expect(isForbiddenField('width', l)).toBe(false);
    expect(isForbiddenField('height', l)).toBe(true);
  });
});

describe('promptOptimization object', () => {
  test('absent: optimization is not offered', () => {
    expect(resolveEffectiveLimits().optimization.available).toBe(false);
    expect(resolveEffectiveLimits(null, null).optimization.available).toBe(false);
  });
  test('empty object: offered with H3 defaults', () => {
    const o = resolveEffectiveLimits(undefined, {}).optimization;
    expect(o).toMatchObject({
      available: true,
      modes: ['t2v', 'i2v', 'first_last_frame_video', 'universal_reference_video'],
      profileNames: ['typed-media/v1'],
      clientTimeoutSeconds: 180,
      styleAllowed: true,
      style: { minCodePoints: 1, maxCodePoints: 200 },
      maxItems: 12,
    });
    expect(o.roles.reference_image).toEqual({ min: 0, max: 9, maxWithVideo: 8 });
  });
  test('available: false', () => {
    expect(resolveEffectiveLimits(undefined, { available: false }).optimization.available).toBe(false);
  });
  test('profiles, timeout, style and roles are read', () => {
    const o = resolveEffectiveLimits(undefined, {
      clientTimeoutSeconds: 240,
      profiles: [
        {
          name: 'typed-media/v2',
          generationModes: ['t2v', 'universal_reference_video'],
          style: { maxLength: 80 },
        },
      ],
      roles: { reference_image: { max: 4 }, reference_audio: 1 },
    }).optimization;
    expect(o.modes).toEqual(['t2v', 'universal_reference_video']);
    expect(o.profileNames).toEqual(['typed-media/v2']);
    expect(o.clientTimeoutSeconds).toBe(240);
    expect(o.style).toEqual({ minCodePoints: 1, maxCodePoints: 80 });
    expect(o.roles.reference_image).toEqual({ min: 0, max: 4 });
    expect(o.roles.reference_audio).toEqual({ min: 0, max: 1 });
  });
  test('style: false means no style field', () => {
    expect(resolveEffectiveLimits(undefined, { style: false }).optimization.styleAllowed).toBe(false);
  });
});
