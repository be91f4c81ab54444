import { describe, expect, it } from 'vitest';
import { CallPacer } from '../../../src/main/host/call-pacing.js';

const pacing = { callsPerSecond: 10, burstCalls: 30, bytesPerCall: 64 * 1024, maxWaitMs: 2000 };

describe('pacing a person’s bridge calls', () => {
  it('lets a burst through at once, then paces calls to the steady rate', () => {
    let now = 0;
    const pacer = new CallPacer(pacing, () => now);
    for (let i = 0; i < 30; i += 1) expect(pacer.reserve('a', 100)).toBe(0);
    expect(pacer.reserve('a', 100)).toBeCloseTo(100);
    expect(pacer.reserve('a', 100)).toBeCloseTo(200);
    // another person is not paced by the first one's calls
    expect(pacer.reserve('b', 100)).toBe(0);
    now += 1000;
    expect(pacer.reserve('a', 100)).toBe(0);
  });

  it('counts a large body as several calls, and refuses a turn further away than the longest wait', () => {
    let now = 0;
    const pacer = new CallPacer(pacing, () => now);
    expect(pacer.cost(190_000)).toBe(3);
    expect(pacer.cost(12 * 1024 * 1024)).toBe(30);
    for (let i = 0; i < 10; i += 1) expect(pacer.reserve('a', 190_000)).toBe(0);
    // the bucket is empty: each 190 kB save waits 300 ms more than the one before
    expect(pacer.reserve('a', 190_000)).toBeCloseTo(300);
    for (let i = 0; i < 5; i += 1) pacer.reserve('a', 190_000);
    expect(pacer.reserve('a', 190_000)).toBeUndefined();
    now += 10_000;
    expect(pacer.reserve('a', 190_000)).toBe(0);
  });

  it('a person polling twice a second and saving as they type never waits', () => {
    let now = 0;
    const pacer = new CallPacer(pacing, () => now);
    for (let tick = 0; tick < 600; tick += 1) {
      now = tick * 500;
      expect(pacer.reserve('p', 200)).toBe(0);
      expect(pacer.reserve('p', 200)).toBe(0);
      expect(pacer.reserve('p', 8_000)).toBe(0);
    }
  });

  it('keeps no bucket for a person idle long enough, once many people came and went', () => {
    let now = 0;
    const pacer = new CallPacer(pacing, () => now);
    for (let i = 0; i < 1024; i += 1) pacer.reserve(`p${i}`, 0);
    now += 1000;
    pacer.reserve('late', 0);
    expect(pacer.size).toBe(1);
  });
});
