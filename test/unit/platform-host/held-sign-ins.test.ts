import { describe, expect, it } from 'vitest';
import { HeldSignIns } from '../../../src/main/host/held-sign-ins.js';

/** Sign-ins held for the person's confirmation (login CSRF): taken once, ended when unanswered. */
describe('held sign-ins', () => {
  function rig(holdMs = 1000, max = 3) {
    let now = 0;
    const ended: string[] = [];
    const held = new HeldSignIns<string>(
      holdMs,
      max,
      (s) => ended.push(s),
      () => now,
    );
    return { held, ended, advance: (ms: number) => (now += ms) };
  }

  it('a token gives its session back once, and a token is unguessable', () => {
    const { held, ended } = rig();
    const token = held.hold('s1');
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(held.hold('s2')).not.toBe(token);
    expect(held.take(token)).toBe('s1');
    expect(held.take(token)).toBeUndefined();
    expect(held.take('nope')).toBeUndefined();
    expect(ended).toEqual([]);
  });

  it('a session unanswered past its hold ends and can no longer be confirmed', () => {
    const { held, ended, advance } = rig(1000);
    const token = held.hold('s1');
    advance(999);
    held.sweep();
    expect(ended).toEqual([]);
    advance(1);
    expect(held.take(token)).toBeUndefined();
    expect(ended).toEqual(['s1']);
  });

  it('past its size the oldest gives way (and ends); clear ends the rest', () => {
    const { held, ended } = rig(1000, 2);
    const first = held.hold('s1');
    held.hold('s2');
    held.hold('s3');
    expect(ended).toEqual(['s1']);
    expect(held.take(first)).toBeUndefined();
    expect(held.size).toBe(2);
    held.clear();
    expect(ended).toEqual(['s1', 's2', 's3']);
    expect(held.size).toBe(0);
  });
});
