#!/usr/bin/env node
// `npm start`: builds the app if its bundles are missing or stale, makes sure better-sqlite3 is
// built for the Electron that will run it (scripts/electron-native.mjs), then launches the Electron
// app. Whatever stops Electron — no display, no binary, no Electron build of a native module, a
// native module that does not match, a crash or an error at start-up — is named in one line before
// the same studio is served to a browser on loopback instead; the detail goes to the main log
// (<data folder>/logs/main.log).
// `npm start -- --web` (or `npm run start:web`) goes straight to the browser host.
// FRAMEWRIGHT_ELECTRON_BINARY=/path/to/electron uses that Electron binary instead of the npm package's.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { tsImport } from 'tsx/esm/api';
import { ensureAppBuilt } from './app-build.mjs';
import { findElectronBinary, hasDisplay } from './electron-binary.mjs';
import { ensureElectronCopy } from './electron-native.mjs';
import { describeElectronExit } from './electron-exit.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const webOnly = args.includes('--web');
const passThrough = args.filter((a) => a !== '--web');
/** An Electron that exits non-zero this soon after launch did not start. */
const STARTUP_WINDOW_MS = 10_000;
const STDERR_KEPT = 64 * 1024;

/** The data folder the app will use: --data-dir, else FRAMEWRIGHT_DATA_DIR, else the default. */
async function dataDir() {
  const flag = passThrough.indexOf('--data-dir');
  if (flag >= 0 && passThrough[flag + 1]) return path.resolve(passThrough[flag + 1]);
  const { defaultDataDir } = await tsImport('../src/main/core/app/data-dir.ts', import.meta.url);
  return defaultDataDir();
}

/** Keeps the detail of why Electron did not start in the main log (redacted like every log line). */
async function logFallback(reason, detail) {
  try {
    const { createLogger } = await tsImport('../src/main/core/logging/logger.ts', import.meta.url);
    const logger = createLogger({ file: path.join(await dataDir(), 'logs', 'main.log') });
    logger.error('Electron did not start; serving the studio to a browser instead', { reason, ...detail });
  } catch {
    // the one-line reason was printed; a log that cannot be written never stops the studio
  }
}

/** Says plainly, before anyone types a key, that keys cannot be stored on this machine. */
async function reportKeychain(electron) {
  try {
    const { selectSecretStore } = await tsImport(
      '../src/main/core/secrets/select-secret-store.ts',
      import.meta.url,
    );
    const { store } = await selectSecretStore({ probeTimeoutMs: 5_000 });
    const described = store.describe();
    if (described.canStore) return;
    const detail = described.detail.startsWith('No OS keychain')
      ? described.detail
      : `No OS keychain is available: ${described.detail}`;
    console.log(
      `${detail}${electron ? ' (Electron’s safeStorage is tried too.)' : ''} The local simulator needs no key.`,
    );
  } catch {
    // the studio reports the keychain itself in Settings
  }
}

function serveToBrowser() {
  const child = spawn(process.execPath, [path.join(root, 'bin', 'framewright.js'), 'serve', ...passThrough], {
    cwd: root,
    stdio: 'inherit',
  });
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code) => process.exit(code ?? 0));
}

async function fallBack(reason, detail = {}) {
  console.log(`Electron cannot start here: ${reason}. Serving the studio to a browser instead.`);
  await logFallback(reason, detail);
  await reportKeychain(false);
  serveToBrowser();
}

async function launchElectron(binary) {
  const startedAt = Date.now();
  const child = spawn(binary, [root, ...passThrough], { cwd: root, stdio: ['inherit', 'inherit', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk) => {
    process.stderr.write(chunk);
    stderr = (stderr + chunk.toString('utf8')).slice(-STDERR_KEPT);
  });
  const forward = (signal) => child.kill(signal);
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, forward);
  child.on('error', (error) => {
    void fallBack(`it could not be launched (${error.message})`, { binary });
  });
  child.on('exit', (code, signal) => {
    const early = Date.now() - startedAt < STARTUP_WINDOW_MS;
    if (early && (code !== 0 || signal)) {
      for (const s of ['SIGINT', 'SIGTERM']) process.off(s, forward);
      void fallBack(describeElectronExit({ code, signal, stderr }), {
        binary,
        exitCode: code,
        signal,
        stderr,
      });
    } else process.exit(code ?? 0);
  });
}

ensureAppBuilt();
if (webOnly) {
  await reportKeychain(false);
  serveToBrowser();
} else {
  const electron = hasDisplay()
    ? findElectronBinary()
    : { reason: 'there is no display (neither DISPLAY nor WAYLAND_DISPLAY is set)' };
  if (!electron.binary) await fallBack(electron.reason);
  else {
    const copy = ensureElectronCopy(electron.binary);
    if (!copy.ok) await fallBack(copy.reason, { binary: electron.binary });
    else {
      await reportKeychain(true);
      await launchElectron(electron.binary);
    }
  }
}
