import { describe, expect, test } from 'vitest';
import { MediaSpecContract } from '../../../src/shared/api/media-spec-contract.js';
import { describeModeSwitch, resolveEffectiveLimits, unusedInputs } from '../../../src/shared/h3/index.js';
import { audio, draft, image, universal, video } from './fixtures.js';

const limits = resolveEffectiveLimits();
const first = image({ id: 'first', fileName: 'first.png' });
const last = image({ id: 'last', fileName: 'last.png' });
const refs = [image({ id: 'r1' }), video({ id: 'r2' }), audio({ id: 'r3' })];
const full = draft({ firstFrame: first, lastFrame: last, references: refs });

describe('describeModeSwitch: what the new mode will not use', () => {
  test.each([
    [
      't2v',
      ['mode_switch.first_frame_unused', 'mode_switch.last_frame_unused', 'mode_switch.references_unused'],
    ],
    ['i2v', ['mode_switch.last_frame_unused', 'mode_switch.references_unused']],
    ['first_last_frame_video', ['mode_switch.references_unused']],
    ['universal_reference_video', ['mode_switch.first_frame_unused', 'mode_switch.last_frame_unused']],
  ])('a draft with every input, switched to %s', (mode, expected) => {
    const d = describeModeSwitch(full, mode, limits);
    expect(d.known).toBe(true);
    expect(d.to).toBe(mode);
    expect(d.unused.map((u) => u.code)).toEqual(expected);
    expect(d.missing).toEqual([]);
  });

  test('references listed as unused carry their ids in list order', () => {
    const [u] = describeModeSwitch(full, 'first_last_frame_video', limits).unused;
    expect(u).toMatchObject({ input: 'references', referenceIds: ['r1', 'r2', 'r3'], params: { count: 3 } });
    expect(u?.message).toMatch(/kept but will not be sent/);
  });

  test('switching never changes the draft', () => {
    const before = JSON.stringify(full);
    describeModeSwitch(full, 't2v', limits);
    expect(JSON.stringify(full)).toBe(before);
  });

  test('what the new mode still needs', () => {
    const onlyRefs = universal([audio()]);
    expect(describeModeSwitch(onlyRefs, 'i2v', limits).missing.map((v) => v.code)).toEqual([
      'mode.first_frame_required',
    ]);
    expect(describeModeSwitch(onlyRefs, 'first_last_frame_video', limits).missing.map((v) => v.code)).toEqual(
      ['mode.first_frame_required', 'mode.last_frame_required'],
    );
    expect(
      describeModeSwitch(draft({ firstFrame: first }), 'universal_reference_video', limits).missing.map(
        (v) => v.code,
      ),
    ).toEqual(['references.visual_required']);
  });

  test('an unknown mode', () => {
    const d = describeModeSwitch(full, 'x', limits);
    expect(d.known).toBe(false);
    expect(d.unused).toEqual([]);
    expect(d.missing.map((v) => v.code)).toEqual(['mode.unknown']);
  });

  test('an empty draft loses nothing', () => {
    expect(describeModeSwitch(draft(), 'universal_reference_video', limits).unused).toEqual([]);
  });

  test('extra fields restricted to other modes are listed', () => {
    const l = resolveEffectiveLimits(
      MediaSpecContract.parse({
        parameters: [{ name: 'audioMix', type: 'boolean', modes: ['universal_reference_video'] }],
      }),
    );
    const d = universal([image()], { extra: { audioMix: true } });
    expect(unusedInputs(d, 'universal_reference_video', l)).toEqual([]);
    expect(unusedInputs(d, 't2v', l)).toEqual([
      expect.objectContaining({ code: 'mode_switch.references_unused', input: 'references' }),
      expect.objectContaining({ code: 'mode_switch.field_unused', input: 'field', field: 'audioMix' }),
    ]);
  });
});
