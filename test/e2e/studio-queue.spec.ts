import path from 'node:path';
import { openJournal } from '../../src/main/core/journal/open-journal';
import { expect, test } from './studio-host';

/** Browser globals used inside page functions (this file is type-checked without the DOM library). */
interface FramePage {
  __gaps: number[];
  __last: number;
  requestAnimationFrame(cb: (now: number) => void): number;
}

const SEEDED = 10_000;

test('the queue scrolls 10,000 jobs smoothly: pages load as you scroll, only visible rows are rendered', async ({
  signedIn: page,
  studio,
}) => {
  test.setTimeout(120_000);
  // 10,000 finished jobs written straight into the host's journal (WAL: shared with the running core)
  const journal = openJournal({ path: path.join(studio.dataDir, 'journal.sqlite') });
  try {
    journal.transaction(() => {
      for (let i = 0; i < SEEDED; i += 1) {
        const key = `seed-${i}-${process.pid}`;
        journal.jobs.recordIntent({
          idempotencyKey: key,
          profileId: 'simulator',
          model: 'seeded-model',
          serviceKind: 'video_generation',
          body: { prompt: `Seeded job number ${i}`, generationMode: 't2v' },
        });
        journal.jobs.markAccepted(key, {
          jobId: `job_seed_${i}`,
          requestId: `req_seed_${i}`,
          status: 'failed',
          errorCode: 'seeded',
          errorMessage: 'Seeded for the virtualization test.',
          retryable: false,
        });
      }
    });
  } finally {
    journal.close();
  }
  await page.reload();
  await page.getByTestId('nav-queue').click();
  await expect(page.getByTestId('job-row').first()).toContainText(`Seeded job number ${SEEDED - 1}`);
  const list = page.getByTestId('queue-list');
  // scroll to the end, page after page, while measuring the longest gap between frames
  await page.evaluate(() => {
    const w = globalThis as unknown as FramePage;
    w.__gaps = [];
    w.__last = performance.now();
    const tick = (now: number) => {
      w.__gaps.push(now - w.__last);
      w.__last = now;
      w.requestAnimationFrame(tick);
    };
    w.requestAnimationFrame(tick);
  });
  const started = Date.now();
  let pages = 0;
  for (;;) {
    await list.evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
    await page.waitForTimeout(50);
    const rendered = await page.getByTestId('job-row').count();
    expect(rendered).toBeLessThanOrEqual(40);
    const text = (await page.getByTestId('queue-count').textContent()) ?? '';
    const loaded = Number(text.replace(/\D/g, ''));
    pages += 1;
    if (loaded >= SEEDED) break;
    expect(Date.now() - started, `loaded ${loaded}`).toBeLessThan(90_000);
  }
  await expect(async () => {
    await list.evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
    await expect(page.getByText('Seeded job number 0', { exact: true })).toBeVisible({ timeout: 500 });
  }).toPass();
  await list.evaluate((el) => el.scrollTo({ top: el.scrollHeight / 2 }));
  await expect(page.getByTestId('job-row').first()).toBeVisible();
  const gaps = await page.evaluate(() => (globalThis as unknown as FramePage).__gaps);
  const sorted = [...gaps].sort((a, b) => a - b);
  const p95 = sorted[Math.floor(sorted.length * 0.95)] ?? 0;
  console.log(
    `queue scroll over ${SEEDED} jobs in ${Date.now() - started} ms (${pages} scrolls): ${gaps.length} frames, p95 frame gap ${p95.toFixed(1)} ms`,
  );
  expect(p95).toBeLessThan(200);
  await page.screenshot({ path: 'test-results/screenshots/studio-queue-10000.png' });
});
