#!/usr/bin/env node
// `npm run smoke:electron`: the real desktop app, end to end, in the real Electron. Builds the
// bundles and Electron's copy of better-sqlite3 if needed, launches the app (under `xvfb-run` where
// there is no display) on a throw-away data folder with the local simulator, and through
// scripts/smoke/electron-smoke-hook.cjs: waits for the window, runs a bridge round-trip in the real
// renderer (app info, the simulator's services), shows the Create screen and saves it with
// webContents.capturePage, writes report.json, and quits.
//
//   npm run smoke:electron [-- --out DIR]     (default DIR: test-results/electron-smoke)
//
// Exit codes: 0 passed · 1 the app started but a step failed (see report.json) ·
// 3 no Electron binary here · 4 no display and no xvfb-run · 5 better-sqlite3 cannot be built for
// this Electron.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureAppBuilt } from './app-build.mjs';
import { findElectronBinary, hasDisplay } from './electron-binary.mjs';
import { ensureElectronCopy } from './electron-native.mjs';

export const SMOKE_EXIT = { passed: 0, failed: 1, noElectron: 3, noDisplay: 4, noNativeBuild: 5 };

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const outFlag = args.indexOf('--out');
const reportDir = path.resolve(
  outFlag >= 0 ? args[outFlag + 1] : path.join(root, 'test-results', 'electron-smoke'),
);
const hook = path.join(root, 'scripts', 'smoke', 'electron-smoke-hook.cjs');
const TIMEOUT_MS = 150_000;

function onPath(command) {
  return spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;
}

const found = findElectronBinary();
if (!found.binary) {
  console.log(`Electron smoke: no Electron binary here (${found.reason}).`);
  process.exit(SMOKE_EXIT.noElectron);
}
if (!hasDisplay()) {
  if (onPath('xvfb-run') && !process.env.FRAMEWRIGHT_SMOKE_XVFB) {
    const nested = spawnSync('xvfb-run', ['-a', process.execPath, fileURLToPath(import.meta.url), ...args], {
      stdio: 'inherit',
      env: { ...process.env, FRAMEWRIGHT_SMOKE_XVFB: '1' },
    });
    process.exit(nested.status ?? SMOKE_EXIT.failed);
  }
  console.log('Electron smoke: there is no display and no xvfb-run (Debian: sudo apt-get install xvfb).');
  process.exit(SMOKE_EXIT.noDisplay);
}
ensureAppBuilt();
const copy = ensureElectronCopy(found.binary);
if (!copy.ok) {
  console.log(`Electron smoke: ${copy.reason}.`);
  process.exit(SMOKE_EXIT.noNativeBuild);
}

const userData = mkdtempSync(path.join(tmpdir(), 'framewright-smoke-'));
rmSync(path.join(reportDir, 'report.json'), { force: true });
const electronArgs = [root, `--user-data-dir=${userData}`];
// Chromium refuses to run as root with its sandbox (containers, CI); the renderer's own
// contextIsolation/sandbox settings are unchanged.
if (process.getuid?.() === 0) electronArgs.push('--no-sandbox');
const child = spawn(found.binary, electronArgs, {
  cwd: root,
  stdio: 'inherit',
  env: {
    ...process.env,
    FRAMEWRIGHT_SMOKE_DIR: reportDir,
    NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --require ${JSON.stringify(hook)}`.trim(),
  },
});
const timer = setTimeout(() => child.kill('SIGKILL'), TIMEOUT_MS);
child.on('exit', (code, signal) => {
  clearTimeout(timer);
  rmSync(userData, { recursive: true, force: true });
  const file = path.join(reportDir, 'report.json');
  const report = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : undefined;
  if (code === 0 && report?.ok) {
    console.log(
      `Electron smoke passed: Electron ${report.electron}, ${report.services.length} services, ` +
        `screenshot ${path.relative(root, report.screenshot)}, report ${path.relative(root, file)}.`,
    );
    process.exit(SMOKE_EXIT.passed);
  }
  const why = report?.error ?? `Electron exited with ${signal ?? `code ${code}`} before writing a report`;
  console.log(`Electron smoke failed: ${why}.`);
  process.exit(SMOKE_EXIT.failed);
});
