/**
 * The compare view's parts that need no media element: frame arithmetic at the effective fps, the
 * waveform's peaks, and the markup of the prompt diff and the settings table (rendered to HTML).
 */
import { describe, expect, test } from 'vitest';
import type { JobDetail } from '../../../src/shared/bridge/domains/studio.js';
import {
  DEFAULT_FPS,
  formatClock,
  fpsOf,
  frameAt,
  stepFrame,
} from '../../../src/renderer/src/screens/library/compare/frame-step.js';
import { waveformPeaks } from '../../../src/renderer/src/screens/library/compare/waveform-peaks.js';
import { jobDetail } from '../../support/job-detail.js';

// React, the renderer's i18n and components load by name (as platform-screens.test.ts does): their
// DOM types stay out of this Node-typed test project
type Component<P> = (props: P) => unknown;
const compareDir = '../../../src/renderer/src/screens/library/compare';
const i18nModule = '../../../src/renderer/src/i18n/index.js';
const reactModule = 'react';
const serverModule = 'react-dom/server';
await import(i18nModule);
const { createElement } = (await import(reactModule)) as {
  createElement<P>(component: Component<P>, props: P): unknown;
};
const { renderToStaticMarkup } = (await import(serverModule)) as {
  renderToStaticMarkup(element: unknown): string;
};
const { PromptDiffView } = (await import(`${compareDir}/PromptDiffView.js`)) as {
  PromptDiffView: Component<{ a: string; b: string }>;
};
const { SettingsTable } = (await import(`${compareDir}/SettingsTable.js`)) as {
  SettingsTable: Component<{ a: JobDetail; b: JobDetail }>;
};

describe('frame stepping', () => {
  test('steps at the effective spec’s fps, 24 when it names none', () => {
    expect(fpsOf({ fps: 30 })).toBe(30);
    expect(fpsOf({ width: 1376 })).toBe(DEFAULT_FPS);
    expect(fpsOf(null)).toBe(24);
    expect(fpsOf({ fps: 'fast' })).toBe(24);
    expect(stepFrame(0, 24, 1, 5)).toBeCloseTo(1 / 24, 9);
    expect(stepFrame(1 / 24, 24, 1, 5)).toBeCloseTo(2 / 24, 9);
    expect(stepFrame(0.5, 30, -1, 5)).toBeCloseTo(14 / 30, 9);
  });

  test('a time read back a hair below a frame is that frame (Chromium keeps microseconds)', () => {
    expect(frameAt(0.041666, 24)).toBe(1);
    expect(stepFrame(0.041666, 24, 1, 5)).toBeCloseTo(2 / 24, 9);
    // mid-frame stays on its frame
    expect(frameAt(0.06, 24)).toBe(1);
  });

  test('never steps before the first frame or past the last', () => {
    expect(stepFrame(0, 24, -1, 5)).toBe(0);
    // 5 s at 24 fps: frames 0..119
    expect(stepFrame(119 / 24, 24, 1, 5)).toBeCloseTo(119 / 24, 9);
    expect(formatClock(61.5)).toBe('1:01.500');
    expect(formatClock(1 / 24)).toBe('0:00.042');
  });
});

describe('waveform peaks', () => {
  test('each column holds the lowest and highest sample of its slice, over every channel', () => {
    const left = Float32Array.from([0, 0.5, -0.25, 0, 0, 0, 0.1, -0.1]);
    const right = Float32Array.from([0, 0, 0, -0.75, 0, 0, 0, 0]);
    expect(waveformPeaks([left, right], 2)).toEqual([
      { min: -0.75, max: 0.5 },
      { min: expect.closeTo(-0.1, 6), max: expect.closeTo(0.1, 6) },
    ]);
    expect(waveformPeaks([new Float32Array(0)], 3)).toEqual([
      { min: 0, max: 0 },
      { min: 0, max: 0 },
      { min: 0, max: 0 },
    ]);
  });
});

/** A finished t2v job of this seed, seconds and prompt (its effective spec names only the fps). */
const detail = (seed: number, seconds: number, prompt: string) =>
  jobDetail({
    rowId: seed,
    jobId: `job_${seed}`,
    requestId: `req_${seed}`,
    requested: { prompt, seconds, seed },
    effectiveSpec: { fps: 24 },
  });

describe('the compare markup', () => {
  test('the prompt diff marks removals and additions with del/ins and words, not color alone', () => {
    const html = renderToStaticMarkup(createElement(PromptDiffView, { a: 'a red door', b: 'a blue door' }));
    expect(html).toContain('data-testid="compare-prompt-diff"');
    expect(html).toMatch(
      /<del[^>]*><span class="sr-only">only in A: <\/span>red<span class="sr-only"> \(end\)<\/span><\/del>/,
    );
    expect(html).toMatch(/<ins[^>]*><span class="sr-only">only in B: <\/span>blue/);
    expect(html).toContain('1 words only in A (struck through), 1 only in B (underlined).');
  });

  test('the table has one row per differing setting, and says so when none differs', () => {
    const html = renderToStaticMarkup(
      createElement(SettingsTable, { a: detail(42, 5, 'same'), b: detail(7, 10, 'same') }),
    );
    const rows = [...html.matchAll(/data-testid="compare-setting-([^"]+)"/g)].map((m) => m[1]);
    expect(rows).toEqual(['seconds', 'seed']);
    expect(html).toContain(
      '<th scope="row">Seed</th><td class="compare-value">42</td><td class="compare-value">7</td>',
    );
    const none = renderToStaticMarkup(
      createElement(SettingsTable, { a: detail(42, 5, 'same'), b: detail(42, 5, 'same') }),
    );
    expect(none).toContain('data-testid="compare-settings-none"');
    expect(none).not.toContain('data-testid="compare-setting-');
  });
});
