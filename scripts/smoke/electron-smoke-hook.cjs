// Loaded into the real Electron app's main process by `npm run smoke:electron`
// (NODE_OPTIONS=--require, only when FRAMEWRIGHT_SMOKE_DIR is set). It waits for the app's first
// window, runs a bridge round-trip in the real renderer through window.framewright (app info, the
// simulator's services), shows the Create screen, saves it through webContents.capturePage, writes
// report.json, and exits 0 — or 1 with the failing step in the report.
/* eslint-disable @typescript-eslint/no-require-imports -- a CommonJS module, loaded with --require */
'use strict';
const fs = require('node:fs');
const path = require('node:path');

/** In the page: the bridge exactly as the renderer uses it. */
const ROUND_TRIP = `(async () => {
  const bridge = window.framewright;
  if (!bridge || typeof bridge.invoke !== 'function') throw new Error('window.framewright is missing');
  const info = await bridge.invoke('app.info', {});
  if (!info.ok) throw new Error('app.info: ' + info.error.message);
  const services = await bridge.invoke('services.list', {});
  if (!services.ok) throw new Error('services.list: ' + services.error.message);
  return { appInfo: info.result, services: services.result.services.map((s) => s.modelAlias) };
})()`;

const SHOW_CREATE = `(async () => {
  const tab = document.querySelector('[data-testid="nav-create"]');
  if (!tab) throw new Error('the Create tab is missing');
  tab.click();
  await new Promise((resolve) => setTimeout(resolve, 500));
  return document.title;
})()`;

/**
 * @param {{ app: any, reportDir: string, timeoutMs?: number, exit?: (code: number) => void }} options
 */
function runSmoke({ app, reportDir, timeoutMs = 90_000, exit = (code) => app.exit(code) }) {
  const startedAt = Date.now();
  const report = {
    ok: false,
    electron: process.versions.electron,
    modules: process.versions.modules,
    steps: [],
  };
  let finished = false;
  const finish = (error) => {
    if (finished) return;
    finished = true;
    clearTimeout(timer);
    if (error) report.error = error instanceof Error ? error.message : String(error);
    report.ok = !error;
    report.durationMs = Date.now() - startedAt;
    fs.mkdirSync(reportDir, { recursive: true });
    fs.writeFileSync(path.join(reportDir, 'report.json'), JSON.stringify(report, null, 2) + '\n');
    exit(error ? 1 : 0);
  };
  const timer = setTimeout(
    () =>
      finish(
        new Error(
          `no window finished loading within ${timeoutMs} ms (steps: ${report.steps.join(', ') || 'none'})`,
        ),
      ),
    timeoutMs,
  );
  app.on('browser-window-created', (_event, window) => {
    report.steps.push('window');
    window.webContents.once('did-fail-load', (_e, code, description) =>
      finish(new Error(`the renderer failed to load (${code} ${description})`)),
    );
    window.webContents.once('did-finish-load', async () => {
      try {
        report.steps.push('loaded');
        Object.assign(report, await window.webContents.executeJavaScript(ROUND_TRIP, true));
        report.steps.push('bridge');
        report.title = await window.webContents.executeJavaScript(SHOW_CREATE, true);
        const image = await window.webContents.capturePage();
        const png = image.toPNG();
        if (!png || png.length === 0) throw new Error('capturePage returned an empty image');
        report.screenshot = path.join(reportDir, 'create.png');
        fs.mkdirSync(reportDir, { recursive: true });
        fs.writeFileSync(report.screenshot, png);
        report.steps.push('screenshot');
        finish();
      } catch (error) {
        finish(error);
      }
    });
  });
}

module.exports = { runSmoke, ROUND_TRIP, SHOW_CREATE };

if (process.versions.electron && process.env.FRAMEWRIGHT_SMOKE_DIR) {
  // --require runs during Node's bootstrap, before Electron's own modules are set up: take `app`
  // once the app's main script is running.
  setImmediate(() => {
    if (process.type !== 'browser') return;
    const { app } = require('electron');
    if (!app || typeof app.on !== 'function') {
      console.error('electron-smoke-hook: the electron module has no app here');
      process.exit(1);
    }
    runSmoke({ app, reportDir: process.env.FRAMEWRIGHT_SMOKE_DIR });
  });
}
