import { describe, expect, test } from 'vitest';
import { MediaSpecContract } from '../../../src/shared/api/media-spec-contract.js';
import type { VideoDraft } from '../../../src/shared/h3/index.js';
import {
  DraftInvalidError,
  buildMediaGenerationRequest,
  buildOptimizationRequest,
  resolveEffectiveLimits,
} from '../../../src/shared/h3/index.js';
import { audio, brief, draft, image, many, mov, universal, uploadedAll, video } from './fixtures.js';

const limits = resolveEffectiveLimits(undefined, {});

function violationsOf(fn: () => unknown): { code: string; target: unknown }[] {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(DraftInvalidError);
    const err = e as DraftInvalidError;
    expect(err.code).toBe('h3.draft_invalid');
    return brief(err.violations);
  }
  throw new Error('expected DraftInvalidError');
}

describe('buildMediaGenerationRequest', () => {
  test('t2v: exactly the top-level fields, in a fixed order', () => {
    const d = draft();
    const body = buildMediaGenerationRequest(d, new Map(), limits);
    expect(body).toEqual({
      model: 'h3-video',
      generationMode: 't2v',
      prompt: d.prompt,
      resolutionTier: '768p',
      orientation: 'landscape',
      seconds: 5,
    });
    expect(Object.keys(body)).toEqual([
      'model',
      'generationMode',
      'prompt',
      'resolutionTier',
      'orientation',
      'seconds',
    ]);
  });

  test.each([
    [undefined, undefined],
    [null, undefined],
    [0, 0],
    [2147483647, 2147483647],
  ])('seed %s -> %s', (seed, sent) => {
    const body = buildMediaGenerationRequest(draft({ seed }), new Map(), limits);
    expect('seed' in body).toBe(sent !== undefined);
    expect(body.seed).toBe(sent);
  });

  test('the prompt is sent as written (validated after trimming)', () => {
    const prompt = `\n  ${'a'.repeat(7000)}  \n`;
    expect(buildMediaGenerationRequest(draft({ prompt }), new Map(), limits).prompt).toBe(prompt);
  });

  test('i2v: first image only, even when the draft keeps a last frame and references', () => {
    const d = draft({
      generationMode: 'i2v',
      firstFrame: image({ id: 'f' }),
      lastFrame: image({ id: 'l' }),
      references: [image()],
    });
    const body = buildMediaGenerationRequest(d, uploadedAll(d), limits);
    expect(body.input_image_asset_id).toBe('asset-f');
    expect('end_image_asset_id' in body).toBe(false);
    expect('referenceInputs' in body).toBe(false);
  });

  test('first_last_frame_video: first and last images, no references', () => {
    const d = draft({
      generationMode: 'first_last_frame_video',
      firstFrame: image({ id: 'f' }),
      lastFrame: image({ id: 'l' }),
      references: [video()],
    });
    const body = buildMediaGenerationRequest(d, uploadedAll(d), limits);
    expect(body).toMatchObject({ input_image_asset_id: 'asset-f', end_image_asset_id: 'asset-l' });
    expect('referenceInputs' in body).toBe(false);
  });

  test('universal: referenceInputs {role, assetId, mediaType} in list order; audio .mov as reference_audio', () => {
    const d = universal(
      [
        audio({ id: 'a' }),
        image({ id: 'i1' }),
        mov(true, { id: 'm' }),
        video({ id: 'v' }),
        image({ id: 'i2' }),
      ],
      {
        firstFrame: image({ id: 'f' }),
      },
    );
    const body = buildMediaGenerationRequest(d, uploadedAll(d), limits);
    expect(body.referenceInputs).toEqual([
      { role: 'reference_audio', assetId: 'asset-a', mediaType: 'audio' },
      { role: 'reference_image', assetId: 'asset-i1', mediaType: 'image' },
      { role: 'reference_audio', assetId: 'asset-m', mediaType: 'audio' },
      { role: 'reference_video', assetId: 'asset-v', mediaType: 'video' },
      { role: 'reference_image', assetId: 'asset-i2', mediaType: 'image' },
    ]);
    expect('input_image_asset_id' in body).toBe(false);
  });

  test('the body is plain JSON', () => {
    const d = universal([image(), audio()], { seed: 7 });
    const body = buildMediaGenerationRequest(d, uploadedAll(d), limits);
    expect(JSON.parse(JSON.stringify(body))).toEqual(body);
  });

  test('an invalid draft throws, listing every violation', () => {
    expect(
      violationsOf(() => buildMediaGenerationRequest(draft({ prompt: ' ', seconds: 16 }), new Map(), limits)),
    ).toEqual([
      { code: 'prompt.empty', target: 'prompt' },
      { code: 'seconds.out_of_range', target: 'seconds' },
    ]);
  });

  test('forbidden fields are never sent: the builder throws', () => {
    expect(
      violationsOf(() => buildMediaGenerationRequest(draft({ extra: { fps: 24 } }), new Map(), limits)),
    ).toEqual([{ code: 'field.forbidden', target: { field: 'fps' } }]);
  });

  test('a used input that was not uploaded', () => {
    const d = draft({
      generationMode: 'first_last_frame_video',
      firstFrame: image({ id: 'f' }),
      lastFrame: image({ id: 'l' }),
    });
    expect(violationsOf(() => buildMediaGenerationRequest(d, new Map([['f', 'asset-f']]), limits))).toEqual([
      { code: 'upload.missing', target: 'lastFrame' },
    ]);
  });

  test('a reference that was not uploaded', () => {
    const r = image({ id: 'r2' });
    const d = universal([image({ id: 'r1' }), r]);
    expect(violationsOf(() => buildMediaGenerationRequest(d, new Map([['r1', 'x']]), limits))).toEqual([
      { code: 'upload.missing', target: { referenceId: 'r2' } },
    ]);
  });

  test('unused inputs need no upload', () => {
    const d = draft({ firstFrame: image(), references: [image()] });
    expect(() => buildMediaGenerationRequest(d, new Map(), limits)).not.toThrow();
  });

  test('two references that uploaded to the same asset', () => {
    const d = universal([image({ id: 'r1' }), image({ id: 'r2' })]);
    expect(
      violationsOf(() =>
        buildMediaGenerationRequest(
          d,
          new Map([
            ['r1', 'same'],
            ['r2', 'same'],
          ]),
          limits,
        ),
      ),
    ).toEqual([{ code: 'upload.duplicate_asset', target: { referenceId: 'r2' } }]);
  });

  test('13 references are never sent', () => {
    const d = universal([...many(9, image), video(), ...many(3, audio)]);
    expect(() => buildMediaGenerationRequest(d, uploadedAll(d), limits)).toThrow(DraftInvalidError);
  });

  describe('with a live contract', () => {
    const live = resolveEffectiveLimits(
      MediaSpecContract.parse({
        parameters: [
          { name: 'resolutionTier', type: 'enum', values: ['768p', '1080p'] },
          { name: 'cameraMotion', type: 'enum', values: ['static', 'pan'] },
          { name: 'audioMix', type: 'boolean', modes: ['universal_reference_video'] },
        ],
        modes: {
          t2v: {},
          universal_reference_video: {},
          keyframe_video: { frames: { keyframe_asset_id: 'first_frame' } },
        },
      }),
    );

    test('extra parameters that apply are sent after the core fields; others are not', () => {
      const d = draft({ resolutionTier: '1080p', extra: { cameraMotion: 'pan', audioMix: true } });
      const body = buildMediaGenerationRequest(d, new Map(), live);
      expect(body).toEqual({
        model: 'h3-video',
        generationMode: 't2v',
        prompt: d.prompt,
        resolutionTier: '1080p',
        orientation: 'landscape',
        seconds: 5,
        cameraMotion: 'pan',
      });
    });

    test('mode-specific parameter sent in its mode', () => {
      const d = universal([image({ id: 'i' })], { extra: { audioMix: false, cameraMotion: null } });
      const body = buildMediaGenerationRequest(d, uploadedAll(d), live);
      expect(body.audioMix).toBe(false);
      expect('cameraMotion' in body).toBe(false);
    });

    test('a new mode with its own frame field name', () => {
      const d = draft({ generationMode: 'keyframe_video', firstFrame: image({ id: 'k' }) });
      const body = buildMediaGenerationRequest(d, uploadedAll(d), live);
      expect(body.keyframe_asset_id).toBe('asset-k');
      expect('input_image_asset_id' in body).toBe(false);
    });
  });
});

describe('buildOptimizationRequest', () => {
  const opts = { clientRequestId: 'opt-0001' };

  test('t2v: empty referenceInputs and the three H3 mediaSpec keys', () => {
    const d = draft({ seed: 5 });
    expect(buildOptimizationRequest(d, new Map(), limits, opts)).toEqual({
      clientRequestId: 'opt-0001',
      model: 'h3-video',
      generationMode: 't2v',
      originalPrompt: d.prompt,
      mediaSpec: { resolutionTier: '768p', orientation: 'landscape', seconds: 5 },
      referenceInputs: [],
    });
  });

  test('i2v: role first_frame', () => {
    const d = draft({ generationMode: 'i2v', firstFrame: image({ id: 'f' }) });
    expect(buildOptimizationRequest(d, uploadedAll(d), limits, opts).referenceInputs).toEqual([
      { role: 'first_frame', assetId: 'asset-f' },
    ]);
  });

  test('first_last: first_frame then last_frame', () => {
    const d = draft({
      generationMode: 'first_last_frame_video',
      firstFrame: image({ id: 'f' }),
      lastFrame: image({ id: 'l' }),
    });
    expect(buildOptimizationRequest(d, uploadedAll(d), limits, opts).referenceInputs).toEqual([
      { role: 'first_frame', assetId: 'asset-f' },
      { role: 'last_frame', assetId: 'asset-l' },
    ]);
  });

  test('universal with audio: items only {role, assetId}, list order, audio policy', () => {
    const d = universal([image({ id: 'i' }), mov(true, { id: 'm' }), video({ id: 'v' })]);
    const body = buildOptimizationRequest(d, uploadedAll(d), limits, opts);
    expect(body.referenceInputs).toEqual([
      { role: 'reference_image', assetId: 'asset-i' },
      { role: 'reference_audio', assetId: 'asset-m' },
      { role: 'reference_video', assetId: 'asset-v' },
    ]);
    expect(body.audioReferencePolicy).toBe('preserve_without_understanding');
  });

  test('universal without audio: no audio policy', () => {
    const d = universal([image()]);
    expect('audioReferencePolicy' in buildOptimizationRequest(d, uploadedAll(d), limits, opts)).toBe(false);
  });

  test('only the allowed top-level keys', () => {
    const d = universal([image(), audio()], { seed: 1, extra: {} });
    const body = buildOptimizationRequest(d, uploadedAll(d), limits, { ...opts, style: 'noir' });
    expect(Object.keys(body).sort()).toEqual(
      [
        'audioReferencePolicy',
        'clientRequestId',
        'generationMode',
        'mediaSpec',
        'model',
        'originalPrompt',
        'referenceInputs',
        'style',
      ].sort(),
    );
    expect(Object.keys(body.mediaSpec).sort()).toEqual(['orientation', 'resolutionTier', 'seconds']);
  });

  test.each([
    ['', undefined, null],
    ['   ', undefined, null],
    ['noir', 'noir', null],
    ['  noir  ', 'noir', null],
    ['s'.repeat(200), 's'.repeat(200), null],
    ['😀'.repeat(200), '😀'.repeat(200), null],
    ['s'.repeat(201), undefined, 'optimization.style_length'],
  ])('style %j', (style, sent, code) => {
    const d = draft();
    if (code) {
      expect(violationsOf(() => buildOptimizationRequest(d, new Map(), limits, { ...opts, style }))).toEqual([
        { code, target: { field: 'style' } },
      ]);
    } else {
      expect(buildOptimizationRequest(d, new Map(), limits, { ...opts, style }).style).toBe(sent);
    }
  });

  test('style when the profile takes none', () => {
    const l = resolveEffectiveLimits(undefined, { style: false });
    expect(
      violationsOf(() => buildOptimizationRequest(draft(), new Map(), l, { ...opts, style: 'noir' })),
    ).toEqual([{ code: 'optimization.style_not_allowed', target: { field: 'style' } }]);
  });

  test.each([
    ['1234567', false],
    ['12345678', true],
    ['a'.repeat(128), true],
    ['a'.repeat(129), false],
    ['Az09._:-', true],
    ['has space', false],
    ['ünïcode-id', false],
  ])('clientRequestId %j valid=%s', (clientRequestId, ok) => {
    const build = () => buildOptimizationRequest(draft(), new Map(), limits, { clientRequestId });
    if (ok) expect(build().clientRequestId).toBe(clientRequestId);
    else
      expect(violationsOf(build)).toEqual([
        { code: 'optimization.client_request_id', target: { field: 'clientRequestId' } },
      ]);
  });

  test('not offered by the service', () => {
    expect(
      violationsOf(() => buildOptimizationRequest(draft(), new Map(), resolveEffectiveLimits(), opts)),
    ).toEqual([{ code: 'optimization.unavailable', target: 'generationMode' }]);
  });

  test('mode not in the optimization profiles', () => {
    const l = resolveEffectiveLimits(undefined, {
      profiles: [{ name: 'typed-media/v1', generationModes: ['t2v'] }],
    });
    const d = draft({ generationMode: 'i2v', firstFrame: image() });
    expect(violationsOf(() => buildOptimizationRequest(d, uploadedAll(d), l, opts))).toEqual([
      { code: 'optimization.mode_unsupported', target: 'generationMode' },
    ]);
  });

  test('seed and extra fields do not block an optimization; the prompt limit does', () => {
    const d: VideoDraft = draft({ seed: -1, extra: { fps: 24 } });
    expect(() => buildOptimizationRequest(d, new Map(), limits, opts)).not.toThrow();
    expect(
      violationsOf(() =>
        buildOptimizationRequest({ ...d, prompt: 'a'.repeat(7001) }, new Map(), limits, opts),
      ),
    ).toEqual([{ code: 'prompt.too_long', target: 'prompt' }]);
  });

  test('tighter optimizer roles from promptOptimization', () => {
    const l = resolveEffectiveLimits(undefined, { roles: { reference_image: { max: 2 } } });
    const d = universal(many(3, image));
    expect(violationsOf(() => buildOptimizationRequest(d, uploadedAll(d), l, opts))).toEqual([
      { code: 'optimization.too_many_references', target: 'references' },
    ]);
  });

  test('audio-only universal references are rejected before optimization', () => {
    const d = universal([audio()]);
    expect(violationsOf(() => buildOptimizationRequest(d, uploadedAll(d), limits, opts))).toEqual([
      { code: 'references.visual_required', target: 'references' },
    ]);
  });
});
