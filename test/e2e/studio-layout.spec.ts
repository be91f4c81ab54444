import type { Locator } from '@playwright/test';
import { expect, test } from './studio-host';

/** A control's box on the page (it must be visible). */
async function box(locator: Locator) {
  await expect(locator).toBeVisible();
  const found = await locator.boundingBox();
  if (!found) throw new Error('no box');
  return found;
}

for (const width of [1024, 1280, 1440]) {
  test(`Library at ${width} px: the date range stays on one row ("To" is never alone)`, async ({
    signedIn: page,
  }) => {
    await page.setViewportSize({ width, height: 800 });
    await page.getByTestId('nav-library').click();
    const from = await box(page.getByLabel('From', { exact: true }));
    const to = await box(page.getByLabel('To', { exact: true }));
    expect(Math.abs(from.y - to.y)).toBeLessThan(4);
    // and nothing of the bar spills past the window
    const bar = await box(page.locator('.filters'));
    expect(bar.x + bar.width).toBeLessThanOrEqual(width);
    if (width === 1280) await page.screenshot({ path: 'test-results/screenshots/library-filters-1280.png' });
  });
}

test('Create: the Project label sits above its select, like every other field', async ({
  signedIn: page,
}) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.getByTestId('nav-create').click();
  const label = await box(page.locator('label[for="project-picker"]'));
  const select = await box(page.getByTestId('project-picker'));
  expect(label.y + label.height).toBeLessThanOrEqual(select.y + 1);
  const model = await box(page.getByTestId('field-generationMode'));
  expect(model.width).toBeGreaterThan(0);
});
