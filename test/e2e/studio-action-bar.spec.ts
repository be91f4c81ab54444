import type { Page } from '@playwright/test';
import { expect, test } from './studio-host';
import { chooseMode, freshDraft, simulatorKeys } from './studio-media';
import { MEDIA_WAIT } from './waits';

const PROMPT = 'A glass harmonica played in an empty observatory';

/** Create's scroll area (the app's main content) to its top or its end. */
const scrollCreate = (page: Page, to: 'top' | 'end') =>
  page
    .locator('#main-content')
    .evaluate(
      (el, end) => el.scrollTo({ top: end ? el.scrollHeight : 0, behavior: 'instant' }),
      to === 'end',
    );

test('Create: Generate sits in a sticky action bar with the admission answer and cost, and Ctrl+Enter twice makes one job', async ({
  signedIn: page,
}) => {
  const keysBefore = new Set((await simulatorKeys(page)).map((k) => k.idempotencyKey));
  await freshDraft(page);
  await chooseMode(page, 't2v');
  await page.getByTestId('prompt').fill(PROMPT);

  const bar = page.getByTestId('create-action-bar');
  const generate = bar.getByTestId('generate');
  // inside Create's landmark, the dominant button, and the shortcut on it
  await expect(page.getByRole('region', { name: 'Create' }).getByTestId('create-action-bar')).toHaveCount(1);
  await expect(generate).toHaveAttribute('aria-keyshortcuts', /Control\+Enter/);
  await expect(generate).toHaveAccessibleName('Generate');
  await expect(bar.getByTestId('generate-shortcut')).toHaveText(/^(Ctrl|⌘)\+Enter$/);

  for (const width of [1024, 1440]) {
    await page.setViewportSize({ width, height: 720 });
    await scrollCreate(page, 'top');
    // the form is taller than the window: the bar is at the window's bottom, Generate whole in view
    expect(await page.locator('#main-content').evaluate((el) => el.scrollHeight > el.clientHeight)).toBe(
      true,
    );
    await expect(generate).toBeInViewport({ ratio: 1 });
    await expect(generate).toBeEnabled();
    await expect(bar.getByTestId('billing-summary')).toBeInViewport();
    await expect(bar.getByTestId('billing-summary')).toContainText('video from');
  }
  await page.setViewportSize({ width: 1280, height: 720 });
  await scrollCreate(page, 'top');
  await bar.getByTestId('check-admission').click();
  await expect(bar.getByTestId('admission-result')).toHaveClass(/ok-text/, { timeout: MEDIA_WAIT });
  await expect(bar.getByTestId('admission-result')).toBeInViewport();
  await expect(bar.getByTestId('admission-result')).toContainText('Would be admitted now');
  // pressing a button of the bar does not scroll the form under it
  expect(await page.locator('#main-content').evaluate((el) => el.scrollTop)).toBe(0);
  await expect(page.getByTestId('service-select')).toBeInViewport();
  await page.screenshot({ path: 'test-results/screenshots/create-action-bar.png' });

  // at the end of the scroll area the bar follows the last field: it covers none of the form
  await scrollCreate(page, 'end');
  const barBox = (await bar.boundingBox())!;
  const formBottom = await page.locator('.create-grid').evaluate((el) => el.getBoundingClientRect().bottom);
  expect(barBox.y).toBeGreaterThanOrEqual(formBottom);

  // the dark theme: the same bar, in view at the top
  await page.getByTestId('nav-settings').click();
  await page.getByTestId('theme-dark').click();
  await page.getByTestId('nav-create').click();
  await expect(page.getByTestId('prompt')).toHaveValue(PROMPT);
  await scrollCreate(page, 'top');
  await expect(generate).toBeInViewport({ ratio: 1 });
  await bar.getByTestId('check-admission').click();
  await expect(bar.getByTestId('admission-result')).toBeInViewport({ timeout: MEDIA_WAIT });
  await page.screenshot({ path: 'test-results/screenshots/create-action-bar-dark.png' });
  await page.getByTestId('nav-settings').click();
  await page.getByTestId('theme-system').click();
  await page.getByTestId('nav-create').click();

  // Ctrl+Enter from the prompt, pressed twice quickly: one submit, one job
  await scrollCreate(page, 'top');
  await page.getByTestId('prompt').focus();
  await page.keyboard.press('Control+Enter');
  await page.keyboard.press('Control+Enter');
  await expect(page.getByTestId('submit-status')).toContainText('Submitted', { timeout: MEDIA_WAIT });
  await expect(page.getByTestId('draft-submitted')).toBeVisible();
  await expect(generate).toBeDisabled();
  // once submitted, the shortcut does nothing either
  await page.locator('body').press('Control+Enter');
  await expect(page.getByTestId('submit-status')).toContainText('Submitted');

  const created = (await simulatorKeys(page)).filter((k) => !keysBefore.has(k.idempotencyKey));
  expect(created.map((k) => k.created)).toEqual([1]);
  await page.getByTestId('open-queue').click();
  await expect(page.getByTestId('job-row').filter({ hasText: PROMPT })).toHaveCount(1);
  // nothing arrives later either
  await page.waitForTimeout(1_000);
  await expect(page.getByTestId('job-row').filter({ hasText: PROMPT })).toHaveCount(1);
  expect((await simulatorKeys(page)).filter((k) => !keysBefore.has(k.idempotencyKey))).toHaveLength(1);
});
