import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { PlatformWorkspaces } from '../../src/main/core/platform/platform-workspaces';
import { ServerSessions } from '../../src/main/core/platform/runtime-sessions/server-sessions';
import { createSessionService } from '../../src/main/core/platform/runtime-sessions/session-service';
import { startPlatformHost, type RunningPlatformHost } from '../../src/main/host/platform-host';
import { startSimulator, type RunningSimulator } from '../../src/simulator/index';
import { freePort } from '../support/worlds/platform-simulator';
import { MemorySecretStore } from '../support/memory-secret-store';

/**
 * Framewright opened from the platform's application center, in Chromium: the page takes the
 * launch code out of the address bar, the backend answers with an HttpOnly cookie, and a spent
 * code shows the one "reopen" screen. (The studio's features are wired per workspace by the
 * composition root; here each workspace answers with a stand-in.)
 */
const APP_KEY = 'framewright-studio';
let sim: RunningSimulator;
let host: RunningPlatformHost;
let workspaces: PlatformWorkspaces;
let origin: string;
let dataDir: string;

test.beforeAll(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'fw-e2e-platform-'));
  sim = await startSimulator({ port: 0, timeScale: 0.01 });
  const app = sim.platform.apps.find((a) => a.appKey === APP_KEY)!;
  const port = await freePort();
  origin = `http://127.0.0.1:${port}`;
  workspaces = new PlatformWorkspaces({
    dataDir,
    workspaceDispatcher: () => ({
      dispatch: async () => ({ ok: false, error: { code: 'platform.not_wired', message: 'Not wired yet.' } }),
    }),
  });
  host = await startPlatformHost({
    publicOrigin: origin,
    sessions: new ServerSessions({
      service: createSessionService({
        sessionBaseUrl: sim.platform.sessionBaseUrl,
        appKey: APP_KEY,
        appCredential: app.appCredential,
      }),
      secrets: new MemorySecretStore(),
    }),
    workspaces,
    rendererDir: path.resolve(import.meta.dirname, '../../out/renderer'),
    port,
  });
});

test.afterAll(async () => {
  await host?.close();
  await workspaces?.close();
  await sim?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

async function launchCode(user: string): Promise<string> {
  const answer = await fetch(sim.platform.launchUrl, {
    method: 'POST',
    headers: { Authorization: `Bearer ${sim.token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ appKey: APP_KEY, user }),
  });
  return ((await answer.json()) as { runtime: { launchCode: string } }).runtime.launchCode;
}

test('opened with a launch code: the code leaves the address bar, the session is an HttpOnly cookie', async ({
  page,
  browser,
}) => {
  const code = await launchCode('member');
  await page.goto(`${origin}/?launchCode=${code}`);
  await expect(page).toHaveURL(`${origin}/`);
  // no session in this browser: the page says whom the link signs in, and no cookie is set before yes
  await expect(page.getByRole('heading', { name: 'Open Framewright as this person?' })).toBeVisible();
  await expect(page.getByTestId('platform-question-who')).toContainText('This link signs you in as');
  expect(await page.context().cookies()).toEqual([]);
  await page.screenshot({ path: 'test-results/screenshots/platform-sign-in-question.png' });
  await page.getByRole('button', { name: 'Open Framewright' }).click();
  await expect(page.getByTestId('nav-create')).toBeVisible();
  await expect(
    page.getByRole('heading', { name: 'Reopen Framewright from your application center' }),
  ).toHaveCount(0);
  const cookies = await page.context().cookies();
  expect(cookies).toHaveLength(1);
  expect(cookies[0]).toMatchObject({
    name: 'framewright_session',
    httpOnly: true,
    sameSite: 'Strict',
    path: '/',
  });
  expect(await page.evaluate('document.cookie')).toBe('');
  await page.screenshot({ path: 'test-results/screenshots/platform-signed-in.png' });

  // the same code again, in another browser: spent, so the page says to reopen the application
  const other = await browser.newContext();
  const second = await other.newPage();
  await second.goto(`${origin}/?launchCode=${code}`);
  await expect(second).toHaveURL(`${origin}/`);
  await expect(
    second.getByRole('heading', { name: 'Reopen Framewright from your application center' }),
  ).toBeVisible();
  expect(await other.cookies()).toEqual([]);
  await second.screenshot({ path: 'test-results/screenshots/platform-reopen.png' });
  await other.close();
});

test('a launch link opened in a browser signed in as someone else asks first, and switches only when told', async ({
  browser,
}) => {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`${origin}/?launchCode=${await launchCode('member')}`);
  await page.getByRole('button', { name: 'Open Framewright' }).click();
  await expect(page.getByTestId('nav-create')).toBeVisible();
  const [memberCookie] = await context.cookies();

  // another person's fresh link, opened in this browser: nothing is exchanged yet, the page asks
  const foreign = await launchCode('personal');
  await page.goto(`${origin}/?launchCode=${foreign}`);
  await expect(page.getByRole('heading', { name: 'Sign in with this link?' })).toBeVisible();
  await expect(page).toHaveURL(`${origin}/`);
  expect(
    await page.evaluate(() => {
      // the page's own storage (this file is type-checked without the DOM library)
      const { sessionStorage, localStorage } = globalThis as unknown as Record<string, object>;
      return JSON.stringify({ ...sessionStorage, ...localStorage });
    }),
  ).not.toContain(foreign);
  expect((await context.cookies())[0]!.value).toBe(memberCookie!.value);
  await page.screenshot({ path: 'test-results/screenshots/platform-switch-question.png' });

  // staying keeps the current person
  await page.getByRole('button', { name: 'Stay signed in' }).click();
  await expect(page.getByTestId('nav-create')).toBeVisible();
  expect((await context.cookies())[0]!.value).toBe(memberCookie!.value);

  // the same kind of link again, confirmed this time: the browser switches, the old session ends
  await page.goto(`${origin}/?launchCode=${await launchCode('personal')}`);
  await page.getByRole('button', { name: 'Sign in with the link' }).click();
  await expect(page.getByTestId('nav-create')).toBeVisible();
  const [switched] = await context.cookies();
  expect(switched!.value).not.toBe(memberCookie!.value);
  const old = await fetch(`${origin}/platform/session`, {
    headers: { Cookie: `${memberCookie!.name}=${memberCookie!.value}` },
  });
  expect(old.status).toBe(401);
  await context.close();
});

test('a launch link in a browser with no session, declined: nobody is signed in and the held session ends', async ({
  page,
}) => {
  await page.goto(`${origin}/?launchCode=${await launchCode('personal')}`);
  await page.getByRole('button', { name: 'Do not sign in' }).click();
  await expect(
    page.getByRole('heading', { name: 'Reopen Framewright from your application center' }),
  ).toBeVisible();
  expect(await page.context().cookies()).toEqual([]);
});
