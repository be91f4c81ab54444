import type { Page } from '@playwright/test';
import { expect, test } from './studio-host';
import { chooseMode, freshDraft, simulatorKeys } from './studio-media';
import { MEDIA_WAIT } from './waits';

test.describe.configure({ mode: 'serial' });

async function scenario(page: Page, name: string): Promise<void> {
  await page.getByTestId('nav-settings').click();
  await page.getByTestId('scenario-select').selectOption(name);
  await expect(page.getByTestId('scenario-select')).toHaveValue(name);
}

async function t2vDraft(page: Page, prompt: string): Promise<void> {
  await freshDraft(page);
  await chooseMode(page, 't2v');
  await page.getByTestId('prompt').fill(prompt);
  await expect(page.getByTestId('generate')).toBeEnabled();
}

async function expectNoDuplicate(page: Page): Promise<void> {
  for (const k of await simulatorKeys(page)) expect(k.created, k.idempotencyKey).toBe(1);
}

test.afterEach(async ({ signedIn: page }) => {
  await scenario(page, '');
});

for (const [name, advice] of [
  ['insufficient_balance', /Top up the account/],
  ['invalid_request', /Fix the field or file/],
] as const) {
  test(`${name}: the refusal says what to do, nothing is created, the draft stays editable`, async ({
    signedIn: page,
  }) => {
    await scenario(page, name);
    await t2vDraft(page, `A refused request (${name})`);
    await page.getByTestId('generate').dblclick();
    const status = page.getByTestId('submit-status');
    await expect(status).toHaveAttribute('role', 'alert');
    await expect(status).toContainText(advice);
    await expect(status).toContainText(/request req_|request [a-z0-9_-]+/i);
    await expect(page.getByTestId('draft-submitted')).toHaveCount(0);
    await page.screenshot({ path: `test-results/screenshots/studio-failure-${name}.png`, fullPage: true });
    // after the cause is fixed, the same draft goes through (with a fresh key: the refused one is spent)
    await scenario(page, '');
    await page.getByTestId('nav-create').click();
    await page.getByTestId('generate').click();
    await expect(page.getByTestId('submit-status')).toHaveAttribute('role', 'status');
    await expectNoDuplicate(page);
  });
}

for (const [name, retryable] of [
  ['job_failed', false],
  ['job_failed_retryable', true],
] as const) {
  test(`${name}: the queue shows the safe error, request id and advice; retry only when retryable`, async ({
    signedIn: page,
  }) => {
    await scenario(page, name);
    await t2vDraft(page, `A job that fails (${name})`);
    await page.getByTestId('generate').click();
    await expect(page.getByTestId('submit-status')).toHaveAttribute('role', 'status');
    await page.getByTestId('open-queue').click();
    const row = page.getByTestId('job-row').first();
    await expect(row).toHaveAttribute('data-status', 'failed', { timeout: MEDIA_WAIT });
    await expect(row.getByTestId('job-failure')).toContainText(/Request/);
    await expect(row.getByTestId('job-advice')).toBeVisible();
    await expect(row.getByTestId('job-retry')).toHaveCount(retryable ? 1 : 0);
    await page.screenshot({ path: `test-results/screenshots/studio-failure-${name}.png` });
    await expectNoDuplicate(page);
  });
}

test('rate_limited: the request is committed, retried with the same key, and created exactly once', async ({
  signedIn: page,
}) => {
  await t2vDraft(page, 'Patience under rate limits');
  await scenario(page, 'rate_limited');
  await page.getByTestId('nav-create').click();
  await page.getByTestId('generate').click();
  const status = page.getByTestId('submit-status');
  await expect(status).toContainText(/rate limiting|waiting/i, { timeout: MEDIA_WAIT });
  await expect(page.getByTestId('resend')).toBeVisible();
  await page.screenshot({ path: 'test-results/screenshots/studio-failure-rate_limited.png', fullPage: true });
  await scenario(page, '');
  await page.getByTestId('nav-queue').click();
  const row = page.locator('[data-testid="job-row"]', { hasText: 'Patience under rate limits' });
  await expect(row).toHaveAttribute('data-status', 'succeeded', { timeout: 60_000 });
  await expect(row).toHaveCount(1);
  await expectNoDuplicate(page);
});

test('the queue virtualizes: only the visible rows are in the page', async ({ signedIn: page }) => {
  await page.getByTestId('nav-queue').click();
  await expect(page.getByTestId('job-row').first()).toBeVisible();
  const total = Number((await page.getByTestId('queue-count').textContent())!.match(/\d+/)![0]);
  expect(total).toBeGreaterThan(0);
  expect(await page.getByTestId('job-row').count()).toBeLessThanOrEqual(Math.min(total, 30));
});
