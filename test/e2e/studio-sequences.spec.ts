import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test as base, type Page } from '@playwright/test';
import { locateMediaTools } from '../../src/shared/node/ffmpeg-locator';
import { signInContext, startStudioHost, type StartedStudioHost } from '../support/studio-host-process';
import { expect } from './studio-host';
import type { MediaElement } from './studio-media';
import { MEDIA_WAIT } from './waits';

const CROSSFADE = 0.5;
const test = base;

/** The shots of the strip, in order: their ids, labels, origins and states. */
async function strip(page: Page) {
  return page
    .getByTestId('sequence-strip')
    .locator(':scope > li')
    .evaluateAll((cards) =>
      cards.map((card) => ({
        shotId: card.getAttribute('data-shot-id') ?? '',
        origin: card.getAttribute('data-origin') ?? '',
        state: card.getAttribute('data-state') ?? '',
      })),
    );
}

async function addShot(page: Page, prompt: string, count: number) {
  await page.getByTestId('sequence-shot-prompt').fill(prompt);
  await page.getByTestId('sequence-shot-seconds').selectOption('5');
  await page.getByTestId('sequence-add-shot').click();
  await expect(page.getByTestId('sequence-strip').locator(':scope > li')).toHaveCount(count);
  await expect(page.getByTestId(`sequence-shot-prompt-${count - 1}`)).toHaveText(prompt);
  await expect(page.getByTestId(`sequence-shot-duration-${count - 1}`)).toHaveText('5 s');
}

/** Waits until every shot of the strip has its verified result (the simulator takes a few seconds). */
async function everyShotSucceeded(page: Page, count: number) {
  await expect
    .poll(async () => (await strip(page)).map((s) => s.state), { timeout: 120_000, intervals: [500] })
    .toEqual(Array.from({ length: count }, () => 'succeeded'));
  for (let i = 0; i < count; i += 1)
    await expect(page.getByTestId(`sequence-shot-continue-${i}`)).toBeEnabled();
}

async function openStudio(page: Page, started: StartedStudioHost) {
  await signInContext(page.context(), started.host);
  await page.goto(started.host.origin + '/');
  await expect(page.getByTestId('status-connection')).toHaveAttribute('data-state', 'connected');
  await page.getByTestId('nav-sequences').click();
}

/** The few browser globals the page-side checks use (this file is type-checked without the DOM library). */
interface PageGlobals {
  sawAssemblyProgress: boolean;
  document: { body: unknown; querySelector(selector: string): unknown };
  MutationObserver: new (callback: () => void) => {
    observe(target: unknown, options: Record<string, boolean>): void;
  };
}

interface LoadedImage {
  naturalWidth: number;
}

interface Probe {
  format: { duration: string };
  streams: { codec_type: string }[];
  chapters: { start_time: string; end_time: string; tags?: { title?: string } }[];
}

test('a three-shot sequence (t2v, bridge, continue) is generated, assembled with cross-fades, reordered and survives a restart', async ({
  page,
}) => {
  test.setTimeout(420_000);
  mkdirSync('test-results/screenshots', { recursive: true });
  let host = await startStudioHost();
  const dataDir = host.host.dataDir;
  try {
    await openStudio(page, host);
    await page.getByTestId('sequence-new-name').fill('Harbour at dusk');
    await page.getByTestId('sequence-create').click();
    await expect(page.getByTestId('sequence-name')).toHaveText('Harbour at dusk');

    // two text-to-video shots of 5 s, generated together
    await addShot(page, 'A lighthouse at dusk, waves rolling against the rocks', 1);
    await addShot(page, 'Inside the lighthouse, a keeper climbs the spiral stairs', 2);
    // the film's length: 2 × 5 s less the default 0.5 s cross-fade at their join
    await expect(page.getByTestId('sequence-total')).toContainText('9.5 s');
    await expect(page.getByTestId('sequence-shot-continue-0')).toBeDisabled();
    await expect(page.getByTestId('sequence-shot-bridge-0')).toBeDisabled();
    await page.getByTestId('sequence-generate-all').click();
    await everyShotSucceeded(page, 2);
    const [first, second] = await strip(page);

    // bridge shot 1 to shot 2: a first/last-frame shot placed between them
    await page.getByTestId('sequence-shot-bridge-0').click();
    // bridging takes both neighbours' frames with ffmpeg first
    await expect(page.getByTestId('sequence-strip').locator(':scope > li')).toHaveCount(3, {
      timeout: MEDIA_WAIT,
    });
    let shots = await strip(page);
    expect(shots.map((s) => s.origin)).toEqual(['new', 'bridge', 'new']);
    expect([shots[0]!.shotId, shots[2]!.shotId]).toEqual([first!.shotId, second!.shotId]);
    expect(shots[1]!.state).toBe('draft');
    await expect(page.getByTestId('sequence-shot-label-1')).toHaveText('Shot 2');

    // continue from the last shot: image to video from its exact last frame
    await page.getByTestId('sequence-shot-continue-2').click();
    await page.getByTestId('sequence-continue-i2v-2').click();
    await expect(page.getByTestId('sequence-strip').locator(':scope > li')).toHaveCount(4, {
      timeout: MEDIA_WAIT,
    });
    shots = await strip(page);
    expect(shots.map((s) => s.origin)).toEqual(['new', 'bridge', 'new', 'continue']);
    await expect(page.getByTestId('sequence-error')).toHaveCount(0);
    // before they are generated, the bridge and the continued shot show the frame they start from
    for (const i of [1, 3])
      await expect
        .poll(() =>
          page.getByTestId(`sequence-shot-poster-${i}`).evaluate((img: LoadedImage) => img.naturalWidth),
        )
        .toBeGreaterThan(0);
    await page.screenshot({ path: 'test-results/screenshots/sequence-strip.png', fullPage: true });

    // generate the rest (the bridge and the continued shot), then assemble with 0.5 s cross-fades
    await expect(page.getByTestId('sequence-generate-all')).toBeEnabled();
    await page.getByTestId('sequence-generate-all').click();
    await everyShotSucceeded(page, 4);
    const durations: number[] = [];
    for (let i = 0; i < 4; i += 1) {
      const duration = page.getByTestId(`sequence-shot-duration-${i}`);
      await expect(duration).toHaveAttribute('data-measured', 'true');
      durations.push(Number(await duration.getAttribute('data-seconds')));
    }
    const sum = durations.reduce((a, b) => a + b, 0);
    await page.getByTestId('sequence-crossfade').selectOption(String(CROSSFADE));
    // the strip says what the film will last: one cross-fade less per join
    const total = Number(await page.getByTestId('sequence-total').getAttribute('data-seconds'));
    expect(Math.abs(total - (sum - 3 * CROSSFADE))).toBeLessThan(0.001);
    await expect(page.getByTestId('sequence-assemble')).toBeEnabled();
    // the progress bar shows while the core assembles (whatever it last reported)
    await page.evaluate(() => {
      const g = globalThis as unknown as PageGlobals;
      g.sawAssemblyProgress = false;
      new g.MutationObserver(() => {
        if (g.document.querySelector('[data-testid="sequence-assembly-progress"]'))
          g.sawAssemblyProgress = true;
      }).observe(g.document.body, { subtree: true, childList: true });
    });
    await page.getByTestId('sequence-assemble').click();
    const player = page.getByTestId('sequence-assembly-player');
    await expect(player).toBeVisible({ timeout: 180_000 });
    await expect(page.getByTestId('sequence-error')).toHaveCount(0);
    expect(await page.evaluate(() => (globalThis as unknown as PageGlobals).sawAssemblyProgress)).toBe(true);
    await expect
      .poll(() => player.evaluate((v: MediaElement) => v.readyState), { timeout: MEDIA_WAIT })
      .toBeGreaterThanOrEqual(2);
    await expect(page.getByTestId('sequence-assembly-current')).toHaveAttribute('data-current', 'true');
    await expect(page.getByTestId('sequence-chapter')).toHaveText([
      /^Shot 1/,
      /^Shot 2/,
      /^Shot 3/,
      /^Shot 4/,
    ]);

    // the file itself, fetched as the page plays it: audio, chapters named after the shots, duration
    const src = (await player.getAttribute('src'))!;
    const base64 = await page.evaluate(async (url: string) => {
      const res = await fetch(url);
      if (!res.ok) throw new Error(`GET ${url}: ${res.status}`);
      const bytes = new Uint8Array(await res.arrayBuffer());
      let text = '';
      for (let i = 0; i < bytes.length; i += 0x8000)
        text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
      return btoa(text);
    }, src);
    const bytes = Buffer.from(base64, 'base64');
    const file = path.join(os.tmpdir(), `fw-e2e-sequence-${process.pid}.mp4`);
    writeFileSync(file, bytes);
    await expect(page.getByTestId('sequence-assembly-sha256')).toHaveText(
      createHash('sha256').update(bytes).digest('hex'),
    );
    const probe = JSON.parse(
      execFileSync(
        locateMediaTools().ffprobe,
        [
          '-v',
          'error',
          '-show_entries',
          'format=duration:stream=codec_type',
          '-show_chapters',
          '-of',
          'json',
          file,
        ],
        { encoding: 'utf8' },
      ),
    ) as Probe;
    // one picture and one sound track (an MP4's chapters may come as a data track beside them)
    const kinds = probe.streams.map((s) => s.codec_type);
    expect(kinds.filter((k) => k === 'video')).toHaveLength(1);
    expect(kinds.filter((k) => k === 'audio')).toHaveLength(1);
    expect(probe.chapters.map((c) => c.tags?.title)).toEqual(['Shot 1', 'Shot 2', 'Shot 3', 'Shot 4']);
    const expected = sum - CROSSFADE * (durations.length - 1);
    expect(Math.abs(Number(probe.format.duration) - expected)).toBeLessThanOrEqual(0.15);
    await expect(page.getByTestId('sequence-assembly-duration')).toHaveAttribute(
      'data-seconds',
      /^\d+(\.\d+)?$/,
    );
    await page.getByTestId('sequence-chapters').scrollIntoViewIfNeeded();
    await page.screenshot({ path: 'test-results/screenshots/sequence-assembled.png', fullPage: true });

    // reorder by keyboard: the focused card moves one place later and keeps the focus
    const before = (await strip(page)).map((s) => s.shotId);
    await page.getByTestId('sequence-shot-0').focus();
    await page.keyboard.press('Alt+ArrowRight');
    await expect
      .poll(async () => (await strip(page)).map((s) => s.shotId))
      .toEqual([before[1], before[0], before[2], before[3]]);
    await expect(page.getByTestId('sequence-shot-1')).toBeFocused();
    await expect(page.getByTestId('sequence-shot-label-1')).toHaveText('Shot 2');
    await expect(page.getByTestId('sequence-assembly-current')).toHaveAttribute('data-current', 'false');
    // and by the explicit button: back where it was
    await page.getByTestId('sequence-shot-left-1').click();
    await expect.poll(async () => (await strip(page)).map((s) => s.shotId)).toEqual(before);
    // and by dragging: the last card dropped on the third
    await page.getByTestId('sequence-shot-3').dragTo(page.getByTestId('sequence-shot-2'));
    const reordered = [before[0], before[1], before[3], before[2]];
    await expect.poll(async () => (await strip(page)).map((s) => s.shotId)).toEqual(reordered);

    // a restart on the same data folder: the sequence and its shots are still there, in order
    await host.stop();
    host = await startStudioHost({ dataDir });
    await openStudio(page, host);
    const item = page.getByTestId('sequence-item').filter({ hasText: 'Harbour at dusk' });
    await expect(item).toContainText('4');
    await item.getByTestId('sequence-open').click();
    await expect(page.getByTestId('sequence-name')).toHaveText('Harbour at dusk');
    await expect.poll(async () => (await strip(page)).map((s) => s.shotId)).toEqual(reordered);
    expect((await strip(page)).map((s) => s.state)).toEqual([
      'succeeded',
      'succeeded',
      'succeeded',
      'succeeded',
    ]);
    await expect(page.getByTestId('sequence-assembly-player')).toBeVisible();
  } finally {
    await host.stop();
  }
});
