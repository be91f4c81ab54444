/**
 * The Sequences timeline (issue 40) with 50 generated shots in Debian's Chromium through the
 * browser host: the 95th-percentile gap between frames while a shot's edge is dragged (the later
 * 49 shots ripple with it), a shot is dragged along the track, the timeline zooms in to single
 * frames and out again and scrolls, against the same page's frame gap at rest, in the same run.
 * Goal: the busy p95 at most 1.25× the resting one (a ratio rest / busy ≥ 0.8).
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Page } from '@playwright/test';
import { signInContext, startStudioHost } from '../test/support/studio-host-process.js';
import { percentile, type BenchRow } from './measure.js';
import { startFrameClock, takeFrameGaps } from './frame-gaps.js';

const SHOTS = 50;
const GOAL = 0.8;

interface ThumbPage {
  document: { querySelectorAll(selector: string): ArrayLike<{ complete: boolean }> };
}

/** A sequence of `SHOTS` generated 5 s shots, open on the timeline. */
async function fiftyShots(page: Page): Promise<void> {
  await page.getByTestId('nav-sequences').click();
  await page.getByTestId('sequence-new-name').fill('Fifty shots');
  await page.getByTestId('sequence-create').click();
  for (let i = 1; i <= SHOTS; i += 1) {
    await page
      .getByTestId('sequence-shot-prompt')
      .fill(`Shot ${i}: the harbour at dusk, gulls over the quay`);
    await page.getByTestId('sequence-shot-seconds').selectOption('5');
    await page.getByTestId('sequence-add-shot').click();
    await page
      .locator('[data-testid="timeline-shot"]')
      .nth(i - 1)
      .waitFor();
  }
  await page.getByTestId('sequence-generate-all').click();
  await page
    .getByTestId('timeline-edge-out')
    .nth(SHOTS - 1)
    .waitFor({ timeout: 600_000 });
}

/**
 * Drags from `(x, y)` by `dx` and back in `steps` moves each way, then releases where it started
 * (nothing is edited); `followed` checks, at the far end, that the timeline followed the pointer.
 */
async function dragAndBack(
  page: Page,
  x: number,
  y: number,
  dx: number,
  steps: number,
  followed: () => Promise<boolean>,
): Promise<void> {
  await page.mouse.move(x, y);
  await page.mouse.down();
  for (let i = 1; i <= steps; i += 1) {
    await page.mouse.move(x + (dx * i) / steps, y);
    await page.waitForTimeout(16);
  }
  if (!(await followed())) throw new Error('The timeline did not follow the drag.');
  for (let i = steps - 1; i >= 0; i -= 1) {
    await page.mouse.move(x + (dx * i) / steps, y);
    await page.waitForTimeout(16);
  }
  await page.mouse.up();
}

export async function benchSequenceTimeline(): Promise<{ ratio: number; detail: string }> {
  const root = path.resolve(import.meta.dirname, '..');
  if (!existsSync(path.join(root, 'out/renderer/index.html')))
    throw new Error('No built renderer: run `npm run build` before `npm run bench`.');
  const { host, stop } = await startStudioHost();
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run'],
  });
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
    await signInContext(context, host);
    const page = await context.newPage();
    await page.goto(host.origin + '/');
    await fiftyShots(page);
    await page.getByTestId('timeline').scrollIntoViewIfNeeded();
    // the thumbnails loaded before the clock starts (at the fit every clip is in view); the page
    // keeps its event stream open, so "network idle" never comes
    await page.waitForFunction(
      () =>
        Array.from(
          (globalThis as unknown as ThumbPage).document.querySelectorAll('.timeline-thumbs img'),
        ).every((img) => img.complete),
      undefined,
      { timeout: 60_000, polling: 250 },
    );

    await startFrameClock(page);
    await page.waitForTimeout(2000);
    const resting = await takeFrameGaps(page);

    // an edge of the 5th shot dragged (ripple: 45 shots follow), then a shot's body along the track
    const last = page.getByTestId('timeline-shot').last();
    const lastStart = Number(await last.getAttribute('data-start'));
    const edge = (await page.getByTestId('timeline-edge-out').nth(4).boundingBox())!;
    await dragAndBack(
      page,
      edge.x + edge.width / 2,
      edge.y + edge.height / 2,
      -60,
      40,
      async () => Number(await last.getAttribute('data-start')) < lastStart, // the ripple reached the last shot
    );
    const body = (await page.getByTestId('timeline-shot-body').nth(2).boundingBox())!;
    await dragAndBack(page, body.x + body.width / 2, body.y + body.height / 2, 150, 40, async () =>
      page
        .getByTestId('timeline-shot')
        .nth(2)
        .evaluate((el) => (el as unknown as { style: { transform: string } }).style.transform !== ''),
    );
    // zoom in to single frames and out to the fit, scrolling the track meanwhile
    await page.getByTestId('timeline-scroller').focus();
    for (let i = 0; i < 12; i += 1) {
      await page.keyboard.press('+');
      await page.getByTestId('timeline-scroller').evaluate((el) => (el.scrollLeft += 400));
      await page.waitForTimeout(60);
    }
    for (let i = 0; i < 12; i += 1) {
      await page.keyboard.press('-');
      await page.waitForTimeout(60);
    }
    const busy = await takeFrameGaps(page);
    const rest = percentile(resting, 95);
    const active = percentile(busy, 95);
    return {
      ratio: rest / active,
      detail: `p95 frame gap ${active.toFixed(1)} ms dragging and zooming ${SHOTS} shots (${busy.length} frames) vs ${rest.toFixed(1)} ms at rest`,
    };
  } finally {
    await browser.close();
    await stop();
  }
}

/** The timeline measure as a row of `npm run bench`. */
export async function benchSequenceTimelineRows(): Promise<BenchRow[]> {
  const timeline = await benchSequenceTimeline();
  return [
    {
      name: `sequence timeline, ${SHOTS} shots: drag and zoom (rest / busy p95 frame gap)`,
      ratio: timeline.ratio,
      goal: `goal ≥ ${GOAL} (busy ≤ 1.25× rest)`,
      ok: timeline.ratio >= GOAL,
      detail: timeline.detail,
    },
  ];
}
