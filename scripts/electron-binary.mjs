// Where the Electron binary is, or why there is none: FRAMEWRIGHT_ELECTRON_BINARY, else the electron
// npm package's binary, which Electron downloads on first use (tried once, briefly). Never throws.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const electronDir = path.join(root, 'node_modules', 'electron');

/** The installed electron package's binary, if it has been downloaded. */
export function installedElectronBinary() {
  const pathFile = path.join(electronDir, 'path.txt');
  if (!existsSync(pathFile)) return undefined;
  const binary = path.join(electronDir, 'dist', readFileSync(pathFile, 'utf8').trim());
  return existsSync(binary) ? binary : undefined;
}

/** Whether a window can be shown (Linux needs an X11 or Wayland display). */
export function hasDisplay(env = process.env) {
  return process.platform !== 'linux' || Boolean(env.DISPLAY || env.WAYLAND_DISPLAY);
}

/** @returns {{ binary: string } | { reason: string }} */
export function findElectronBinary(env = process.env) {
  if (env.FRAMEWRIGHT_ELECTRON_BINARY) {
    const binary = path.resolve(env.FRAMEWRIGHT_ELECTRON_BINARY);
    return existsSync(binary)
      ? { binary }
      : { reason: `FRAMEWRIGHT_ELECTRON_BINARY names no file (${binary})` };
  }
  if (!existsSync(electronDir)) return { reason: 'the electron package is not installed' };
  let binary = installedElectronBinary();
  if (binary) return { binary };
  const install = spawnSync(process.execPath, [path.join(electronDir, 'install.js')], {
    cwd: electronDir,
    encoding: 'utf8',
    timeout: 180_000,
  });
  binary = installedElectronBinary();
  if (binary) return { binary };
  const why = `${install.stderr ?? ''}${install.stdout ?? ''}`
    .split('\n')
    .map((l) => l.trim())
    .find((l) => l && !l.startsWith('at '));
  return { reason: `its binary could not be downloaded${why ? ` (${why})` : ''}` };
}
