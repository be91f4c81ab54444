/**
 * `npm run native:electron` (scripts/electron-native.mjs): the Electron copy of better-sqlite3 goes
 * exactly where the loader looks for it, is remade when stale, and says in one line when it cannot
 * be made. The Electron binary is a fake that answers the version question as Electron-as-Node does.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { electronBindingPath } from '../../../src/main/core/journal/sqlite-native-binding.js';
import { tempFolder } from '../../support/worlds/temp-folder.js';
import { electronCopyDir, writeElectronCopy, writeFakeElectron } from '../../support/fake-electron.js';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const SCRIPT = path.join(ROOT, 'scripts/electron-native.mjs');
const ABI = '997';
const copyDir = electronCopyDir(ABI);
afterAll(() => rmSync(copyDir, { recursive: true, force: true }));

const fakeElectron = (version: string, abi: string) => writeFakeElectron({ version, abi });

function run(args: string[], env: Record<string, string | undefined> = {}) {
  const result = spawnSync(process.execPath, [SCRIPT, ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, ...env },
  });
  return { code: result.status, lines: result.stdout.trim().split('\n') };
}

describe('the Electron copy of better-sqlite3', () => {
  it('goes exactly where the loader looks for it in Electron', () => {
    const { code, lines } = run(['--where', '--electron', fakeElectron('99.1.0', ABI)]);
    expect(code).toBe(0);
    expect(path.join(lines[0]!, 'better_sqlite3.node')).toBe(
      electronBindingPath(ROOT, ABI, process.platform, process.arch),
    );
  });

  it('is current only when built from this better-sqlite3 for this Electron', () => {
    const binary = fakeElectron('99.1.0', ABI);
    const info = (electron: string, betterSqlite3?: string) =>
      writeElectronCopy(ABI, electron, betterSqlite3);
    info('99.1.0');
    expect(run(['--check', '--electron', binary]).code).toBe(0);
    info('99.0.0'); // another Electron (same ABI)
    expect(run(['--check', '--electron', binary])).toMatchObject({
      code: 1,
      lines: [`missing or stale: ${copyDir}`],
    });
    info('99.1.0', '11.0.0'); // another better-sqlite3
    expect(run(['--check', '--electron', binary]).code).toBe(1);
  });

  it('says in one line when there is no Electron binary to build for', () => {
    const missing = path.join(tempFolder('fw-no-electron-'), 'electron');
    const { code, lines } = run([], { FRAMEWRIGHT_ELECTRON_BINARY: missing });
    expect(code).toBe(1);
    expect(lines).toEqual([
      `better-sqlite3 cannot be built for Electron: the Electron binary is not here (${missing}).`,
    ]);
  });

  it('says in one line why it could not be built, keeping the detail in last-build.log', () => {
    const { code, lines } = run(['--electron', fakeElectron('99.2.0', '996')], {
      // nothing answers here: no prebuilt binary, no headers
      npm_config_electron_mirror: 'http://127.0.0.1:9/',
      ELECTRON_MIRROR: 'http://127.0.0.1:9/',
    });
    expect(code).toBe(1);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toBe('Building better-sqlite3 for Electron 99.2.0 (ABI 996)…');
    expect(lines[1]).toMatch(
      /^better-sqlite3 could not be built for Electron 99\.2\.0 \(ABI 996\): no prebuilt binary could be downloaded \(.+\) and Electron's headers could not be downloaded to build one \(.+\)$/,
    );
    const log = readFileSync(path.join(ROOT, 'native/electron/better-sqlite3/last-build.log'), 'utf8');
    expect(log).toContain('$ prebuild-install --runtime electron');
    expect(log).toContain('$ node-gyp rebuild (Electron headers)');
  });
});
