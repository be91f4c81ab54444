import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { tempDir } from './engine-harness.js';

const ROOT = path.resolve(import.meta.dirname, '../..');

/**
 * Writes a fake Electron binary. Asked as Node (ELECTRON_RUN_AS_NODE=1, as scripts/electron-native.mjs
 * does) it reports the given Electron version and ABI; launched as an app it records its arguments in
 * `<file>.args` and runs `behaviour` (shell), or exits 9 when there is none.
 */
export function writeFakeElectron(options: {
  version: string;
  abi: string;
  behaviour?: string;
  file?: string;
}): string {
  const file = options.file ?? path.join(tempDir('fw-fake-electron-'), 'electron');
  writeFileSync(
    file,
    `#!/bin/sh
if [ "$ELECTRON_RUN_AS_NODE" = "1" ]; then
  exec "${process.execPath}" -e 'process.stdout.write(JSON.stringify({ ...process.versions, electron: "${options.version}", modules: "${options.abi}" }))'
fi
echo "$@" > "${file}.args"
${options.behaviour ?? 'exit 9'}
`,
  );
  chmodSync(file, 0o755);
  return file;
}

/** The folder scripts/electron-native.mjs builds Electron's copy of better-sqlite3 into for `abi`. */
export function electronCopyDir(abi: string): string {
  return path.join(ROOT, 'native/electron/better-sqlite3', `abi${abi}-${process.platform}-${process.arch}`);
}

/** Writes the build info that makes the copy for `abi` current for `electron` (or for another better-sqlite3). */
export function writeElectronCopy(abi: string, electron: string, betterSqlite3?: string): string {
  const dir = electronCopyDir(abi);
  const installed = (
    JSON.parse(readFileSync(path.join(ROOT, 'node_modules/better-sqlite3/package.json'), 'utf8')) as {
      version: string;
    }
  ).version;
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'better_sqlite3.node'), '');
  writeFileSync(
    path.join(dir, 'build-info.json'),
    JSON.stringify({ electron, modules: abi, betterSqlite3: betterSqlite3 ?? installed }),
  );
  return dir;
}
