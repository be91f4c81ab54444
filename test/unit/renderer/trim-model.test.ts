import { describe, expect, it } from 'vitest';
import {
  boundaryAt,
  initialRange,
  rangeSeconds,
  trimKey,
  withIn,
  withOut,
} from '../../../src/renderer/src/screens/sequences/trim-model.js';

const trim = { inSeconds: 0.5, outSeconds: 3, inFrame: 12, outFrame: 72, seconds: 2.5 };

describe('trim strip arithmetic', () => {
  it('starts from the shot’s trim, else its whole result', () => {
    expect(initialRange({ trim, frameCount: 120 })).toEqual({ inFrame: 12, outFrame: 72 });
    expect(initialRange({ trim: null, frameCount: 120 })).toEqual({ inFrame: 0, outFrame: 120 });
  });

  it('keeps at least one frame between the handles and stays inside the result', () => {
    const range = { inFrame: 12, outFrame: 72 };
    expect(withIn(range, 80)).toEqual({ inFrame: 71, outFrame: 72 });
    expect(withIn(range, -3)).toEqual({ inFrame: 0, outFrame: 72 });
    expect(withOut(range, 5, 120)).toEqual({ inFrame: 12, outFrame: 13 });
    expect(withOut(range, 500, 120)).toEqual({ inFrame: 12, outFrame: 120 });
    expect(boundaryAt(0.5, 120)).toBe(60);
    expect(boundaryAt(1.2, 120)).toBe(120);
    expect(boundaryAt(Number.NaN, 120)).toBe(0);
  });

  it('sets in at the playhead with I, out after the playhead’s frame with O, and steps frames with ←/→', () => {
    const state = { range: { inFrame: 12, outFrame: 72 }, playhead: 30, frameCount: 120 };
    expect(trimKey('i', state)).toEqual({ range: { inFrame: 30, outFrame: 72 }, playhead: 30 });
    expect(trimKey('O', state)).toEqual({ range: { inFrame: 12, outFrame: 31 }, playhead: 30 });
    // past the out point, I pushes it along; before the in point, O pulls it along
    expect(trimKey('I', { ...state, playhead: 90 })!.range).toEqual({ inFrame: 90, outFrame: 91 });
    expect(trimKey('o', { ...state, playhead: 5 })!.range).toEqual({ inFrame: 5, outFrame: 6 });
    expect(trimKey('ArrowRight', state)!.playhead).toBe(31);
    expect(trimKey('ArrowLeft', { ...state, playhead: 0 })!.playhead).toBe(0);
    expect(trimKey('ArrowRight', { ...state, playhead: 119 })!.playhead).toBe(119);
    expect(trimKey('x', state)).toBeUndefined();
  });

  it('sends seconds the core snaps back to the same frames', () => {
    expect(rangeSeconds({ inFrame: 12, outFrame: 72 }, 24)).toEqual({ inSeconds: 0.5, outSeconds: 3 });
    const ntsc = 30000 / 1001;
    const { inSeconds, outSeconds } = rangeSeconds({ inFrame: 31, outFrame: 149 }, ntsc);
    expect(Math.round(inSeconds * ntsc)).toBe(31);
    expect(Math.round(outSeconds * ntsc)).toBe(149);
  });
});
