import i18next from 'i18next';
import { describe, expect, test } from 'vitest';
import { MediaSpecContract } from '../../../src/shared/api/media-spec-contract.js';
import {
  DraftInvalidError,
  VIOLATION_CODES,
  buildMediaGenerationRequest,
  buildOptimizationRequest,
  resolveEffectiveLimits,
  validateDraft,
  type Violation,
} from '../../../src/shared/h3/index.js';
import { en } from '../../../src/renderer/src/i18n/locales/en.js';
import { studioEn } from '../../../src/renderer/src/i18n/locales/studio-en.js';
import { studioZhCN } from '../../../src/renderer/src/i18n/locales/studio-zh-CN.js';
import { storyboardsEn } from '../../../src/renderer/src/i18n/locales/storyboards-en.js';
import { storyboardsZhCN } from '../../../src/renderer/src/i18n/locales/storyboards-zh-CN.js';
import { trimEn } from '../../../src/renderer/src/i18n/locales/trim-en.js';
import { trimZhCN } from '../../../src/renderer/src/i18n/locales/trim-zh-CN.js';
import { referenceTrimEn } from '../../../src/renderer/src/i18n/locales/reference-trim-en.js';
import { referenceTrimZhCN } from '../../../src/renderer/src/i18n/locales/reference-trim-zh-CN.js';
import { soundtrackEn } from '../../../src/renderer/src/i18n/locales/soundtrack-en.js';
import { soundtrackZhCN } from '../../../src/renderer/src/i18n/locales/soundtrack-zh-CN.js';
import { deliveriesEn } from '../../../src/renderer/src/i18n/locales/deliveries-en.js';
import { deliveriesZhCN } from '../../../src/renderer/src/i18n/locales/deliveries-zh-CN.js';
import { reviewEn } from '../../../src/renderer/src/i18n/locales/review-en.js';
import { reviewZhCN } from '../../../src/renderer/src/i18n/locales/review-zh-CN.js';
import { timelineEn } from '../../../src/renderer/src/i18n/locales/timeline-en.js';
import { timelineZhCN } from '../../../src/renderer/src/i18n/locales/timeline-zh-CN.js';
import { teamEn } from '../../../src/renderer/src/i18n/locales/team-en.js';
import { teamZhCN } from '../../../src/renderer/src/i18n/locales/team-zh-CN.js';
import { zhCN } from '../../../src/renderer/src/i18n/locales/zh-CN.js';
import { MiB, audio, draft, image, many, mov, universal, uploadedAll, video } from '../h3/fixtures.js';

function flatten(tree: object, prefix = ''): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(tree)) {
    if (value !== null && typeof value === 'object') Object.assign(out, flatten(value, `${prefix}${key}.`));
    else out[`${prefix}${key}`] = String(value);
  }
  return out;
}

const placeholders = (text: string): string[] =>
  [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1] as string).sort();

// the Team screen's own strings are merged into `team` by its lazy chunk (screens/team/team-i18n.ts),
// Storyboard Helper's into `storyboards` by the Sequences chunk (screens/sequences/storyboards-i18n.ts),
// the trim strip's into `trim` and the sound track's into `soundtrack` by the same chunk
// (screens/sequences/trim-i18n.ts, soundtrack-i18n.ts),
// Create's reference trim into `referenceTrim` by its own chunk (screens/create/reference-trim-i18n.ts),
// the deliveries' into `deliveries` by their chunks (screens/sequences/deliveries-i18n.ts),
// reviewing takes' into `review` by the Library's chunk (screens/library/review-i18n.ts),
// and the timeline's into `timeline` by the Sequences chunk (screens/sequences/timeline/timeline-i18n.ts)
const english = {
  ...flatten({ ...en, ...studioEn }),
  ...flatten(teamEn),
  ...flatten(storyboardsEn),
  ...flatten(trimEn),
  ...flatten(referenceTrimEn),
  ...flatten(soundtrackEn),
  ...flatten(deliveriesEn),
  ...flatten(reviewEn),
  ...flatten(timelineEn),
};
const chinese = {
  ...flatten({ ...zhCN, ...studioZhCN }),
  ...flatten(teamZhCN),
  ...flatten(storyboardsZhCN),
  ...flatten(trimZhCN),
  ...flatten(referenceTrimZhCN),
  ...flatten(soundtrackZhCN),
  ...flatten(deliveriesZhCN),
  ...flatten(reviewZhCN),
  ...flatten(timelineZhCN),
};

describe('English and Simplified Chinese catalogues', () => {
  test('every English string has a Chinese translation with the same placeholders', () => {
    const missing = Object.keys(english).filter((key) => !(key in chinese));
    expect(missing).toEqual([]);
    const mismatched = Object.keys(english)
      .filter((key) => placeholders(english[key]!).join() !== placeholders(chinese[key]!).join())
      .map((key) => `${key}: ${placeholders(english[key]!).join()} | ${placeholders(chinese[key]!).join()}`);
    expect(mismatched).toEqual([]);
  });

  test('every rules-engine violation code has a Chinese message', () => {
    const missing = VIOLATION_CODES.filter((code) => !chinese[`violation.${code.replaceAll('.', '__')}`]);
    expect(missing).toEqual([]);
  });
});

/** Each violation the engine emits here, for the drafts below. */
function violationsOf(): Violation[] {
  const limits = resolveEffectiveLimits();
  const withExtras = resolveEffectiveLimits(
    MediaSpecContract.parse({
      parameters: [
        { name: 'prompt', type: 'string', required: true },
        { name: 'seconds', type: 'integer', minimum: 5, maximum: 15 },
        { name: 'motionStrength', type: 'integer', minimum: 1, maximum: 10 },
        { name: 'cameraMotion', type: 'enum', values: ['static', 'pan'] },
        { name: 'negativePrompt', type: 'string', maxLength: 5 },
        { name: 'style', type: 'string', required: true },
      ],
    }),
  );
  const drafts = [
    draft({ prompt: '   ' }),
    draft({ prompt: '🎬'.repeat(7001) }),
    draft({ seconds: 4.5 }),
    draft({ seconds: 99 }),
    draft({ seed: -1 }),
    draft({ seed: 'x' as unknown as number }),
    draft({ orientation: 'diagonal' as 'landscape' }),
    draft({ resolutionTier: '4k' }),
    draft({ generationMode: 'morph' }),
    draft({ generationMode: 'i2v' }),
    draft({ generationMode: 'first_last_frame_video', firstFrame: image({ mimeType: 'image/gif' }) }),
    draft({ generationMode: 'i2v', firstFrame: image({ byteSize: 16 * MiB + 1 }) }),
    universal([]),
    universal([audio()]),
    universal(many(13, () => image())),
    universal([...many(9, () => image()), video()]),
    universal([image(), video(), video()]),
    universal([image(), ...many(4, () => audio())]),
    universal([image(), audio({ durationSeconds: 8 }), audio({ durationSeconds: 8 })]),
    universal([image(), audio({ durationSeconds: 1 }), audio({ durationSeconds: 16 })]),
    universal([image({ mimeType: 'image/gif' }), mov(false), image({ byteSize: 40 * MiB })]),
    universal([image(), audio({ durationSeconds: undefined })]),
    universal([image({ sha256: 'same' }), image({ sha256: 'same' })]),
    universal([video({ durationSeconds: 1 }), video({ durationSeconds: 60 })]),
  ];
  const tightened = resolveEffectiveLimits(
    MediaSpecContract.parse({
      prompt: { minCodePoints: 10 },
      parameters: [
        { name: 'seconds', type: 'enum', values: [5, 10] },
        { name: 'seed', type: 'enum', values: [1, 2] },
      ],
      modes: {
        t2v: {},
        keyframes: { frames: { middle_image_asset_id: 'middle_frame' } },
        universal_reference_video: {},
      },
      effectiveSpec: {
        canvases: {
          '768p': { landscape: { width: 1376, height: 768 }, portrait: { width: 768, height: 1376 } },
          '1080p': { landscape: { width: 1920, height: 1080 } },
        },
      },
      uploadLimits: {
        reference_video: { minSeconds: 2, maxSeconds: 10, maxTotalSeconds: 12 },
        reference_image: { minSeconds: 1, maxSeconds: 2, maxTotalSeconds: 3 },
      },
    }),
  );
  const out = drafts.flatMap((d) => validateDraft(d, limits));
  out.push(
    ...validateDraft(draft({ model: '', prompt: 'short', seconds: 7, seed: 3 }), tightened),
    ...validateDraft(draft({ generationMode: 'keyframes' }), tightened),
    ...validateDraft(draft({ resolutionTier: '1080p', orientation: 'portrait' }), tightened),
    ...validateDraft(
      universal([
        video({ durationSeconds: 1 }),
        video({ durationSeconds: 12 }),
        image({ durationSeconds: 0.5 }),
        image({ durationSeconds: 3 }),
      ]),
      tightened,
    ),
  );
  out.push(
    ...validateDraft(
      draft({ extra: { fps: 24, prompt: 'x', nope: 1, motionStrength: 0.5, cameraMotion: 'zoom' } }),
      withExtras,
    ),
    ...validateDraft(draft({ extra: { motionStrength: 11, negativePrompt: 'abcdefgh' } }), withExtras),
  );
  const thrown = (fn: () => unknown): Violation[] => {
    try {
      fn();
      return [];
    } catch (error) {
      if (error instanceof DraftInvalidError) return [...error.violations];
      throw error;
    }
  };
  const refs = universal([image({ id: 'a' }), image({ id: 'b' })]);
  out.push(
    ...thrown(() => buildMediaGenerationRequest(refs, new Map(), limits)),
    ...thrown(() =>
      buildMediaGenerationRequest(
        refs,
        new Map([
          ['a', 'asset-1'],
          ['b', 'asset-1'],
        ]),
        limits,
      ),
    ),
    ...thrown(() => buildOptimizationRequest(draft(), new Map(), limits, { clientRequestId: 'bad id!' })),
    ...thrown(() =>
      buildOptimizationRequest(draft(), new Map(), limits, {
        clientRequestId: 'opt-1',
        style: 's'.repeat(500),
      }),
    ),
  );
  const optimizer = (promptOptimization: object, d: ReturnType<typeof draft>, style?: string) =>
    thrown(() =>
      buildOptimizationRequest(d, uploadedAll(d), resolveEffectiveLimits(undefined, promptOptimization), {
        clientRequestId: 'opt-0001',
        style,
      }),
    );
  out.push(
    ...optimizer(
      { profiles: [{ name: 'typed-media/v1', generationModes: ['t2v'] }] },
      draft({ generationMode: 'i2v', firstFrame: image() }),
    ),
    ...optimizer({ style: false }, draft(), 'noir'),
    ...optimizer({ originalPromptMaxCodePoints: 10 }, draft()),
    ...optimizer({ roles: { reference_image: { max: 2 } } }, universal(many(3, () => image()))),
    ...optimizer({ roles: { reference_image: { min: 2 } } }, universal([image()])),
    ...optimizer({ maxItems: 2 }, universal(many(3, () => image()))),
    ...optimizer({ minVisual: 2 }, universal([image(), audio()])),
  );
  return out;
}

describe('Chinese violation messages carry the numbers and names of the violation', () => {
  const violations = violationsOf();
  const t = i18next.createInstance();
  void t.init({
    lng: 'zh-CN',
    resources: { 'zh-CN': { translation: { ...zhCN, ...studioZhCN } } },
    interpolation: { escapeValue: false },
    initImmediate: false,
  });

  test('the drafts above reach most codes of the engine', () => {
    const reached = new Set(violations.map((v) => v.code));
    expect(VIOLATION_CODES.filter((c) => !reached.has(c))).toEqual([]);
  });

  test('every placeholder of a Chinese message is a parameter the engine gives for that code', () => {
    const gaps = violations.flatMap((v) => {
      const template = chinese[`violation.${v.code.replaceAll('.', '__')}`] ?? '';
      return placeholders(template)
        .filter((name) => !(name in v.params))
        .map((name) => `${v.code}: {{${name}}}`);
    });
    expect([...new Set(gaps)]).toEqual([]);
  });

  test('rendered messages are Chinese, complete, and show the limit that was broken', () => {
    for (const v of violations) {
      const text = t.t(`violation.${v.code.replaceAll('.', '__')}`, { ...v.params });
      expect(text, v.code).not.toMatch(/\{\{|\}\}/);
      expect(text, v.code).toMatch(/[\u4e00-\u9fff]/);
      for (const key of ['max', 'min', 'maxBytes', 'maxSeconds', 'maxTotalSeconds', 'fileName'] as const) {
        const template = chinese[`violation.${v.code.replaceAll('.', '__')}`]!;
        if (placeholders(template).includes(key)) expect(text, v.code).toContain(String(v.params[key]));
      }
    }
  });

  test('a prompt over the limit says how long it is and what the limit is', () => {
    const tooLong = violations.find((v) => v.code === 'prompt.too_long')!;
    expect(t.t('violation.prompt__too_long', { ...tooLong.params })).toContain('7001');
    expect(t.t('violation.prompt__too_long', { ...tooLong.params })).toContain('7000');
  });
});

describe('counts read as English', () => {
  test('the Queue says "1 job" and "2 jobs"', async () => {
    // a browser module: loaded by a path the node typecheck does not follow
    const i18nModule = '../../../src/renderer/src/i18n/index.js';
    const i18n = ((await import(i18nModule)) as { default: { t(key: string, values: object): string } })
      .default;
    expect(i18n.t('studio.queue.count', { count: 1 })).toBe('1 job');
    expect(i18n.t('studio.queue.count', { count: 2 })).toBe('2 jobs');
  });
});
