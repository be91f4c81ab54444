import type { Page } from '@playwright/test';
import { expect, test } from './studio-host';

const SECRET = 'sk-e2e-never-shown-again-0123456789abcdef';

/** Every bridge answer the page receives, to prove the key never comes back. */
function recordBridge(page: Page): string[] {
  const bodies: string[] = [];
  page.on('response', (response) => {
    if (response.url().includes('/bridge/'))
      void response.text().then(
        (t) => bodies.push(t),
        () => undefined,
      );
  });
  return bodies;
}

test('settings: a personal profile is added with its key; the key never comes back; test and remove', async ({
  signedIn: page,
}) => {
  const bodies = recordBridge(page);
  await page.getByTestId('nav-settings').click();
  await page.getByTestId('profile-kind-personal').click();
  await page.getByTestId('profile-name').fill('E2E work key');
  await page.getByTestId('profile-url').fill('http://127.0.0.1:9/v1');
  await page.getByTestId('profile-secret').fill(SECRET);
  await page.getByTestId('profile-add').click();
  const status = page.getByTestId('profile-add-status');
  await expect(status).toBeVisible();
  // the key field is emptied whatever happened, and never refilled
  await expect(page.getByTestId('profile-secret')).toHaveValue('');
  if ((await status.getAttribute('role')) === 'status') {
    const row = page.locator('[data-testid^="studio-profile-"]', { hasText: 'E2E work key' });
    await expect(row).toContainText('key stored');
    await row.getByRole('button', { name: 'Test' }).click();
    await expect(row).toContainText(/Failed:/);
    await page.screenshot({ path: 'test-results/screenshots/studio-settings.png', fullPage: true });
    await row.getByRole('button', { name: 'Remove' }).click();
    await expect(row).toHaveCount(0);
  } else {
    // no keychain on this machine: the refusal says why, and the profile was not kept
    await expect(status).toContainText(/keychain|secret|store/i);
    await expect(page.locator('[data-testid^="studio-profile-"]', { hasText: 'E2E work key' })).toHaveCount(
      0,
    );
    await page.screenshot({ path: 'test-results/screenshots/studio-settings.png', fullPage: true });
  }
  await page.reload();
  await page.getByTestId('nav-settings').click();
  await expect(page.getByTestId('studio-profile-simulator')).toBeVisible();
  await page.waitForTimeout(300);
  for (const body of bodies) expect(body).not.toContain(SECRET);
  expect(await page.content()).not.toContain(SECRET);
});

test('settings: the total wait limit persists; the library folder is shown', async ({ signedIn: page }) => {
  await page.getByTestId('nav-settings').click();
  await expect(page.getByTestId('library-dir')).toContainText('library');
  await page.getByTestId('wait-limit').fill('45');
  await page.getByTestId('wait-save').click();
  await page.reload();
  await page.getByTestId('nav-settings').click();
  await expect(page.getByTestId('wait-limit')).toHaveValue('45');
});

test('offline: with the service unavailable the library still browses and plays, Create keeps the last contracts', async ({
  signedIn: page,
}) => {
  await page.getByTestId('nav-settings').click();
  await page.getByTestId('scenario-select').selectOption('unavailable');
  try {
    await page.reload();
    await page.getByTestId('nav-library').click();
    const card = page.getByTestId('library-card').first();
    await expect(card).toBeVisible();
    await card.getByTestId('library-open').click();
    const player = page.getByTestId('detail-player');
    await expect(player).toBeVisible();
    await expect
      .poll(() => player.evaluate((v) => (v as unknown as { readyState: number }).readyState))
      .toBeGreaterThanOrEqual(2);
    await page.keyboard.press('Escape');
    await page.getByTestId('nav-create').click();
    await expect(page.getByTestId('field-generationMode')).toBeVisible();
    await expect(page.getByTestId('services-offline')).toBeVisible();
    await page.screenshot({ path: 'test-results/screenshots/studio-offline.png', fullPage: true });
  } finally {
    await page.getByTestId('nav-settings').click();
    await page.getByTestId('scenario-select').selectOption('');
  }
});
