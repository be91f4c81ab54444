import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { test as base, type Page } from '@playwright/test';

export interface StudioHost {
  origin: string;
  launchUrl: string;
  token: string;
  dataDir: string;
}

/** Starts `framewright serve` (the browser host with the real core) for one test file. */
export async function startStudioHost(): Promise<{ host: StudioHost; stop: () => Promise<void> }> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'fw-e2e-'));
  const root = path.resolve(import.meta.dirname, '../..');
  const child: ChildProcess = spawn(
    process.execPath,
    [
      path.join(root, 'bin/framewright.js'),
      'serve',
      '--json',
      '--port',
      '0',
      '--data-dir',
      dataDir,
      '--simulator-time-scale',
      '0.05',
    ],
    { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const firstLine = await new Promise<string>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.once('line', resolve);
    child.once('exit', (code) => reject(new Error(`framewright serve exited with ${code}`)));
  });
  const info = JSON.parse(firstLine) as Omit<StudioHost, 'dataDir'>;
  return {
    host: { ...info, dataDir },
    stop: async () => {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    },
  };
}

/**
 * `studio` is one host per worker; `signedIn` opens a page already holding the host cookie (the
 * one-time code of the launch URL can be exchanged only once, by the first test that wants it).
 */
export const test = base.extend<{ signedIn: Page }, { studio: StudioHost }>({
  signedIn: async ({ page, studio }, use) => {
    await page.context().addCookies([{ name: 'framewright_host', value: studio.token, url: studio.origin }]);
    await page.goto(studio.origin + '/');
    await use(page);
  },
  studio: [
    // Playwright requires an object pattern for a fixture's (unused) dependencies
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const { host, stop } = await startStudioHost();
      await use(host);
      await stop();
    },
    { scope: 'worker' },
  ],
});
export { expect } from '@playwright/test';
