import { expect, test } from './studio-host';
import { chooseMode, freshDraft, generateAndFinish } from './studio-media';

/**
 * The screens a creator sees most, with work in them, at 1280 × 800 in the light theme: the
 * screenshots docs/studio.md's "Screenshots" section shows (docs/screenshots/before/ holds the same
 * screens as they were before issue 32, taken with this spec at a93a06c).
 */
test('Create, Queue and Library with a finished video in them', async ({ signedIn: page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.getByTestId('nav-settings').click();
  await page.getByTestId('theme-light').click();
  await freshDraft(page);
  await chooseMode(page, 't2v');
  await page.getByTestId('prompt').fill('A lighthouse at dusk, waves against the rocks, slow dolly in');
  await generateAndFinish(page, 'screens');

  await freshDraft(page);
  await chooseMode(page, 't2v');
  await page.getByTestId('prompt').fill('A harbour at dawn, gulls over the water, handheld');
  await expect(page.getByTestId('generate')).toBeEnabled();
  await page.screenshot({ path: 'test-results/screenshots/screen-create.png' });

  await page.getByTestId('nav-queue').click();
  await expect(page.getByTestId('job-verified').first()).toBeVisible();
  await page.screenshot({ path: 'test-results/screenshots/screen-queue.png' });

  await page.getByTestId('nav-library').click();
  await expect(page.getByTestId('library-card').first()).toBeVisible();
  await page.screenshot({ path: 'test-results/screenshots/screen-library.png' });
  await page.getByTestId('nav-settings').click();
  await page.getByTestId('theme-system').click();
});
