/**
 * The platform world of the end-to-end tests: the two real commands, `framewright simulator` (the
 * platform) and `framewright serve --platform` (the backend, serving the built renderer), each a
 * child process over its own folder of one temp folder; and a page of a fixture person who opened
 * the application from the application center. `close()` stops both and removes the folder.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { expect, type Browser, type Page } from '@playwright/test';
import { launchCodeOf, type SimulatorPlatform } from '../support/platform-simulator';
import { APP_KEY, freePort, type PlatformUser } from '../support/worlds/platform-simulator';

const root = path.resolve(import.meta.dirname, '../..');
const bin = path.join(root, 'bin/framewright.js');

export interface PlatformDeployment {
  /** The temp folder of this deployment (the simulator's data in `sim/`, the backend's in `backend/`). */
  dir: string;
  /** The backend's public origin. */
  origin: string;
  /** The simulator's token and platform addresses, as `framewright simulator --json` announced them. */
  simulator: SimulatorPlatform & { platform: { sessionBaseUrl: string } };
  /** Opens Framewright as `user`, as the application center does (a fresh browser context). */
  openAs(browser: Browser, user: PlatformUser): Promise<Page>;
  close(): Promise<void>;
}

/** Starts a command and answers its first stdout line (its `--json` announcement). */
function start(args: string[], env: NodeJS.ProcessEnv): Promise<{ child: ChildProcess; line: string }> {
  const child = spawn(process.execPath, [bin, ...args], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`framewright ${args[0]} exited with ${code}`)));
    createInterface({ input: child.stdout! }).once('line', (line) => resolve({ child, line }));
  });
}

async function stop(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

export async function startPlatformDeployment(prefix = 'fw-e2e-platform-'): Promise<PlatformDeployment> {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  const env = { PATH: process.env.PATH ?? '', HOME: dir };
  const children: ChildProcess[] = [];
  const close = async () => {
    for (const child of children.reverse()) await stop(child);
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const sim = await start(['simulator', '--json', '--port', '0', '--data-dir', path.join(dir, 'sim')], env);
    children.push(sim.child);
    const simulator = JSON.parse(sim.line) as PlatformDeployment['simulator'];
    const port = await freePort();
    const origin = `http://127.0.0.1:${port}`;
    const app = simulator.platform.apps.find((a) => a.appKey === APP_KEY)!;
    const args = ['serve', '--platform', '--json', '--port', String(port)];
    const served = await start(
      [...args, '--data-dir', path.join(dir, 'backend'), '--renderer-dir', path.join(root, 'out/renderer')],
      {
        ...env,
        PLATFORM_APP_RUNTIME_BASE_URL: simulator.platform.runtimeBaseUrl,
        PLATFORM_APP_SESSION_BASE_URL: simulator.platform.sessionBaseUrl,
        PLATFORM_APP_KEY: APP_KEY,
        PLATFORM_APP_CREDENTIAL: app.appCredential,
        FRAMEWRIGHT_PUBLIC_URL: origin,
      },
    );
    children.push(served.child);
    expect(JSON.parse(served.line)).toEqual({ origin, mode: 'platform' });
    return {
      dir,
      origin,
      simulator,
      async openAs(browser, user) {
        const launchCode = await launchCodeOf(simulator, APP_KEY, user);
        const context = await browser.newContext({ acceptDownloads: true });
        const page = await context.newPage();
        await page.goto(`${origin}/?launchCode=${launchCode}`);
        await expect(page).toHaveURL(`${origin}/`);
        await expect(page.getByTestId('nav-create')).toBeVisible();
        return page;
      },
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}
