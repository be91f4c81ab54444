/**
 * `npm install`'s last step (scripts/native-modules.mjs, the root postinstall) on a project where
 * npm dropped keytar, as it does on a fresh Debian machine (keytar's build ran before the root
 * preinstall installed libsecret-1-dev). The script runs for real in a copy of the project layout;
 * only `npm` is a recording fake (npm_execpath), so no registry or compiler is involved.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempFolder } from '../../support/worlds/temp-folder.js';

const ROOT = path.resolve(import.meta.dirname, '../../..');

function writeModule(project: string, name: string, body: string): void {
  const dir = path.join(project, 'node_modules', name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name, version: '1.0.0', main: 'index.js' }));
  writeFileSync(path.join(dir, 'index.js'), body);
}

const LOADS = 'module.exports = class { close() {} };';
const MISMATCH =
  "throw new Error('The module was compiled against a different Node.js version using NODE_MODULE_VERSION 140.');";

/**
 * A project with the script, a fake better-sqlite3, and a fake npm that records its arguments and,
 * for `install`/`rebuild`, writes the modules named in FAKE_NPM_PROVIDES.
 */
function project(modules: Record<string, string>) {
  const dir = tempFolder('fw-native-');
  mkdirSync(path.join(dir, 'scripts'));
  copyFileSync(path.join(ROOT, 'scripts/native-modules.mjs'), path.join(dir, 'scripts/native-modules.mjs'));
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'p', type: 'module' }));
  for (const [name, body] of Object.entries(modules)) writeModule(dir, name, body);
  const fakeNpm = path.join(dir, 'fake-npm.cjs');
  writeFileSync(
    fakeNpm,
    `const fs = require('fs'), path = require('path');
fs.appendFileSync(path.join(process.cwd(), 'npm-calls.log'),
  JSON.stringify({ args: process.argv.slice(2), repair: process.env.FRAMEWRIGHT_NATIVE_REPAIR ?? null }) + '\\n');
for (const name of (process.env.FAKE_NPM_PROVIDES || '').split(',').filter(Boolean)) {
  const d = path.join(process.cwd(), 'node_modules', name);
  fs.mkdirSync(d, { recursive: true });
  fs.writeFileSync(path.join(d, 'package.json'), JSON.stringify({ name, main: 'index.js' }));
  fs.writeFileSync(path.join(d, 'index.js'), ${JSON.stringify(LOADS)});
}`,
  );
  const run = (env: Record<string, string> = {}) => {
    const result = spawnSync(process.execPath, [path.join(dir, 'scripts/native-modules.mjs')], {
      cwd: dir,
      encoding: 'utf8',
      env: { ...process.env, npm_execpath: fakeNpm, FRAMEWRIGHT_NATIVE_REPAIR: '', ...env },
    });
    const log = path.join(dir, 'npm-calls.log');
    const calls = existsSync(log)
      ? readFileSync(log, 'utf8')
          .trim()
          .split('\n')
          .map((l) => JSON.parse(l) as { args: string[]; repair: string | null })
      : [];
    return { code: result.status, lines: result.stdout.trim().split('\n'), calls };
  };
  return { dir, run };
}

describe('npm install: native modules must load afterwards (scripts/native-modules.mjs)', () => {
  it('installs keytar again when npm dropped it, and the nested install only checks', () => {
    const { run } = project({ 'better-sqlite3': LOADS });
    const { code, lines, calls } = run({ FAKE_NPM_PROVIDES: 'keytar' });
    expect(code).toBe(0);
    expect(calls).toEqual([
      { args: ['install', '--no-save', '--no-audit', '--no-fund', '--foreground-scripts'], repair: '1' },
    ]);
    expect(lines[0]).toBe('Native modules that do not load yet: keytar; building them.');
    expect(lines.at(-1)).toMatch(/^Native modules load under Node v\d+\.\d+\.\d+: better-sqlite3, keytar\.$/);
  });

  it('rebuilds a module that is present but built for another runtime', () => {
    const { run } = project({ 'better-sqlite3': MISMATCH, keytar: LOADS });
    const { code, calls } = run({ FAKE_NPM_PROVIDES: 'better-sqlite3' });
    expect(code).toBe(0);
    expect(calls.map((c) => c.args)).toEqual([['rebuild', 'better-sqlite3', '--foreground-scripts']]);
  });

  it('says in one line what is missing and how to get it when keytar still cannot be built', () => {
    const { run } = project({ 'better-sqlite3': LOADS });
    const { code, lines } = run();
    expect(code).toBe(0); // the app runs without a keychain; it only cannot store a key
    expect(lines.filter((l) => l.startsWith('keytar'))).toEqual([
      'keytar is not installed (npm did not install it): no key can be stored in the OS keychain. ' +
        'It needs libsecret-1-dev (sudo apt-get install libsecret-1-dev); then run: npm rebuild keytar || npm install',
    ]);
  });

  it('fails the install, naming the cause, when better-sqlite3 does not load', () => {
    const { run } = project({ 'better-sqlite3': MISMATCH, keytar: LOADS });
    const { code, lines } = run();
    expect(code).toBe(1);
    expect(lines.filter((l) => l.startsWith('better-sqlite3'))).toEqual([
      'better-sqlite3 does not load (Error: The module was compiled against a different Node.js version using ' +
        'NODE_MODULE_VERSION 140.): the journal cannot open, so nothing runs. It needs python3, make and g++ ' +
        '(sudo apt-get install python3 make g++); then run: npm rebuild better-sqlite3 || npm install',
    ]);
  });

  it('inside its own repair install it only checks and reports (no recursion)', () => {
    const { run } = project({ 'better-sqlite3': LOADS });
    const { calls, lines } = run({ FRAMEWRIGHT_NATIVE_REPAIR: '1', FAKE_NPM_PROVIDES: 'keytar' });
    expect(calls).toEqual([]);
    expect(lines.some((l) => l.startsWith('keytar is not installed'))).toBe(true);
  });

  it('is the root postinstall, after the preinstall that installs the system packages', () => {
    const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    expect(pkg.scripts.preinstall).toBe('node scripts/system-packages.mjs app');
    // first the native modules, then the CLI bundle (which needs them only at run time)
    expect(pkg.scripts.postinstall).toBe('node scripts/native-modules.mjs && node scripts/build-cli.mjs');
  });
});
