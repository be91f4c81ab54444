import { describe, expect, test } from 'vitest';
import { resolveEffectiveLimits, validateDraft } from '../../../src/shared/h3/index.js';
import { brief, draft } from './fixtures.js';

const limits = resolveEffectiveLimits();

describe('a baseline draft is valid', () => {
  test('t2v with a prompt and H3 values has no violations', () => {
    expect(validateDraft(draft(), limits)).toEqual([]);
  });
});

describe('prompt: 1..7000 code points after trimming', () => {
  test.each([
    ['1 code point', 'a', []],
    ['1 astral code point', '😀', []],
    ['7000 ASCII', 'a'.repeat(7000), []],
    ['6999 ASCII + one 😀 = 7000', `${'a'.repeat(6999)}😀`, []],
    ['7000 emoji (14000 UTF-16 units)', '😀'.repeat(7000), []],
    ['7000 + surrounding white space', `  \n${'a'.repeat(7000)}\t  `, []],
    ['7001 ASCII', 'a'.repeat(7001), ['prompt.too_long']],
    ['7000 ASCII + one 😀 = 7001', `${'a'.repeat(7000)}😀`, ['prompt.too_long']],
    ['7001 emoji', '😀'.repeat(7001), ['prompt.too_long']],
    ['empty', '', ['prompt.empty']],
    ['white space only', ' \n\t\u00a0 ', ['prompt.empty']],
  ])('%s', (_name, prompt, expected) => {
    const v = validateDraft(draft({ prompt }), limits);
    expect(brief(v)).toEqual(expected.map((code) => ({ code, target: 'prompt' })));
  });

  test('too_long names the count and the limit', () => {
    const [v] = validateDraft(draft({ prompt: `${'a'.repeat(7000)}😀` }), limits);
    expect(v?.params).toEqual({ count: 7001, min: 1, max: 7000 });
    expect(v?.message).toContain('7001');
    expect(v?.message).toContain('7000');
  });

  test('validation never changes the prompt', () => {
    const d = draft({ prompt: `  ${'a'.repeat(7005)}  ` });
    validateDraft(d, limits);
    expect(d.prompt.length).toBe(7009);
  });
});

describe('seconds: integer 5..15', () => {
  test.each([
    [4, 'seconds.out_of_range'],
    [5, null],
    [10, null],
    [15, null],
    [16, 'seconds.out_of_range'],
    [5.5, 'seconds.not_integer'],
    [0, 'seconds.out_of_range'],
    [-5, 'seconds.out_of_range'],
    [Number.NaN, 'seconds.not_integer'],
    [Number.POSITIVE_INFINITY, 'seconds.not_integer'],
  ])('%d -> %s', (seconds, code) => {
    const v = validateDraft(draft({ seconds }), limits);
    expect(brief(v)).toEqual(code ? [{ code, target: 'seconds' }] : []);
  });

  test('a non-number is rejected as not an integer', () => {
    const v = validateDraft(draft({ seconds: '10' as unknown as number }), limits);
    expect(brief(v)).toEqual([{ code: 'seconds.not_integer', target: 'seconds' }]);
  });

  test('params carry the range', () => {
    const [v] = validateDraft(draft({ seconds: 16 }), limits);
    expect(v?.params).toEqual({ value: 16, min: 5, max: 15 });
  });
});

describe('seed: optional integer 0..2147483647', () => {
  test.each([
    [undefined, null],
    [null, null],
    [0, null],
    [42, null],
    [2147483647, null],
    [-1, 'seed.out_of_range'],
    [2147483648, 'seed.out_of_range'],
    [1.5, 'seed.not_integer'],
    [Number.NaN, 'seed.not_integer'],
  ])('%s -> %s', (seed, code) => {
    const v = validateDraft(draft({ seed }), limits);
    expect(brief(v)).toEqual(code ? [{ code, target: 'seed' }] : []);
  });
});

describe('enums from the contract (H3 fallback)', () => {
  test.each([
    ['landscape', null],
    ['portrait', null],
    ['square', 'orientation.invalid'],
    ['Landscape', 'orientation.invalid'],
    ['', 'orientation.invalid'],
  ])('orientation %j -> %s', (orientation, code) => {
    expect(brief(validateDraft(draft({ orientation }), limits))).toEqual(
      code ? [{ code, target: 'orientation' }] : [],
    );
  });

  test.each([
    ['768p', null],
    ['1080p', 'resolutionTier.invalid'],
    ['720p', 'resolutionTier.invalid'],
    ['', 'resolutionTier.invalid'],
  ])('resolutionTier %j -> %s', (resolutionTier, code) => {
    expect(brief(validateDraft(draft({ resolutionTier }), limits))).toEqual(
      code ? [{ code, target: 'resolutionTier' }] : [],
    );
  });

  test('invalid tier lists the allowed values', () => {
    const [v] = validateDraft(draft({ resolutionTier: '1080p' }), limits);
    expect(v?.params).toEqual({ value: '1080p', allowed: '768p' });
    expect(v?.message).toContain('768p');
  });
});

describe('generation mode', () => {
  test.each(['t2i', '', 'T2V', 'universal', 'toString', '__proto__', 'constructor'])(
    'unknown mode %j -> mode.unknown only (no composition checks)',
    (generationMode) => {
      const v = validateDraft(draft({ generationMode }), limits);
      expect(brief(v)).toEqual([{ code: 'mode.unknown', target: 'generationMode' }]);
    },
  );

  test('model alias is required', () => {
    expect(brief(validateDraft(draft({ model: ' ' }), limits))).toEqual([
      { code: 'model.required', target: { field: 'model' } },
    ]);
  });

  test('several problems are all reported, in a stable order', () => {
    const v = validateDraft(
      draft({
        prompt: '',
        seconds: 16,
        seed: -1,
        orientation: 'square',
        resolutionTier: '4k',
        generationMode: 'x',
      }),
      limits,
    );
    expect(v.map((x) => x.code)).toEqual([
      'mode.unknown',
      'prompt.empty',
      'seconds.out_of_range',
      'seed.out_of_range',
      'orientation.invalid',
      'resolutionTier.invalid',
    ]);
  });
});
