import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { expect, type Browser, type Page } from '@playwright/test';
import { freePort } from '../integration/platform-host/harness';
import { launchCodeOf, type SimulatorPlatform } from '../support/platform-simulator';

/**
 * The platform world of the end-to-end tests (lane G2's copy of platform-studio.spec.ts's set-up,
 * to be unified with platform-world.ts): the two real commands, `framewright simulator` (the
 * platform) and `framewright serve --platform` (the backend), and a person opened in Chromium
 * through a launch code, as the application center does.
 */
export const APP_KEY = 'framewright-studio';
const root = path.resolve(import.meta.dirname, '../..');
const bin = path.join(root, 'bin/framewright.js');

export type PlatformUser = 'member' | 'personal' | 'manager';

export interface PlatformWorld {
  /** The backend's origin, as the browser reaches it. */
  origin: string;
  /** A temporary folder of this world (removed by `stop`). */
  dir: string;
  /** The simulator as the platform's test helpers take it. */
  sim: SimulatorPlatform;
  /** Opens Framewright as `user` in a fresh browser context, signed in through a launch code. */
  openAs(browser: Browser, user: PlatformUser): Promise<Page>;
  /** Stops the backend, then the simulator, and removes the folder. */
  stop(): Promise<void>;
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

async function stopChild(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

/** Starts the simulator and `serve --platform` over it (the simulator at its demo pacing). */
export async function startPlatformWorld(name: string): Promise<PlatformWorld> {
  const dir = mkdtempSync(path.join(os.tmpdir(), `fw-e2e-${name}-`));
  const env = { PATH: process.env.PATH ?? '', HOME: dir };
  const children: ChildProcess[] = [];
  const stop = async () => {
    for (const child of children.reverse()) await stopChild(child);
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const simulator = await start(
      ['simulator', '--json', '--port', '0', '--data-dir', path.join(dir, 'sim')],
      env,
    );
    children.push(simulator.child);
    const announced = JSON.parse(simulator.line) as {
      token: string;
      platform: SimulatorPlatform['platform'] & { sessionBaseUrl: string };
    };
    const sim: SimulatorPlatform = { token: announced.token, platform: announced.platform };
    const app = announced.platform.apps.find((a) => a.appKey === APP_KEY)!;
    const port = await freePort();
    const origin = `http://127.0.0.1:${port}`;
    const served = await start(
      [
        'serve',
        '--platform',
        '--json',
        '--port',
        String(port),
        '--data-dir',
        path.join(dir, 'backend'),
        '--renderer-dir',
        path.join(root, 'out/renderer'),
      ],
      {
        ...env,
        PLATFORM_APP_RUNTIME_BASE_URL: announced.platform.runtimeBaseUrl,
        PLATFORM_APP_SESSION_BASE_URL: announced.platform.sessionBaseUrl,
        PLATFORM_APP_KEY: APP_KEY,
        PLATFORM_APP_CREDENTIAL: app.appCredential,
        FRAMEWRIGHT_PUBLIC_URL: origin,
      },
    );
    children.push(served.child);
    expect(JSON.parse(served.line)).toEqual({ origin, mode: 'platform' });
    const openAs = async (browser: Browser, user: PlatformUser): Promise<Page> => {
      const launchCode = await launchCodeOf(sim, APP_KEY, user);
      const context = await browser.newContext({ acceptDownloads: true });
      const page = await context.newPage();
      await page.goto(`${origin}/?launchCode=${launchCode}`);
      await expect(page).toHaveURL(`${origin}/`);
      await expect(page.getByTestId('nav-create')).toBeVisible();
      return page;
    };
    return { origin, dir, sim, openAs, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
