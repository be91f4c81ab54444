import { describe, expect, it } from 'vitest';
import { percentile } from '../../../bench/measure.js';

describe('percentile (the platform bench’s p50/p95)', () => {
  it('answers the nearest-rank value, whatever the order of the samples', () => {
    const samples = [7, 1, 10, 3, 9, 2, 8, 4, 6, 5]; // 1..10, shuffled
    expect(percentile(samples, 50)).toBe(5);
    expect(percentile(samples, 95)).toBe(10);
    expect(percentile(samples, 90)).toBe(9);
    expect(percentile(samples, 0)).toBe(1);
    expect(percentile(samples, 100)).toBe(10);
    expect(samples).toEqual([7, 1, 10, 3, 9, 2, 8, 4, 6, 5]); // not sorted in place
  });

  it('is the slow tail at 95 % of 100 samples, not the slowest one', () => {
    const samples = Array.from({ length: 100 }, (_, i) => (i < 95 ? 1 : 1000 + i));
    expect(percentile(samples, 95)).toBe(1);
    expect(percentile(samples, 96)).toBe(1095);
  });

  it('is NaN without samples (a phase that made no call is not reported as 0 ms)', () => {
    expect(percentile([], 50)).toBeNaN();
    expect(percentile([42], 95)).toBe(42);
  });
});
