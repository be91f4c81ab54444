#!/usr/bin/env node
// `npm start`: builds the app if its bundles are missing or stale, makes sure better-sqlite3 is
// built for the Electron that will run it (scripts/electron-native.mjs), then launches the Electron
// app. Whatever stops Electron — no display, no binary, no Electron build of a native module, a
// native module that does not match, a crash or an error at start-up — is named in one line before
// the same studio is served to a browser on loopback instead; the detail goes to the main log
// (<data folder>/logs/main.log).
// `npm start -- --web` (or `npm run start:web`) goes straight to the browser host.
// FRAMEWRIGHT_ELECTRON_BINARY=/path/to/electron uses that Electron binary instead of the npm package's.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { tsImport } from 'tsx/esm/api';
import { ensureElectronCopy, installedElectronBinary } from './electron-native.mjs';
import { describeElectronExit } from './electron-exit.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const webOnly = args.includes('--web');
const passThrough = args.filter((a) => a !== '--web');
/** An Electron that exits non-zero this soon after launch did not start. */
const STARTUP_WINDOW_MS = 10_000;
const STDERR_KEPT = 64 * 1024;

function newestMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(full) : statSync(full).mtimeMs);
  }
  return newest;
}

function ensureBuilt() {
  const outputs = ['out/main/index.js', 'out/preload/index.cjs', 'out/renderer/index.html'].map((p) =>
    path.join(root, p),
  );
  const built = outputs.every(existsSync);
  if (built && Math.min(...outputs.map((p) => statSync(p).mtimeMs)) >= newestMtime(path.join(root, 'src')))
    return;
  console.log('Building Framewright…');
  const result = spawnSync(path.join(root, 'node_modules', '.bin', 'electron-vite'), ['build'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (result.status !== 0) {
    console.error('The build failed; see above.');
    process.exit(result.status ?? 1);
  }
}

/** The Electron binary, or why there is none. Never throws. */
function findElectron() {
  if (process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY) {
    return { reason: 'there is no display (neither DISPLAY nor WAYLAND_DISPLAY is set)' };
  }
  if (process.env.FRAMEWRIGHT_ELECTRON_BINARY) {
    const binary = path.resolve(process.env.FRAMEWRIGHT_ELECTRON_BINARY);
    return existsSync(binary)
      ? { binary }
      : { reason: `FRAMEWRIGHT_ELECTRON_BINARY names no file (${binary})` };
  }
  const electronDir = path.join(root, 'node_modules', 'electron');
  if (!existsSync(electronDir)) return { reason: 'the electron package is not installed' };
  let binary = installedElectronBinary();
  if (!binary) {
    // Electron downloads its binary on first use; try once, briefly.
    const install = spawnSync(process.execPath, [path.join(electronDir, 'install.js')], {
      cwd: electronDir,
      encoding: 'utf8',
      timeout: 180_000,
    });
    binary = installedElectronBinary();
    if (!binary) {
      const why = `${install.stderr ?? ''}${install.stdout ?? ''}`
        .split('\n')
        .map((l) => l.trim())
        .find((l) => l && !l.startsWith('at '));
      return { reason: `its binary could not be downloaded${why ? ` (${why})` : ''}` };
    }
  }
  return { binary };
}

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
    console.log(
      `No OS keychain is available: ${described.detail}` +
        (electron ? ' (Electron’s safeStorage is tried too.)' : '') +
        ' The local simulator needs no key.',
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

ensureBuilt();
if (webOnly) {
  await reportKeychain(false);
  serveToBrowser();
} else {
  const electron = findElectron();
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
