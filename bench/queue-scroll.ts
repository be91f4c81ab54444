/**
 * The Queue with 10,000 jobs in Debian's Chromium through the browser host: the 95th-percentile
 * gap between frames while scrolling to the end (pages loading as it goes), against the same
 * page's frame gap at rest, measured in the same run. Goal: scrolling frames no longer than two
 * resting frames (≥ 30 fps where the display gives 60), i.e. a ratio ≥ 0.5.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { chromium } from '@playwright/test';
import { seedFinishedJobs, signInContext, startStudioHost } from '../test/support/studio-host-process.js';
import type { BenchRow } from './measure.js';
import { startFrameClock, takeFrameGaps } from './frame-gaps.js';

const JOBS = 10_000;

function p95(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length * 0.95)] ?? 0;
}

export async function benchQueueScroll(): Promise<{ ratio: number; detail: string }> {
  const root = path.resolve(import.meta.dirname, '..');
  if (!existsSync(path.join(root, 'out/renderer/index.html')))
    throw new Error('No built renderer: run `npm run build` before `npm run bench`.');
  const { host, stop } = await startStudioHost();
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run'],
  });
  try {
    seedFinishedJobs(host.dataDir, JOBS);
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    await signInContext(context, host);
    const page = await context.newPage();
    await page.goto(host.origin + '/');
    await page.getByTestId('nav-queue').click();
    await page.getByTestId('job-row').first().waitFor();
    const list = page.getByTestId('queue-list');

    await startFrameClock(page);
    await page.waitForTimeout(2000);
    const resting = await takeFrameGaps(page);

    let scrolls = 0;
    for (;;) {
      await list.evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
      await page.waitForTimeout(50);
      scrolls += 1;
      const loaded = Number(((await page.getByTestId('queue-count').textContent()) ?? '').replace(/\D/g, ''));
      if (loaded >= JOBS) break;
      if (scrolls > 1000) throw new Error(`The queue stopped loading at ${loaded} of ${JOBS} jobs.`);
    }
    const scrolling = await takeFrameGaps(page);
    const rest = p95(resting);
    const scroll = p95(scrolling);
    return {
      ratio: rest / scroll,
      detail: `p95 frame gap ${scroll.toFixed(1)} ms scrolling ${JOBS} jobs (${scrolls} scrolls, ${scrolling.length} frames) vs ${rest.toFixed(1)} ms at rest`,
    };
  } finally {
    await browser.close();
    await stop();
  }
}

/** The queue-scroll measure as a row of `npm run bench`. */
export async function benchQueueScrollRows(): Promise<BenchRow[]> {
  const queue = await benchQueueScroll();
  return [
    {
      name: 'queue scroll, 10,000 jobs (rest / scrolling p95 frame gap)',
      ratio: queue.ratio,
      goal: 'goal ≥ 0.5',
      ok: queue.ratio >= 0.5,
      detail: queue.detail,
    },
  ];
}
