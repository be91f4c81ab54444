import { mkdirSync } from 'node:fs';
import { test, type Page } from '@playwright/test';
import { signInContext, startStudioHost } from '../support/studio-host-process';
import { violations } from './accessibility';
import { expect } from './studio-host';

/** The part of a video element the test reads (this file is type-checked without the DOM library). */
interface VideoElement {
  readyState: number;
  videoWidth: number;
  videoHeight: number;
}

const size = (page: Page) =>
  page
    .getByTestId('library-film-player')
    .evaluate((v: VideoElement) => (v.readyState >= 1 ? `${v.videoWidth}x${v.videoHeight}` : ''));

test('a generated sequence is delivered 16:9 padded and 9:16 cropped, and both play in the library', async ({
  page,
}) => {
  test.setTimeout(300_000);
  mkdirSync('test-results/screenshots', { recursive: true });
  const started = await startStudioHost();
  try {
    await signInContext(page.context(), started.host);
    await page.goto(started.host.origin + '/');
    await expect(page.getByTestId('status-connection')).toHaveAttribute('data-state', 'connected');
    await page.getByTestId('nav-sequences').click();
    await page.getByTestId('sequence-new-name').fill('Pier at night');
    await page.getByTestId('sequence-create').click();
    await page.getByTestId('sequence-shot-prompt').fill('Waves under a pier at night, lanterns swaying');
    await page.getByTestId('sequence-shot-seconds').selectOption('5');
    await page.getByTestId('sequence-add-shot').click();
    await page.getByTestId('sequence-generate-all').click();
    await expect(page.getByTestId('sequence-shot-continue-0')).toBeEnabled({ timeout: 120_000 });

    // 16:9 (ticked by default, padded) and 9:16 cropped, for the web
    const panel = page.getByTestId('deliveries-panel');
    await expect(panel.getByRole('checkbox', { name: 'Deliver 16:9 (1920×1080)' })).toBeChecked();
    await panel.getByRole('checkbox', { name: 'Deliver 9:16 (1080×1920)' }).check();
    await panel.getByRole('combobox', { name: 'Fit of 9:16' }).selectOption('crop');
    await expect(page.getByTestId('delivery-preview')).toHaveAttribute('data-preset', '9x16');
    await expect(page.getByTestId('delivery-preview')).toHaveAttribute('data-fit', 'crop');
    await page.getByTestId('delivery-start').click();
    const ready = page.locator('[data-testid="delivery"][data-state="ready"]');
    await expect(ready).toHaveCount(2, { timeout: 180_000 });
    await expect(page.getByTestId('delivery-error')).toHaveCount(0);
    await expect(page.getByTestId('delivery-facts').first()).toContainText('LUFS measured (target -14)');
    await panel.scrollIntoViewIfNeeded();
    await page.screenshot({ path: 'test-results/screenshots/sequence-deliveries.png', fullPage: true });
    expect(await violations(page)).toEqual([]);

    // the 9:16 one plays in the library, then the 16:9 one
    await page.getByRole('button', { name: 'Play the 9:16 delivery in the library' }).click();
    await expect(page.getByTestId('library-film-player')).toHaveAttribute('data-preset', '9x16');
    await expect.poll(() => size(page), { timeout: 20_000 }).toBe('1080x1920');
    await page.getByRole('button', { name: 'Play Pier at night, 16:9' }).click();
    await expect(page.getByTestId('library-film-player')).toHaveAttribute('data-preset', '16x9');
    await expect.poll(() => size(page), { timeout: 20_000 }).toBe('1920x1080');
    await page.getByTestId('library-films').scrollIntoViewIfNeeded();
    await page.screenshot({ path: 'test-results/screenshots/library-films.png', fullPage: true });
    expect(await violations(page)).toEqual([]);
  } finally {
    await started.stop();
  }
});
