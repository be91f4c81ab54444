import type { Page } from '@playwright/test';
import { expect, test } from './studio-host';
import { compareTransportDrivesBoth, generateT2v, type MediaElement } from './studio-media';
import { HOST_SESSION_STORAGE_KEY } from '../../src/shared/bridge/browser-host-protocol';
import { MEDIA_WAIT } from './waits';

interface PageStorage {
  sessionStorage: { getItem(key: string): string | null };
}

interface Detail {
  model: string;
  seed: number | null;
  requested: Record<string, unknown>;
  effectiveSpec: unknown;
  queuedSeconds: number | null;
  runningSeconds: number | null;
  elapsedSeconds: number | null;
  references: unknown[];
}

interface TimedMedia extends MediaElement {
  currentTime: number;
}

/** A job's details as the Library reads them (`jobs.get` over the page's own bridge session). */
async function jobDetail(page: Page, jobRowId: number): Promise<Detail> {
  const body = (await page.evaluate(
    async ({ tokenKey, jobRowId }) => {
      const res = await fetch('/bridge/invoke', {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          authorization: `Bearer ${(globalThis as unknown as PageStorage).sessionStorage.getItem(tokenKey)}`,
        },
        body: JSON.stringify({ method: 'jobs.get', params: { jobRowId } }),
      });
      return res.json();
    },
    { tokenKey: HOST_SESSION_STORAGE_KEY, jobRowId },
  )) as { result: Detail };
  return body.result;
}

/**
 * What the table must list, worked out here from the two details: a request field, an effective
 * spec field or a timing (at the 0.1 s the table shows) is listed when A's and B's differ.
 */
function expectedDifferences(a: Detail, b: Detail): string[] {
  const out: string[] = [];
  const text = (v: unknown) =>
    v === undefined || v === null ? null : typeof v === 'string' ? v : JSON.stringify(v);
  const request = (d: Detail, key: string) =>
    key === 'model' ? d.model : key === 'seed' ? d.seed : d.requested[key];
  const inputs = ['input_image_asset_id', 'end_image_asset_id', 'referenceInputs'];
  const keys = ['model', 'generationMode', 'prompt', 'seconds', 'orientation', 'resolutionTier', 'seed'];
  for (const k of new Set([...keys, ...Object.keys(a.requested), ...Object.keys(b.requested)]))
    if (!inputs.includes(k) && text(request(a, k)) !== text(request(b, k))) out.push(k);
  const leaves = (spec: unknown, prefix = ''): [string, unknown][] =>
    spec && typeof spec === 'object'
      ? Object.entries(spec).flatMap(([k, v]) =>
          v && typeof v === 'object' && !Array.isArray(v)
            ? leaves(v, `${prefix}${k}.`)
            : [[`${prefix}${k}`, v]],
        )
      : [];
  const ea = new Map(leaves(a.effectiveSpec));
  const eb = new Map(leaves(b.effectiveSpec));
  for (const k of new Set([...ea.keys(), ...eb.keys()]))
    if (text(ea.get(k)) !== text(eb.get(k))) out.push(`effective-${k.toLowerCase()}`);
  const tenth = (s: number | null) => (s === null ? null : s.toFixed(1));
  for (const [field, name] of [
    ['queuedSeconds', 'timing-queued'],
    ['runningSeconds', 'timing-running'],
    ['elapsedSeconds', 'timing-elapsed'],
  ] as const)
    if (tenth(a[field]) !== tenth(b[field])) out.push(name);
  return out.sort();
}

async function t2v(page: Page, prompt: string, seconds: number, seed: number): Promise<number> {
  return Number(await generateT2v(page, prompt, seconds, seed, `compare-${seed}`));
}

test('the compare explains two results: prompt diff, exactly the settings that differ, frame steps, wipe', async ({
  signedIn: page,
}) => {
  await page.setViewportSize({ width: 1400, height: 1100 });
  const a = await t2v(page, 'A red lighthouse at dusk, waves crashing', 5, 42);
  const b = await t2v(page, 'A blue lighthouse at dawn, waves crashing', 6, 7);

  await page.getByTestId('nav-library').click();
  const card = (rowId: number) => page.locator(`[data-testid="library-card"][data-row-id="${rowId}"]`);
  await card(a).getByTestId('library-select').click();
  await card(b).getByTestId('library-select').click();
  await page.getByTestId('compare-selected').click();
  const dialog = page.getByTestId('library-compare');
  await expect(dialog).toBeVisible();

  // the prompts, word by word: struck-through words only in A, underlined words only in B, said in words too
  const diff = page.getByTestId('compare-prompt-diff');
  await expect(diff.getByTestId('compare-prompt-removed')).toHaveText([
    'only in A: red (end)',
    'only in A: dusk (end)',
  ]);
  await expect(diff.getByTestId('compare-prompt-added')).toHaveText([
    'only in B: blue (end)',
    'only in B: dawn (end)',
  ]);
  await expect(diff.locator('del')).toHaveCount(2);
  await expect(diff.locator('ins')).toHaveCount(2);

  // the table lists exactly the settings whose values differ between the two jobs' details
  const [detailA, detailB] = [await jobDetail(page, a), await jobDetail(page, b)];
  const expected = expectedDifferences(detailA, detailB);
  expect(expected).toEqual(expect.arrayContaining(['prompt', 'seconds', 'seed']));
  expect(expected).not.toContain('model');
  expect(expected).not.toContain('orientation');
  const rows = page.getByTestId('compare-settings').locator('[data-testid^="compare-setting-"]');
  await expect(rows.first()).toBeVisible();
  const listed = (await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-testid')))).map(
    (id) => id!.replace('compare-setting-', ''),
  );
  expect(listed.sort()).toEqual(expected);
  const seedRow = page.getByTestId('compare-setting-seed');
  await expect(seedRow.locator('td')).toHaveText(['42', '7']);
  await expect(page.getByTestId('compare-setting-seconds').locator('td')).toHaveText(['5', '6']);
  // "show all" adds the equal settings, marked as such
  await page.getByTestId('compare-settings-all').check();
  await expect(page.getByTestId('compare-setting-model')).toHaveAttribute('data-differs', 'false');
  await expect(page.getByTestId('compare-setting-orientation')).toHaveAttribute('data-differs', 'false');
  await page.getByTestId('compare-settings-all').uncheck();
  await expect(page.getByTestId('compare-setting-model')).toHaveCount(0);

  // frame stepping at the effective spec's 24 fps; B follows A's clock
  for (const i of [0, 1])
    await expect
      .poll(() => page.getByTestId(`compare-player-${i}`).evaluate((v: MediaElement) => v.readyState), {
        timeout: MEDIA_WAIT,
      })
      .toBeGreaterThanOrEqual(2);
  const time = page.getByTestId('compare-time');
  const seconds = async () => Number(await time.getAttribute('data-seconds'));
  await expect(time).toHaveAttribute('data-frame', '0');
  const start = await seconds();
  await page.getByTestId('compare-step-forward').click();
  await expect(time).toHaveAttribute('data-frame', '1');
  expect((await seconds()) - start).toBeCloseTo(1 / 24, 4);
  await expect(time).toContainText('frame 1 · 24 fps');
  await page.getByTestId('compare-step-forward').click();
  await expect(time).toHaveAttribute('data-frame', '2');
  expect(await seconds()).toBeCloseTo(2 / 24, 4);
  await page.getByTestId('compare-step-back').click();
  await expect(time).toHaveAttribute('data-frame', '1');
  await expect
    .poll(() => page.getByTestId('compare-player-1').evaluate((v: TimedMedia) => v.currentTime))
    .toBeCloseTo(1 / 24, 3);
  // one play/pause for both
  await compareTransportDrivesBoth(page);
  const clocks = await Promise.all(
    [0, 1].map((i) => page.getByTestId(`compare-player-${i}`).evaluate((v: TimedMedia) => v.currentTime)),
  );
  expect(Math.abs(clocks[0]! - clocks[1]!)).toBeLessThan(0.1);

  // the A/B wipe: one frame area, B clipped at the slider, moved by keyboard and by dragging
  await page.getByTestId('compare-layout-wipe').click();
  await expect(page.getByTestId('compare-stage')).toHaveAttribute('data-layout', 'wipe');
  const wipe = page.getByTestId('compare-wipe');
  await expect(wipe).toHaveValue('50');
  const paneB = page.getByTestId('compare-pane-1');
  await expect(paneB).toHaveAttribute('style', /inset\(0(px)? 0(px)? 0(px)? 50%\)/);
  await wipe.focus();
  for (let k = 0; k < 10; k++) await page.keyboard.press('ArrowLeft');
  await expect(wipe).toHaveValue('40');
  await expect(paneB).toHaveAttribute('style', /inset\(0(px)? 0(px)? 0(px)? 40%\)/);
  const stage = (await page.getByTestId('compare-stage').boundingBox())!;
  // both results share the frame area
  const boxA = (await page.getByTestId('compare-player-0').boundingBox())!;
  const boxB = (await page.getByTestId('compare-player-1').boundingBox())!;
  expect(boxB).toEqual(boxA);
  await page.mouse.move(stage.x + stage.width * 0.5, stage.y + stage.height / 2);
  await page.mouse.down();
  await page.mouse.move(stage.x + stage.width * 0.7, stage.y + stage.height / 2, { steps: 5 });
  await page.mouse.up();
  await expect(wipe).toHaveValue('70');
  await expect(paneB).toHaveAttribute('style', /inset\(0(px)? 0(px)? 0(px)? 70%\)/);
  // stepping works in the wipe too
  const before = Number(await time.getAttribute('data-frame'));
  await page.getByTestId('compare-step-forward').click();
  await expect(time).toHaveAttribute('data-frame', String(before + 1));
  await page.screenshot({ path: 'test-results/screenshots/compare.png' });
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
});

test('audio compares as two waveforms drawn from the decoded samples, with one transport', async ({
  signedIn: page,
}) => {
  await page.setViewportSize({ width: 1400, height: 1100 });
  const speak = async (text: string) => {
    await page.getByTestId('nav-playground').click();
    await page.getByTestId('pg-tab-audio').click();
    await page.getByTestId('audio-text').fill(text);
    await page.getByTestId('audio-run').click();
    await expect(page.getByTestId('audio-result')).toHaveAttribute('data-state', 'succeeded', {
      timeout: MEDIA_WAIT,
    });
  };
  await speak('Hello from the first take.');
  await speak('Hello from the second, longer take of the line.');
  await page.getByTestId('nav-library').click();
  // the two newest results are the two takes
  await expect(page.getByTestId('library-card').nth(1)).toBeVisible();
  for (const i of [0, 1]) await page.getByTestId('library-select').nth(i).click();
  await page.getByTestId('compare-selected').click();
  for (const i of [0, 1])
    await expect(page.getByTestId(`compare-waveform-${i}`)).toHaveAttribute('data-state', 'drawn');
  // the canvas holds the decoded samples: some column is drawn
  const inked = await page.getByTestId('compare-waveform-0').evaluate((canvas) => {
    const c = canvas as unknown as {
      width: number;
      height: number;
      getContext(kind: '2d'): {
        getImageData(x: number, y: number, w: number, h: number): { data: Uint8ClampedArray };
      };
    };
    return c
      .getContext('2d')
      .getImageData(0, 0, c.width, c.height)
      .data.some((v, i) => i % 4 === 3 && v > 0);
  });
  expect(inked).toBe(true);
  // no wipe and no frame steps for sound; one play/pause for both
  await expect(page.getByTestId('compare-layout-wipe')).toHaveCount(0);
  await expect(page.getByTestId('compare-step-forward')).toHaveCount(0);
  // what was said, diffed word by word, and listed as the setting that differs
  const changed = page.locator(
    '[data-testid="compare-prompt-removed"], [data-testid="compare-prompt-added"]',
  );
  await expect(changed.filter({ hasText: 'first' })).toHaveCount(1);
  await expect(changed.filter({ hasText: 'second' })).toHaveCount(1);
  await expect(page.getByTestId('compare-setting-text')).toBeVisible();
  await compareTransportDrivesBoth(page);
  await page.screenshot({ path: 'test-results/screenshots/compare-audio.png' });
  await page.keyboard.press('Escape');
});

test('images compare side by side and as an A/B wipe, with no transport, and explain their prompts', async ({
  signedIn: page,
}) => {
  await page.setViewportSize({ width: 1400, height: 1100 });
  const draw = async (prompt: string) => {
    await page.getByTestId('nav-playground').click();
    await page.getByTestId('pg-tab-image').click();
    await page.getByTestId('image-prompt').fill(prompt);
    await page.getByTestId('image-count').fill('1');
    await page.getByTestId('image-run').click();
    await expect(page.getByTestId('image-result')).toHaveAttribute('data-state', 'succeeded', {
      timeout: MEDIA_WAIT,
    });
  };
  await draw('A lighthouse on a cliff at dusk');
  await draw('A lighthouse on a beach at dawn');
  await page.getByTestId('nav-library').click();
  await expect(page.getByTestId('library-card').nth(1)).toBeVisible();
  for (const i of [0, 1]) await page.getByTestId('library-select').nth(i).click();
  await page.getByTestId('compare-selected').click();
  // two images, loaded, in the same frame area
  for (const i of [0, 1]) {
    const image = page.getByTestId(`compare-player-${i}`);
    await expect(image).toHaveJSProperty('tagName', 'IMG');
    await expect
      .poll(() => image.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth))
      .toBeGreaterThan(0);
  }
  // a still has no clock: no play, seek or frame steps
  await expect(page.getByTestId('compare-play')).toHaveCount(0);
  await expect(page.getByTestId('compare-step-forward')).toHaveCount(0);
  // the wipe clips B at the slider
  await page.getByTestId('compare-layout-wipe').click();
  await expect(page.getByTestId('compare-stage')).toHaveAttribute('data-layout', 'wipe');
  const wipe = page.getByTestId('compare-wipe');
  await wipe.focus();
  await page.keyboard.press('ArrowRight');
  await expect(wipe).toHaveValue('51');
  await expect(page.getByTestId('compare-pane-1')).toHaveAttribute(
    'style',
    /inset\(0(px)? 0(px)? 0(px)? 51%\)/,
  );
  // the prompts, word by word, and the prompt among the settings that differ
  const changed = page.locator(
    '[data-testid="compare-prompt-removed"], [data-testid="compare-prompt-added"]',
  );
  await expect(changed.filter({ hasText: 'cliff' })).toHaveCount(1);
  await expect(changed.filter({ hasText: 'beach' })).toHaveCount(1);
  await expect(page.getByTestId('compare-setting-prompt')).toBeVisible();
  await expect(page.getByTestId('compare-setting-model')).toHaveCount(0);
  await page.screenshot({ path: 'test-results/screenshots/compare-images.png' });
  await page.keyboard.press('Escape');
});
