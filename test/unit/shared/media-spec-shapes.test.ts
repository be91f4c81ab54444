/**
 * The renderer reads live `mediaSpecContract`s with plain-TypeScript checks (so that zod stays out
 * of its first chunk); main and the simulator keep the zod schemas. Both must accept and give back
 * the same values: here every key of a valid sample is replaced in turn by each of a set of odd
 * values, and each check must agree with its schema on every one.
 */
import { describe, expect, it } from 'vitest';
import type { ZodType } from 'zod';
import { mediaSpecShapeReaders } from '../../../src/shared/api/contract-vocabulary.js';
import {
  Canvas,
  ContractParameter,
  ModeInputs,
  ReferenceComposition,
  RoleUploadLimit,
} from '../../../src/shared/api/media-spec-contract.js';

const ODD_VALUES: unknown[] = [
  undefined,
  null,
  '',
  'text',
  0,
  -0,
  1,
  -3,
  1.5,
  2 ** 60,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  true,
  false,
  [],
  ['a', 'b'],
  [1, 'a'],
  [1, null],
  [{}],
  {},
  { a: 'x' },
  { a: 1 },
  { first_frame: 'first_frame' },
  { maxItems: 3 },
  { maxItems: 2.5 },
  new Date(0),
  new Map(),
  Object.create(null) as object,
];

const CASES: { name: string; schema: ZodType; sample: Record<string, unknown> }[] = [
  {
    name: 'ContractParameter',
    schema: ContractParameter,
    sample: {
      name: 'seconds',
      type: 'integer',
      required: true,
      description: 'd',
      values: [5, 'ten'],
      minimum: 1,
      maximum: 15,
      maxLength: 10,
      default: 5,
      modes: ['t2v'],
      extra: { kept: true },
    },
  },
  {
    name: 'ReferenceComposition',
    schema: ReferenceComposition,
    sample: { maxItems: 12, maxImages: 9, maxImagesWithVideo: 4, maxVideos: 3, maxAudios: 3, minVisual: 1 },
  },
  {
    name: 'ModeInputs',
    schema: ModeInputs,
    sample: {
      frames: { input_image_asset_id: 'first_frame' },
      referenceInputs: { maxItems: 12, minVisual: 1 },
      maxInputImages: 2,
      note: 'kept',
    },
  },
  { name: 'Canvas', schema: Canvas, sample: { width: 1280, height: 720, label: 'kept' } },
  {
    name: 'RoleUploadLimit',
    schema: RoleUploadLimit,
    sample: { formats: ['image/png'], maxBytes: 1024, minSeconds: 1, maxSeconds: 15, maxTotalSeconds: 15 },
  },
];

describe('plain checks of a mediaSpecContract agree with its zod schemas', () => {
  for (const { name, schema, sample } of CASES) {
    it(`${name}: same verdict and same value on every variant`, () => {
      const read = mediaSpecShapeReaders[name as keyof typeof mediaSpecShapeReaders];
      const variants: unknown[] = [sample, ...ODD_VALUES];
      for (const key of Object.keys(sample)) {
        for (const odd of ODD_VALUES) variants.push({ ...sample, [key]: odd });
        const { [key]: _dropped, ...without } = sample;
        variants.push(without);
      }
      let accepted = 0;
      for (const value of variants) {
        const expected = schema.safeParse(value);
        const actual = read(value);
        expect({ value, accepted: actual !== undefined }).toEqual({ value, accepted: expected.success });
        if (expected.success) {
          accepted += 1;
          expect(actual).toEqual(expected.data);
        }
      }
      // both verdicts occur, so the comparison says something either way
      expect(accepted).toBeGreaterThan(1);
      expect(accepted).toBeLessThan(variants.length);
    });
  }
});
