import { describe, expect, it } from 'vitest';
import { byRating, type JobMarks } from '../../../src/shared/library-marks.js';

const take = (name: string, marks: Partial<JobMarks>) => ({
  name,
  marks: { flag: null, stars: 0, label: null, ...marks },
});

describe('the Library sorted by rating (issue 41)', () => {
  it('puts more stars first, then picks before the unflagged before rejects, else keeps the order', () => {
    const sorted = byRating([
      take('newest, unrated', {}),
      take('rejected five', { flag: 'reject', stars: 5 }),
      take('three', { stars: 3 }),
      take('picked five', { flag: 'pick', stars: 5 }),
      take('older, unrated', {}),
      take('picked, unrated', { flag: 'pick' }),
    ]);
    expect(sorted.map((t) => t.name)).toEqual([
      'picked five',
      'rejected five',
      'three',
      'picked, unrated',
      'newest, unrated',
      'older, unrated',
    ]);
  });
});
