#!/usr/bin/env node
// `npm start`: builds the app if its bundles are missing or stale, then launches the Electron app.
// Where Electron cannot start (its binary cannot be downloaded, or there is no display) it says why
// in one line and serves the same studio to a browser on loopback instead.
// `npm start -- --web` (or `npm run start:web`) goes straight to the browser host.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const webOnly = args.includes('--web');
const passThrough = args.filter((a) => a !== '--web');

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
  const electronDir = path.join(root, 'node_modules', 'electron');
  if (!existsSync(electronDir)) return { reason: 'the electron package is not installed' };
  const located = () => {
    const pathFile = path.join(electronDir, 'path.txt');
    if (!existsSync(pathFile)) return undefined;
    const binary = path.join(electronDir, 'dist', readFileSync(pathFile, 'utf8').trim());
    return existsSync(binary) ? binary : undefined;
  };
  let binary = located();
  if (!binary) {
    // Electron downloads its binary on first use; try once, briefly.
    const install = spawnSync(process.execPath, [path.join(electronDir, 'install.js')], {
      cwd: electronDir,
      encoding: 'utf8',
      timeout: 180_000,
    });
    binary = located();
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

function serveToBrowser() {
  const child = spawn(process.execPath, [path.join(root, 'bin', 'framewright.js'), 'serve', ...passThrough], {
    cwd: root,
    stdio: 'inherit',
  });
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code) => process.exit(code ?? 0));
}

ensureBuilt();
if (webOnly) {
  serveToBrowser();
} else {
  const electron = findElectron();
  if (electron.binary) {
    const startedAt = Date.now();
    const child = spawn(electron.binary, [root, ...passThrough], { cwd: root, stdio: 'inherit' });
    for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
    child.on('exit', (code) => {
      if (code !== 0 && Date.now() - startedAt < 5000) {
        console.log(
          `Electron cannot start here (it exited with code ${code}); serving the studio to a browser instead.`,
        );
        serveToBrowser();
      } else process.exit(code ?? 0);
    });
  } else {
    console.log(`Electron cannot start here: ${electron.reason}. Serving the studio to a browser instead.`);
    serveToBrowser();
  }
}
