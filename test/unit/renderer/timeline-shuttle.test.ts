import { describe, expect, it } from 'vitest';
import {
  SHUTTLE_MAX,
  shuttleRate,
  shuttleStart,
  shuttleTime,
  type ShuttleKey,
} from '../../../src/renderer/src/screens/sequences/timeline/shuttle.js';

/** The rate after a run of key presses from stopped. */
const after = (keys: string) => [...keys].reduce((rate, key) => shuttleRate(rate, key as ShuttleKey), 0);

describe('J/K/L shuttle', () => {
  it('plays forwards with L and backwards with J, at 1× first', () => {
    expect(after('l')).toBe(1);
    expect(after('j')).toBe(-1);
  });

  it('doubles the speed on each further press in the same direction, up to 8×', () => {
    expect(['l', 'll', 'lll', 'llll', 'lllll', 'llllllll'].map(after)).toEqual([1, 2, 4, 8, 8, 8]);
    expect(['j', 'jj', 'jjj', 'jjjj', 'jjjjj'].map(after)).toEqual([-1, -2, -4, -8, -8]);
    expect(SHUTTLE_MAX).toBe(8);
  });

  it('turns round at 1× when the other direction’s key is pressed, whatever the speed', () => {
    expect(after('lllj')).toBe(-1);
    expect(after('jjjl')).toBe(1);
    expect(after('lj')).toBe(-1);
  });

  it('stops on K from any rate, and K while stopped stays stopped', () => {
    expect(after('k')).toBe(0);
    expect(after('lllk')).toBe(0);
    expect(after('jjk')).toBe(0);
    expect(after('jkl')).toBe(1);
    expect(after('lkj')).toBe(-1);
  });
});

describe('the playhead while shuttling', () => {
  it('moves at the rate on the clock, either way', () => {
    expect(shuttleTime(5, -1, 0.5, 15)).toEqual({ seconds: 4.5, ended: false });
    expect(shuttleTime(5, -4, 0.5, 15)).toEqual({ seconds: 3, ended: false });
    expect(shuttleTime(5, 2, 1.5, 15)).toEqual({ seconds: 8, ended: false });
    expect(shuttleTime(5, 1, 0, 15)).toEqual({ seconds: 5, ended: false });
  });

  it('stops at the start going backwards, never before it', () => {
    expect(shuttleTime(1, -1, 1, 15)).toEqual({ seconds: 0, ended: true });
    expect(shuttleTime(1, -8, 3, 15)).toEqual({ seconds: 0, ended: true });
    expect(shuttleTime(1, -1, 0.999, 15).ended).toBe(false);
  });

  it('stops at the end going forwards, never past it', () => {
    expect(shuttleTime(14, 1, 1, 15)).toEqual({ seconds: 15, ended: true });
    expect(shuttleTime(14, 8, 5, 15)).toEqual({ seconds: 15, ended: true });
    expect(shuttleTime(14, 2, 0.25, 15)).toEqual({ seconds: 14.5, ended: false });
  });

  it('does not run backwards when the clock does (a clock read before the start)', () => {
    expect(shuttleTime(5, -1, -0.05, 15)).toEqual({ seconds: 5, ended: false });
    expect(shuttleTime(5, 1, -0.05, 15)).toEqual({ seconds: 5, ended: false });
  });

  it('starts forwards from 0 at the last frame, and backwards not at all from 0', () => {
    expect(shuttleStart(15 - 1 / 24, 1, 15, 24)).toBe(0);
    expect(shuttleStart(15 - 2 / 24, 2, 15, 24)).toBeCloseTo(15 - 2 / 24, 9);
    expect(shuttleStart(0, -1, 15, 24)).toBeNull();
    expect(shuttleStart(-1, -2, 15, 24)).toBeNull();
    expect(shuttleStart(3, -1, 15, 24)).toBe(3);
    expect(shuttleStart(15 - 1 / 24, -1, 15, 24)).toBeCloseTo(15 - 1 / 24, 9);
  });
});
