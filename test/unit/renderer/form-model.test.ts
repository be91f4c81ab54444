import { describe, expect, it } from 'vitest';
import type { DraftForm, ServiceEntryView } from '../../../src/shared/bridge/contract.js';
import { H3_MEDIA_SPEC_CONTRACT } from '../../../src/simulator/catalog.js';
import { fitForm, limitsOf, toVideoDraft } from '../../../src/renderer/src/screens/create/form-model.js';
import { diffWords } from '../../../src/renderer/src/screens/create/word-diff.js';
import { validateDraft } from '../../../src/shared/h3/index.js';

const service = (contract: Record<string, unknown>, alias = 'any-video'): ServiceEntryView => ({
  modelAlias: alias,
  serviceKind: 'video_generation',
  available: true,
  availability: 'available',
  displayName: alias,
  mediaSpecContract: contract,
  apiUsageContract: null,
  promptOptimization: null,
});

const empty: DraftForm = {
  profileId: 'simulator',
  model: '',
  generationMode: '',
  prompt: 'A quiet harbour',
  orientation: '',
  seconds: 0,
  resolutionTier: '',
  seed: null,
  references: [],
};

describe('the Create form from a live contract', () => {
  it('takes the contract defaults for a new draft', () => {
    const s = service(H3_MEDIA_SPEC_CONTRACT as Record<string, unknown>);
    const form = fitForm(empty, s, limitsOf(s));
    expect(form).toMatchObject({
      model: 'any-video',
      generationMode: 't2v',
      resolutionTier: '768p',
      orientation: 'landscape',
      seconds: 5,
    });
    expect(validateDraft(toVideoDraft(form), limitsOf(s))).toEqual([]);
  });

  it('a value the contract adds (a new tier, a new mode, a new parameter) works without a code change', () => {
    const contract = structuredClone(H3_MEDIA_SPEC_CONTRACT) as Record<string, unknown> & {
      parameters: { name: string; values?: unknown[]; default?: unknown; type: string }[];
      effectiveSpec: { canvases: Record<string, unknown> };
    };
    contract.parameters.find((p) => p.name === 'resolutionTier')!.values = ['768p', '1080p'];
    contract.parameters.find((p) => p.name === 'resolutionTier')!.default = '1080p';
    contract.effectiveSpec.canvases['1080p'] = {
      landscape: { width: 1920, height: 1080 },
      square: { width: 1080, height: 1080 },
    };
    contract.parameters.push({
      name: 'cameraMotion',
      type: 'enum',
      values: ['static', 'dolly'],
      default: 'static',
    });
    const s = service(contract);
    const limits = limitsOf(s);
    const form = fitForm(empty, s, limits);
    expect(form.resolutionTier).toBe('1080p');
    expect(form.extra).toEqual({ cameraMotion: 'static' });
    expect(validateDraft(toVideoDraft({ ...form, orientation: 'landscape' }), limits)).toEqual([]);
    expect(limits.extraParameters.map((p) => p.name)).toContain('cameraMotion');
  });

  it('keeps references and frames when refitting to another service', () => {
    const s = service(H3_MEDIA_SPEC_CONTRACT as Record<string, unknown>);
    const ref = {
      id: '11111111-1111-4111-8111-111111111111',
      fileName: 'a.png',
      mimeType: 'image/png',
      byteSize: 10,
      kind: 'image' as const,
    };
    const form = fitForm(
      { ...empty, references: [ref], firstFrame: ref, generationMode: 'nope' },
      s,
      limitsOf(s),
    );
    expect(form.references).toEqual([ref]);
    expect(form.firstFrame).toEqual(ref);
    expect(form.generationMode).toBe('t2v');
  });
});

describe('diffWords', () => {
  it('marks only the words that are new in the optimized prompt', () => {
    const parts = diffWords('a red fox', 'a quick red fox jumps');
    expect(parts.filter((p) => p.added).map((p) => p.text)).toEqual(['quick', 'jumps']);
    expect(parts.map((p) => p.text).join('')).toBe('a quick red fox jumps');
  });

  it('handles astral characters and identical text', () => {
    expect(diffWords('🎬 go', '🎬 go').every((p) => !p.added)).toBe(true);
    expect(diffWords('', '🎬').map((p) => [p.text, p.added])).toEqual([['🎬', true]]);
  });
});
