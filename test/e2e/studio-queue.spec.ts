import { seedFinishedJobs } from '../support/studio-host-process';
import { expect, test } from './studio-host';

const SEEDED = 10_000;

test('the queue holds 10,000 jobs: pages load as you scroll to the end, only visible rows are rendered', async ({
  signedIn: page,
  studio,
}) => {
  // 10,000 finished jobs written straight into the host's journal (WAL: shared with the running core)
  seedFinishedJobs(studio.dataDir, SEEDED);
  await page.reload();
  await page.getByTestId('nav-queue').click();
  await expect(page.getByTestId('job-row').first()).toContainText(`Seeded job number ${SEEDED - 1}`);
  const list = page.getByTestId('queue-list');
  // scroll to the end, page after page (how smooth it is: `npm run bench`, bench/queue-scroll.ts)
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
    // each scroll must load more: 10,000 jobs take a few dozen pages, never hundreds
    expect(pages, `loaded ${loaded}`).toBeLessThan(400);
  }
  await expect(async () => {
    await list.evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
    await expect(page.getByText('Seeded job number 0', { exact: true })).toBeVisible({ timeout: 500 });
  }).toPass();
  await list.evaluate((el) => el.scrollTo({ top: el.scrollHeight / 2 }));
  await expect(page.getByTestId('job-row').first()).toBeVisible();
  console.log(`queue: ${SEEDED} jobs loaded in ${pages} scrolls`);
  await page.screenshot({ path: 'test-results/screenshots/studio-queue-10000.png' });
});
