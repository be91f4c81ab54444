import { readFileSync } from 'node:fs';
import { request as playwrightRequest } from '@playwright/test';
import { signInContext } from '../support/studio-host-process';
import { expect, test } from './studio-host';

const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  version: string;
};
const SECTIONS = ['create', 'queue', 'library', 'playground', 'settings'] as const;

test('the studio opens through the one-time link and navigates all five sections', async ({
  page,
  studio,
}) => {
  await page.goto(studio.launchUrl);
  // the code was exchanged for the token (kept by the page, never a cookie) and stripped from the address
  await expect(page).toHaveURL(`${studio.origin}/`);
  await expect(page.getByTestId('status-connection')).toHaveAttribute('data-state', 'connected');
  expect(await page.context().cookies()).toEqual([]);
  // and it works only once
  const second = await page.context().browser()!.newContext();
  const code = new URL(studio.launchUrl).searchParams.get('code');
  const reused = await second.request.post(`${studio.origin}/bridge/session`, { data: { code } });
  expect(reused.status()).toBe(401);
  await second.close();
  // a reload keeps the session (this tab's sessionStorage)
  await page.reload();
  await expect(page.getByTestId('status-connection')).toHaveAttribute('data-state', 'connected');
  await expect(page.getByTestId('nav-create')).toHaveAttribute('data-state', 'active');
  for (const section of SECTIONS) {
    await page.getByTestId(`nav-${section}`).click();
    await expect(page.getByTestId(`nav-${section}`)).toHaveAttribute('data-state', 'active');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await page.screenshot({ path: `test-results/screenshots/shell-${section}.png` });
  }
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Settings');
});

test('a bridge call round-trips to the main-process core', async ({ signedIn: page, studio }) => {
  await page.getByTestId('nav-settings').click();
  // version and host come from the core through the bridge, not from the bundle
  await expect(page.getByTestId('app-version')).toHaveText(pkg.version);
  await expect(page.getByTestId('app-host')).toHaveText('Browser (loopback host)');
  await expect(page.getByText(studio.dataDir)).toBeVisible();
  // the default profile is the embedded simulator, and it connects
  await expect(page.getByTestId('status-profile')).toContainText('Local simulator');
  await expect(page.getByTestId('status-connection')).toHaveAttribute('data-state', 'connected');
});

test('keyboard navigation moves between sections', async ({ signedIn: page }) => {
  await page.getByTestId('nav-create').focus();
  await page.keyboard.press('ArrowDown');
  await expect(page.getByTestId('nav-queue')).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('nav-queue')).toHaveAttribute('data-state', 'active');
});

test('language and theme switch in Settings and persist in the core', async ({ signedIn: page }) => {
  await page.getByTestId('nav-settings').click();
  await page.getByTestId('theme-dark').click();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await page.getByTestId('language-select').click();
  await page.getByTestId('locale-zh-CN').click();
  await expect(page.getByTestId('nav-library')).toContainText('作品库');
  await page.screenshot({ path: 'test-results/screenshots/settings-zh-dark.png' });
  await page.reload();
  await expect(page.getByTestId('nav-library')).toContainText('作品库');
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  // put it back for the other tests of this worker
  await page.getByTestId('nav-settings').click();
  await page.getByTestId('language-select').click();
  await page.getByTestId('locale-system').click();
  await page.getByTestId('theme-system').click();
});

test('a Chinese system gets the studio in Chinese from its first paint; an English one never loads those strings', async ({
  browser,
  studio,
}) => {
  for (const locale of ['zh-CN', 'en-US']) {
    const context = await browser.newContext({ locale });
    await signInContext(context, studio);
    // the navigation's text at the moment it first enters the document
    await context.addInitScript({
      content: `new MutationObserver((_records, observer) => {
        const nav = document.querySelector('[data-testid="nav-create"]');
        if (nav) { window.__firstNavText = nav.textContent; observer.disconnect(); }
      }).observe(document, { subtree: true, childList: true });`,
    });
    const page = await context.newPage();
    const chunks: string[] = [];
    page.on('request', (request) => chunks.push(new URL(request.url()).pathname));
    await page.goto(studio.origin + '/');
    await page.getByTestId('nav-create').waitFor();
    // the first render already speaks the system's language (no English flash)
    expect(await page.evaluate('window.__firstNavText')).toContain(locale === 'zh-CN' ? '创作' : 'Create');
    const chinese = chunks.filter((p) => /\/assets\/(studio-)?zh-CN-[^/]+\.js$/.test(p));
    expect(chinese).toHaveLength(locale === 'zh-CN' ? 2 : 0);
    await context.close();
  }
});

test('a call without the host token is refused', async ({ studio }) => {
  const anonymous = await playwrightRequest.newContext();
  const response = await anonymous.post(`${studio.origin}/bridge/invoke`, {
    data: { method: 'app.info', params: {} },
  });
  expect(response.status()).toBe(401);
  expect(await response.text()).not.toContain(pkg.version);
  // the renderer itself is public code: served, but it grants nothing
  const page = await anonymous.get(`${studio.origin}/`);
  expect(page.status()).toBe(200);
  expect(page.headers()['set-cookie']).toBeUndefined();
  await anonymous.dispose();
});
