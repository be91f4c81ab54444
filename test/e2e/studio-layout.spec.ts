import type { Locator, Page } from '@playwright/test';
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
    // measured once the layout has settled (the screen's styles and the new width): a wait on the
    // condition, so a "To" that stays on a row of its own still fails
    const rows = async () =>
      Math.abs(
        (await box(page.getByLabel('From', { exact: true }))).y -
          (await box(page.getByLabel('To', { exact: true }))).y,
      );
    await expect.poll(rows).toBeLessThan(4);
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

/** The few page globals the style probe uses (the e2e specs are typechecked without the DOM's types). */
interface StyleProbeGlobals {
  document: {
    body: { append(...nodes: unknown[]): void };
    documentElement: { dataset: Record<string, string> };
    createElement(tag: string): { className: string; style: Record<string, string>; remove(): void };
  };
  getComputedStyle(
    element: unknown,
  ): Record<'backgroundColor' | 'color' | 'paddingTop' | 'paddingLeft', string>;
}

/** The computed style of a fresh `<button>` with these classes, and the theme's colours. */
async function buttonStyle(page: Page, className: string) {
  return page.evaluate((cls) => {
    const g = globalThis as unknown as StyleProbeGlobals;
    const button = g.document.createElement('button');
    button.className = cls;
    // the theme's variables resolved to colours by the same engine that paints the button
    const probe = g.document.createElement('span');
    probe.style.background = 'var(--accent)';
    probe.style.color = 'var(--accent-text)';
    g.document.body.append(button, probe);
    const got = g.getComputedStyle(button);
    const want = g.getComputedStyle(probe);
    const style = {
      background: got.backgroundColor,
      color: got.color,
      padding: `${got.paddingTop} ${got.paddingLeft}`,
      accent: want.backgroundColor,
      accentText: want.color,
    };
    button.remove();
    probe.remove();
    return style;
  }, className);
}

for (const theme of ['light', 'dark'] as const) {
  test(`Create in the ${theme} theme: primary buttons have the accent colour and small buttons their own padding (studio.css wins over the base styles)`, async ({
    signedIn: page,
  }) => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.getByTestId('nav-create').click();
    await expect(page.locator('.button-primary').first()).toBeVisible();
    await page.evaluate((t) => {
      (globalThis as unknown as StyleProbeGlobals).document.documentElement.dataset.theme = t;
    }, theme);
    const primary = await buttonStyle(page, 'button button-primary');
    expect(primary.background).toBe(primary.accent);
    expect(primary.color).toBe(primary.accentText);
    const smallPrimary = await buttonStyle(page, 'button button-small button-primary');
    expect(smallPrimary.background).toBe(smallPrimary.accent);
    // a small button keeps studio.css's padding, not the base .button's 6px 14px
    expect(smallPrimary.padding).toBe('2px 8px');
    expect((await buttonStyle(page, 'button button-small')).padding).toBe('2px 8px');
    await page.screenshot({ path: `test-results/screenshots/create-primary-button-${theme}.png` });
  });
}
