import { spawn, type ChildProcess } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { freePort } from '../integration/platform-host/harness';
import { launchCodeOf, type SimulatorPlatform } from '../support/platform-simulator';

/**
 * The platform world of the e2e tests: Framewright deployed as a platform application, started
 * with the two real commands — `framewright simulator` (the platform) and `framewright serve
 * --platform` (the backend) — in a fresh temporary folder; a person opens it as the application
 * center does (a launch code); `close()` stops both commands and removes the folder.
 */
export const APP_KEY = 'framewright-studio';
/** The second application of the simulator, whose boards Framewright imports (issue 29). */
export const STORYBOARD_HELPER_KEY = 'storyboard-helper';
const root = path.resolve(import.meta.dirname, '../..');
const bin = path.join(root, 'bin/framewright.js');

/** A fixture person of the simulator's platform. */
export type PlatformUser = 'member' | 'personal' | 'manager';

export interface PlatformWorld {
  /** The world's temporary folder (the simulator's and the backend's data live under it). */
  dir: string;
  /** The backend's origin, e.g. `http://127.0.0.1:PORT`. */
  origin: string;
  /** The simulator as the platform's helpers take it (its token and its platform's addresses). */
  simulator: SimulatorPlatform & {
    platform: { sessionBaseUrl: string; apps: { appKey: string; businessBaseUrl?: string }[] };
  };
  /** storyboard-helper's business address (the backend's FRAMEWRIGHT_STORYBOARD_HELPER_URL). */
  storyboardHelperUrl: string;
  /**
   * The backend's access log so far as `METHOD /path STATUS` (the path only, never a query): e.g.
   * `GET /objects/<subject>/<sha256> 200` when the runtime read a signed readUrl of a person's object.
   */
  backendRequests(): string[];
  /** Opens Framewright as `user` in a new browser context, signed in by a launch code. */
  openAs(browser: Browser, user: PlatformUser): Promise<Page>;
  /** Stops the backend and the simulator and removes the folder. */
  close(): Promise<void>;
}

/**
 * Starts a command and answers its first stdout line (its `--json` announcement); its stderr is
 * passed on to this process's; every line of both, the first included, goes to `onLine`.
 */
function start(
  args: string[],
  env: NodeJS.ProcessEnv,
  onLine: (line: string) => void = () => undefined,
): Promise<{ child: ChildProcess; line: string }> {
  const child = spawn(process.execPath, [bin, ...args], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stderr!.pipe(process.stderr, { end: false });
  createInterface({ input: child.stderr! }).on('line', onLine);
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`framewright ${args[0]} exited with ${code}`)));
    const lines = createInterface({ input: child.stdout! });
    lines.once('line', (line) => resolve({ child, line }));
    lines.on('line', onLine);
  });
}

/** Secrets the simulator makes: runtime sessions, debug sessions, job recovery references. */
const SIMULATOR_SECRET = /\b(?:rs|rs_dbg|jrr)_[A-Za-z0-9_-]{43}\b/;
/** A query that carries a secret: a launch code, a readUrl's signature. */
const SECRET_QUERY = /launchCode=|[?&]sig=/;

/**
 * Every line the backend logged (stdout, stderr and its log files) that holds a secret it was
 * given or that a person's work made: the application credential, a launch code, a session cookie,
 * a CSRF token, a runtime session, a recovery reference or a readUrl's signature. Empty, always.
 */
function leakedSecrets(lines: readonly string[], logsDir: string, secrets: ReadonlySet<string>): string[] {
  const files = existsSync(logsDir)
    ? readdirSync(logsDir).flatMap((name) => readFileSync(path.join(logsDir, name), 'utf8').split('\n'))
    : [];
  return [...lines, ...files].filter(
    (line) =>
      SIMULATOR_SECRET.test(line) ||
      SECRET_QUERY.test(line) ||
      [...secrets].some((secret) => secret.length >= 8 && line.includes(secret)),
  );
}

async function stop(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

/** Starts the simulator and `serve --platform` in a new folder named after `name`. */
export async function startPlatformWorld(name: string): Promise<PlatformWorld> {
  const dir = mkdtempSync(path.join(os.tmpdir(), `fw-e2e-${name}-`));
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH ?? '',
    HOME: dir,
    // the encoder's speed npm test chose for the run (scripts/test-all.mjs), passed on as an operator would
    ...(process.env.FRAMEWRIGHT_ENCODER_PRESET
      ? { FRAMEWRIGHT_ENCODER_PRESET: process.env.FRAMEWRIGHT_ENCODER_PRESET }
      : {}),
  };
  const children: ChildProcess[] = [];
  /** What the backend printed, and the secrets it must never print (checked when the world closes). */
  const backendLines: string[] = [];
  const secrets = new Set<string>();
  let started = false;
  const close = async () => {
    for (const child of children.reverse()) await stop(child);
    const leaks = started ? leakedSecrets(backendLines, path.join(dir, 'backend', 'logs'), secrets) : [];
    // the backend's log, kept beside the reports to read after a failure (no secret: checked above)
    if (leaks.length === 0) {
      mkdirSync(path.join(root, 'test-results', 'backend-logs'), { recursive: true });
      writeFileSync(
        path.join(root, 'test-results', 'backend-logs', `${name}.log`),
        backendLines.join('\n') + '\n',
      );
    }
    rmSync(dir, { recursive: true, force: true });
    expect(leaks, 'secrets in the backend’s log').toEqual([]);
  };
  try {
    const sim = await start(['simulator', '--json', '--port', '0', '--data-dir', path.join(dir, 'sim')], env);
    children.push(sim.child);
    const simulator = JSON.parse(sim.line) as PlatformWorld['simulator'];
    const port = await freePort();
    const origin = `http://127.0.0.1:${port}`;
    const app = simulator.platform.apps.find((a) => a.appKey === APP_KEY)!;
    const apps: { appKey: string; businessBaseUrl?: string }[] = simulator.platform.apps;
    const storyboardHelperUrl = apps.find((a) => a.appKey === STORYBOARD_HELPER_KEY)!.businessBaseUrl!;
    secrets.add(app.appCredential);
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
        PLATFORM_APP_RUNTIME_BASE_URL: simulator.platform.runtimeBaseUrl,
        PLATFORM_APP_SESSION_BASE_URL: simulator.platform.sessionBaseUrl,
        PLATFORM_APP_KEY: APP_KEY,
        PLATFORM_APP_CREDENTIAL: app.appCredential,
        FRAMEWRIGHT_PUBLIC_URL: origin,
        FRAMEWRIGHT_STORYBOARD_HELPER_URL: storyboardHelperUrl,
      },
      (line) => backendLines.push(line),
    );
    children.push(served.child);
    started = true;
    expect(JSON.parse(served.line)).toEqual({ origin, mode: 'platform' });
    return {
      dir,
      origin,
      simulator,
      storyboardHelperUrl,
      // the access log: one JSON object per line on stdout
      backendRequests: () =>
        backendLines.flatMap((line) => {
          try {
            const entry = JSON.parse(line) as {
              message?: string;
              method?: string;
              route?: string;
              status?: number;
            };
            return entry.message === 'request' ? [`${entry.method} ${entry.route} ${entry.status}`] : [];
          } catch {
            return [];
          }
        }),
      async openAs(browser, user) {
        const launchCode = await launchCodeOf(simulator, APP_KEY, user);
        secrets.add(launchCode);
        const context = await browser.newContext({ acceptDownloads: true });
        const page = await context.newPage();
        await page.goto(`${origin}/?launchCode=${launchCode}`);
        await expect(page).toHaveURL(`${origin}/`);
        // a browser with no session is asked whom the link signs in (login CSRF): the person says yes
        const confirmed = page.waitForResponse(
          (r) =>
            r.url() === `${origin}/platform/session` && r.request().method() === 'POST' && r.status() === 200,
        );
        await page.getByRole('button', { name: 'Open Framewright' }).click();
        // the session's cookie and CSRF token, as the host answered them: neither may ever reach its log
        const { result } = (await (await confirmed).json()) as { result: { csrfToken: string } };
        secrets.add(result.csrfToken);
        await expect(page.getByTestId('nav-create')).toBeVisible();
        for (const cookie of await context.cookies()) secrets.add(cookie.value);
        return page;
      },
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

/**
 * The platform world `name` for a spec file's tests, which run in order: started before them, then
 * `opened(world, browser)` (e.g. a person's page kept in the file's own variables); after them every
 * page the world opened is closed, then the world.
 */
export function usePlatformWorld(
  name: string,
  opened: (world: PlatformWorld, browser: Browser) => Promise<void> = async () => undefined,
): void {
  let world: PlatformWorld | undefined;
  const pages: Page[] = [];
  test.describe.configure({ mode: 'serial' });
  test.beforeAll(async ({ browser }) => {
    const started = await startPlatformWorld(name);
    world = {
      ...started,
      openAs: async (on, user) => {
        const page = await started.openAs(on, user);
        pages.push(page);
        return page;
      },
    };
    await opened(world, browser);
  });
  test.afterAll(async () => {
    for (const page of pages) await page.context().close();
    await world?.close();
  });
}
