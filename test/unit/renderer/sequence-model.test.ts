import { describe, expect, it } from 'vitest';
import type { ServiceEntryView } from '../../../src/shared/bridge/contract.js';
import { shot } from './sequence-fixtures.js';
import { H3_MEDIA_SPEC_CONTRACT } from '../../../src/simulator/catalog.js';
import { limitsOf, toVideoDraft } from '../../../src/renderer/src/screens/create/form-model.js';
import {
  formatSeconds,
  hasVerifiedResult,
  keyboardMoveTarget,
  promptExcerpt,
  shotDuration,
  shotForm,
  shotSecondsChoices,
  shotService,
} from '../../../src/renderer/src/screens/sequences/sequence-model.js';
import { validateDraft } from '../../../src/shared/h3/index.js';

const service = (alias: string, available = true): ServiceEntryView => ({
  modelAlias: alias,
  serviceKind: 'video_generation',
  available,
  availability: available ? 'available' : 'not_available',
  displayName: alias,
  mediaSpecContract: H3_MEDIA_SPEC_CONTRACT as Record<string, unknown>,
  apiUsageContract: null,
  promptOptimization: null,
});

describe('a new shot from the add-shot form', () => {
  it('is a full text-to-video form with Create’s defaults for the first available service', () => {
    const chosen = shotService([service('down', false), service('h3-video')]);
    expect(chosen?.modelAlias).toBe('h3-video');
    const form = shotForm(chosen!, 'simulator', {
      prompt: 'A lighthouse at dusk',
      seconds: 10,
      orientation: 'portrait',
    });
    expect(form).toMatchObject({
      profileId: 'simulator',
      model: 'h3-video',
      generationMode: 't2v',
      prompt: 'A lighthouse at dusk',
      seconds: 10,
      orientation: 'portrait',
      resolutionTier: '768p',
      references: [],
    });
    // what the core will check: the H3 rules pass for the form as built
    expect(validateDraft(toVideoDraft(form), limitsOf(chosen!))).toEqual([]);
  });

  it('keeps seconds the service refuses as typed, so the rules say why instead of a silent change', () => {
    const s = service('h3-video');
    const form = shotForm(s, 'simulator', { prompt: 'x', seconds: 31, orientation: 'landscape' });
    expect(form.seconds).toBe(31);
    expect(validateDraft(toVideoDraft(form), limitsOf(s)).map((v) => v.code)).toContain(
      'seconds.out_of_range',
    );
  });

  it('offers seconds from 5 to 15 only, within what the contract allows', () => {
    const choices = shotSecondsChoices(limitsOf(service('h3-video')));
    expect(choices[0]).toBeGreaterThanOrEqual(5);
    expect(choices[choices.length - 1]).toBeLessThanOrEqual(15);
    expect(choices).toContain(5);
    expect(choices).toContain(15);
    const limits = { ...limitsOf(service('h3-video')) };
    expect(
      shotSecondsChoices({ ...limits, seconds: { min: 1, max: 60, integer: true, values: [4, 8, 12, 16] } }),
    ).toEqual([8, 12]);
  });
});

describe('reordering the strip by keyboard', () => {
  it('moves a focused card one place with Alt+ArrowLeft / Alt+ArrowRight, never past the ends', () => {
    expect(keyboardMoveTarget('ArrowLeft', true, 2, 4)).toBe(1);
    expect(keyboardMoveTarget('ArrowRight', true, 2, 4)).toBe(3);
    expect(keyboardMoveTarget('ArrowLeft', true, 0, 4)).toBeNull();
    expect(keyboardMoveTarget('ArrowRight', true, 3, 4)).toBeNull();
    // plain arrows (and other keys) are left to the page
    expect(keyboardMoveTarget('ArrowLeft', false, 2, 4)).toBeNull();
    expect(keyboardMoveTarget('Enter', true, 2, 4)).toBeNull();
  });
});

describe('a shot card', () => {
  it('offers Continue only once the shot has a verified result', () => {
    expect(hasVerifiedResult(shot())).toBe(false);
    expect(hasVerifiedResult(shot({ state: 'running' }))).toBe(false);
    expect(hasVerifiedResult(shot({ state: 'succeeded' }))).toBe(false);
    expect(hasVerifiedResult(shot({ state: 'succeeded', sha256: 'ab', mediaUrl: '/media/1' }))).toBe(true);
  });

  it('shows the measured duration once generated, else the requested seconds', () => {
    expect(shotDuration(shot({ seconds: 10 }))).toEqual({ seconds: 10, measured: false });
    expect(shotDuration(shot({ seconds: 10, durationSeconds: 10.042 }))).toEqual({
      seconds: 10.042,
      measured: true,
    });
    expect(formatSeconds(10.042)).toBe('10 s');
    expect(formatSeconds(14.5)).toBe('14.5 s');
    expect(formatSeconds(14.042, 2)).toBe('14.04 s');
  });

  it('shows a prompt excerpt on one line, cut with an ellipsis', () => {
    expect(promptExcerpt('A  lighthouse\nat dusk')).toBe('A lighthouse at dusk');
    const long = promptExcerpt('x'.repeat(200), 10);
    expect([...long]).toHaveLength(10);
    expect(long.endsWith('…')).toBe(true);
  });
});
