import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

/**
 * axe-core's violations of the page as it is now, one line each: rule, impact, where, why. Every
 * rule runs; only the violations' nodes are collected (`resultTypes`: axe then skips building
 * selectors for every passing node, most of its time on a full screen).
 */
export async function violations(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page }).options({ resultTypes: ['violations'] }).analyze();
  return result.violations.flatMap((v) =>
    v.nodes.map((n) => `${v.id} (${v.impact ?? 'n/a'}): ${n.target.join(' ')} — ${n.failureSummary ?? ''}`),
  );
}

/**
 * Every screen the navigation offers, in one theme: the theme is chosen in Settings, then each
 * section is opened and checked (the Playground's every panel too). Answers the violations found,
 * each prefixed by its screen.
 */
export async function violationsOfEveryScreen(page: Page, theme: 'light' | 'dark'): Promise<string[]> {
  await page.getByTestId('nav-settings').click();
  await page.getByTestId(`theme-${theme}`).click();
  await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
  const sections = await page
    .locator('[data-testid^="nav-"]')
    .evaluateAll((links) => links.map((l) => l.getAttribute('data-testid')!.slice('nav-'.length)));
  expect(sections.length).toBeGreaterThanOrEqual(5);
  const found: string[] = [];
  for (const section of sections) {
    await page.getByTestId(`nav-${section}`).click();
    await expect(page.getByTestId(`nav-${section}`)).toHaveAttribute('data-state', 'active');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    found.push(...(await violations(page)).map((line) => `${section}: ${line}`));
    if (section !== 'playground') continue;
    const panels = page.locator('.pg-tab-list').getByRole('tab');
    expect(await panels.count()).toBeGreaterThanOrEqual(2);
    for (let i = 0; i < (await panels.count()); i++) {
      const panel = panels.nth(i);
      const name = (await panel.textContent())?.trim() ?? String(i);
      await panel.click();
      await expect(panel).toHaveAttribute('aria-selected', 'true');
      await expect(page.getByRole('tabpanel', { name, exact: true })).toBeVisible();
      found.push(...(await violations(page)).map((line) => `playground/${name}: ${line}`));
    }
  }
  return found;
}
