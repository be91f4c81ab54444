import { describe, expect, it } from 'vitest';
import {
  variationGroupId,
  variationKey,
  variationSeed,
} from '../../../src/main/core/creating/variation-keys.js';

const DRAFT_KEY = 'draft-5f0c6b1e-2f7a-4d8e-9a51-0c3f2b7d9e10-8d1f6a0b-7c2e-4b9d-a3f5-1e6c0d9b2a47';
const KEY_SHAPE = /^[A-Za-z0-9._:-]{8,128}$/;

describe('variation keys', () => {
  it('derives one key per index from the draft key, the same every time, within the spec charset', () => {
    const keys = Array.from({ length: 8 }, (_, i) => variationKey(DRAFT_KEY, i));
    expect(keys[0]).toBe(`${DRAFT_KEY}.v0`);
    expect(new Set(keys).size).toBe(8);
    expect(keys).not.toContain(DRAFT_KEY);
    for (const key of keys) expect(key).toMatch(KEY_SHAPE);
    expect(Array.from({ length: 8 }, (_, i) => variationKey(DRAFT_KEY, i))).toEqual(keys);
    expect(variationKey(`${DRAFT_KEY}x`, 0)).not.toBe(keys[0]);
  });

  it('falls back to a hash of the draft key when the key would be too long or hold other characters', () => {
    for (const draftKey of ['k'.repeat(200), 'draft key with spaces/and slashes', 'é-clé-brouillon']) {
      const a = variationKey(draftKey, 3);
      expect(a).toMatch(KEY_SHAPE);
      expect(a.endsWith('.v3')).toBe(true);
      expect(variationKey(draftKey, 3)).toBe(a);
      expect(variationKey(draftKey, 4)).not.toBe(a);
    }
    expect(variationKey('k'.repeat(200), 0)).not.toBe(variationKey('k'.repeat(201), 0));
  });

  it("starts at the draft's own seed and counts on, wrapping within 0..2147483647", () => {
    expect([0, 1, 2].map((i) => variationSeed(DRAFT_KEY, 42, i))).toEqual([42, 43, 44]);
    expect([0, 1, 2].map((i) => variationSeed(DRAFT_KEY, 2147483646, i))).toEqual([
      2147483646, 2147483647, 0,
    ]);
    expect(variationSeed(DRAFT_KEY, 0, 0)).toBe(0);
  });

  it('derives the seeds from the draft key when the draft has none: stable, distinct, in range', () => {
    const seeds = Array.from({ length: 8 }, (_, i) => variationSeed(DRAFT_KEY, null, i));
    expect(Array.from({ length: 8 }, (_, i) => variationSeed(DRAFT_KEY, undefined, i))).toEqual(seeds);
    expect(new Set(seeds).size).toBe(8);
    for (const seed of seeds) {
      expect(Number.isInteger(seed)).toBe(true);
      expect(seed).toBeGreaterThanOrEqual(0);
      expect(seed).toBeLessThanOrEqual(2147483647);
    }
    expect(variationSeed(`${DRAFT_KEY}-other`, null, 0)).not.toBe(seeds[0]);
    // a seed outside the spec's range is not the draft's seed: the key decides
    expect(variationSeed(DRAFT_KEY, -5, 0)).toBe(seeds[0]);
    expect(variationSeed(DRAFT_KEY, 2 ** 31, 0)).toBe(seeds[0]);
  });

  it('names one group per draft key', () => {
    expect(variationGroupId(DRAFT_KEY)).toBe(variationGroupId(DRAFT_KEY));
    expect(variationGroupId(DRAFT_KEY)).not.toBe(variationGroupId(`${DRAFT_KEY}x`));
    expect(variationGroupId(DRAFT_KEY)).toMatch(/^vg-[0-9a-f]{32}$/);
  });
});
