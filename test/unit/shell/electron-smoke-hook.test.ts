/**
 * The in-app half of `npm run smoke:electron` (scripts/smoke/electron-smoke-hook.cjs), against a fake
 * Electron app and window: it waits for the first window to load, runs the bridge round-trip in the
 * page, shows Create, saves capturePage's PNG, writes report.json and exits 0; any failing step
 * exits 1 with that step's error in the report. (The real run needs an Electron binary.)
 */
import { EventEmitter } from 'node:events';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempFolder } from '../../support/worlds/temp-folder.js';

interface Hook {
  runSmoke(options: {
    app: EventEmitter;
    reportDir: string;
    timeoutMs?: number;
    exit: (code: number) => void;
  }): void;
  ROUND_TRIP: string;
  SHOW_CREATE: string;
}
const hook = createRequire(import.meta.url)('../../../scripts/smoke/electron-smoke-hook.cjs') as Hook;
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]);

function fakeWindow(answer: (script: string) => unknown, png: Buffer = PNG) {
  const webContents = Object.assign(new EventEmitter(), {
    scripts: [] as string[],
    executeJavaScript: async (script: string) => {
      webContents.scripts.push(script);
      return answer(script);
    },
    capturePage: async () => ({ toPNG: () => png }),
  });
  return { webContents };
}

async function smoke(window: ReturnType<typeof fakeWindow>, timeoutMs = 5_000) {
  const app = new EventEmitter();
  const reportDir = tempFolder('fw-smoke-');
  const exited = new Promise<number>((resolve) =>
    hook.runSmoke({ app, reportDir, timeoutMs, exit: resolve }),
  );
  app.emit('browser-window-created', {}, window);
  window.webContents.emit('did-finish-load');
  const code = await exited;
  const report = JSON.parse(readFileSync(path.join(reportDir, 'report.json'), 'utf8')) as Record<
    string,
    unknown
  >;
  return { code, report, reportDir };
}

const bridgeAnswers = (script: string) =>
  script === hook.ROUND_TRIP
    ? { appInfo: { version: '0.1.0', host: 'electron' }, services: ['sim-video', 'sim-chat'] }
    : 'Framewright';

describe('the Electron smoke run inside the app', () => {
  it('round-trips the bridge, captures Create, writes the report and exits 0', async () => {
    const window = fakeWindow(bridgeAnswers);
    const { code, report, reportDir } = await smoke(window);
    expect(code).toBe(0);
    expect(window.webContents.scripts).toEqual([hook.ROUND_TRIP, hook.SHOW_CREATE]);
    expect(report).toMatchObject({
      ok: true,
      appInfo: { host: 'electron' },
      services: ['sim-video', 'sim-chat'],
      steps: ['window', 'loaded', 'bridge', 'screenshot'],
      screenshot: path.join(reportDir, 'create.png'),
    });
    expect(readFileSync(path.join(reportDir, 'create.png'))).toEqual(PNG);
  });

  it('the page script uses the real bridge: app.info, then the services', () => {
    expect(hook.ROUND_TRIP).toContain("bridge.invoke('app.info', {})");
    expect(hook.ROUND_TRIP).toContain("bridge.invoke('services.list', {})");
    expect(hook.SHOW_CREATE).toContain('[data-testid="nav-create"]');
  });

  it('a failing bridge call exits 1 with the reason in the report, and no screenshot', async () => {
    const window = fakeWindow((script) => {
      if (script === hook.ROUND_TRIP) throw new Error('services.list: the simulator is not running');
      return 'x';
    });
    const { code, report, reportDir } = await smoke(window);
    expect(code).toBe(1);
    expect(report).toMatchObject({
      ok: false,
      error: 'services.list: the simulator is not running',
      steps: ['window', 'loaded'],
    });
    expect(existsSync(path.join(reportDir, 'create.png'))).toBe(false);
  });

  it('an empty capture is a failure', async () => {
    const { code, report } = await smoke(fakeWindow(bridgeAnswers, Buffer.alloc(0)));
    expect(code).toBe(1);
    expect(report.error).toBe('capturePage returned an empty image');
  });

  it('no window within the time limit is a failure', async () => {
    const app = new EventEmitter();
    const reportDir = tempFolder('fw-smoke-');
    const code = await new Promise<number>((resolve) =>
      hook.runSmoke({ app, reportDir, timeoutMs: 50, exit: resolve }),
    );
    expect(code).toBe(1);
    const report = JSON.parse(readFileSync(path.join(reportDir, 'report.json'), 'utf8')) as { error: string };
    expect(report.error).toBe('no window finished loading within 50 ms (steps: none)');
  });
});
