import { describe, expect, test } from 'vitest';
import { MediaSpecContract } from '../../../src/shared/api/media-spec-contract.js';
import { resolveEffectiveLimits, validateDraft } from '../../../src/shared/h3/index.js';
import { brief, draft } from './fixtures.js';

const limits = resolveEffectiveLimits(
  MediaSpecContract.parse({
    parameters: [
      { name: 'prompt', type: 'string', required: true },
      { name: 'seconds', type: 'integer', minimum: 5, maximum: 15 },
      { name: 'motionStrength', type: 'integer', minimum: 1, maximum: 10 },
      { name: 'guidance', type: 'number', minimum: 0, maximum: 1 },
      { name: 'cameraMotion', type: 'enum', values: ['static', 'pan', 'orbit'] },
      { name: 'loop', type: 'boolean' },
      { name: 'negativePrompt', type: 'string', maxLength: 5 },
      { name: 'audioMix', type: 'boolean', modes: ['universal_reference_video'] },
    ],
  }),
);

const withExtra = (extra: Record<string, unknown>) => draft({ extra });

describe('forbidden H3 fields in extra', () => {
  test.each([
    'fps',
    'FPS',
    'frames',
    'num_frames',
    'numFrames',
    'frame_count',
    'width',
    'height',
    'steps',
    'num_inference_steps',
    'device',
    'gpu',
    'runtime',
    'runtime_settings',
  ])('%s -> field.forbidden', (field) => {
    const v = validateDraft(withExtra({ [field]: 1 }), limits);
    expect(brief(v)).toEqual([{ code: 'field.forbidden', target: { field } }]);
    expect(v[0]?.params).toEqual({ field });
  });

  test('forbidden even without any contract', () => {
    expect(brief(validateDraft(withExtra({ fps: 24, width: 1376 }), resolveEffectiveLimits()))).toEqual([
      { code: 'field.forbidden', target: { field: 'fps' } },
      { code: 'field.forbidden', target: { field: 'width' } },
    ]);
  });
});

describe('reserved and unknown fields', () => {
  test.each([
    'model',
    'prompt',
    'seed',
    'referenceInputs',
    'input_image_asset_id',
    'end_image_asset_id',
    'input_audio_asset_id',
  ])('%s in extra -> field.reserved', (field) => {
    expect(brief(validateDraft(withExtra({ [field]: 'x' }), limits))).toEqual([
      { code: 'field.reserved', target: { field } },
    ]);
  });

  test('a field the contract does not publish -> field.unknown', () => {
    expect(brief(validateDraft(withExtra({ colourGrade: 'teal' }), limits))).toEqual([
      { code: 'field.unknown', target: { field: 'colourGrade' } },
    ]);
  });

  test('null / undefined extra values mean "not set" (and are never sent)', () => {
    expect(validateDraft(withExtra({ motionStrength: null, loop: undefined }), limits)).toEqual([]);
    expect(validateDraft(withExtra({ fps: null, prompt: undefined, colourGrade: null }), limits)).toEqual([]);
  });
});

describe('values of published parameters', () => {
  test.each([
    ['motionStrength', 1, null],
    ['motionStrength', 10, null],
    ['motionStrength', 0, 'field.out_of_range'],
    ['motionStrength', 11, 'field.out_of_range'],
    ['motionStrength', 1.5, 'field.invalid_type'],
    ['motionStrength', '5', 'field.invalid_type'],
    ['guidance', 0.5, null],
    ['guidance', 1.01, 'field.out_of_range'],
    ['cameraMotion', 'pan', null],
    ['cameraMotion', 'zoom', 'field.not_allowed'],
    ['loop', true, null],
    ['loop', 'yes', 'field.invalid_type'],
    ['negativePrompt', 'blur', null],
    ['negativePrompt', '😀😀😀😀😀', null],
    ['negativePrompt', '😀😀😀😀😀😀', 'field.too_long'],
    ['negativePrompt', 5, 'field.invalid_type'],
  ])('%s = %j -> %s', (field, value, code) => {
    expect(brief(validateDraft(withExtra({ [field]: value }), limits))).toEqual(
      code ? [{ code, target: { field } }] : [],
    );
  });

  test('a parameter that applies to other modes only is not validated here', () => {
    expect(validateDraft(withExtra({ audioMix: 'not-a-boolean' }), limits)).toEqual([]);
  });
});

describe('required fields published by the contract', () => {
  const strict = resolveEffectiveLimits(
    MediaSpecContract.parse({
      requiredFields: ['model', 'prompt', 'styleId'],
      parameters: [
        { name: 'styleId', type: 'string' },
        { name: 'shotType', type: 'enum', values: ['wide', 'close'], required: true, modes: ['t2v'] },
      ],
    }),
  );
  test('missing -> field.required, for each', () => {
    expect(brief(validateDraft(draft(), strict))).toEqual([
      { code: 'field.required', target: { field: 'shotType' } },
      { code: 'field.required', target: { field: 'styleId' } },
    ]);
  });
  test('null counts as missing', () => {
    expect(brief(validateDraft(withExtra({ styleId: null, shotType: 'wide' }), strict))).toEqual([
      { code: 'field.required', target: { field: 'styleId' } },
    ]);
  });
  test('a required parameter of another mode is not required', () => {
    expect(
      validateDraft(
        draft({ generationMode: 'i2v', firstFrame: undefined, extra: { styleId: 's' } }),
        strict,
      ).map((v) => v.code),
    ).toEqual(['mode.first_frame_required']);
  });
});
