#!/usr/bin/env node
// `npm install`'s last step (the root `postinstall`): better-sqlite3 and keytar must load under Node.
//
// npm runs the root package's own install scripts (`preinstall`, which installs the system packages,
// then this one) only AFTER every dependency's install script. On a fresh Debian machine keytar's
// build therefore runs before libsecret-1-dev exists, fails, and npm drops the optional package
// without a word. Here, with the system packages now present, each module is loaded in a child
// process; one that does not load is rebuilt (`npm rebuild NAME`), or installed again when npm
// removed it (`npm install`, whose own run of this script only checks: FRAMEWRIGHT_NATIVE_REPAIR=1).
// What still does not load is named in one line with how to get it.
// Exit status: 1 when better-sqlite3 (the journal) does not load, else 0 (without keytar the app
// runs, but stores no key).
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const scriptRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The native modules Node's runtime (CLI, browser host, tests) needs, with how to check and fix each. */
export const NATIVE_MODULES = [
  {
    name: 'better-sqlite3',
    required: true,
    probe: "new (require('better-sqlite3'))(':memory:').close()",
    needs: 'python3, make and g++ (sudo apt-get install python3 make g++)',
    consequence: 'the journal cannot open, so nothing runs',
  },
  {
    name: 'keytar',
    required: false,
    probe: "require('keytar')",
    needs: 'libsecret-1-dev (sudo apt-get install libsecret-1-dev)',
    consequence: 'no key can be stored in the OS keychain',
  },
];

/** Loads a module in a fresh Node process (a failed load is cached in-process). */
function probe(root, module) {
  const result = spawnSync(process.execPath, ['-e', module.probe], { cwd: root, encoding: 'utf8' });
  if (result.status === 0) return { ok: true };
  const missing = !existsSync(path.join(root, 'node_modules', module.name, 'package.json'));
  const firstLine = `${result.stderr ?? ''}`
    .split('\n')
    .map((l) => l.trim())
    .find((l) => /^[A-Za-z]*Error\b[^:]*: /.test(l));
  return {
    ok: false,
    missing,
    reason: missing ? 'npm did not install it' : (firstLine ?? 'it does not load'),
  };
}

/**
 * Builds from Debian's Node headers (package nodejs-dev / libnode-dev) when they are this Node's
 * own: no header download is needed, so the build works offline.
 */
function buildEnv() {
  const env = { ...process.env, FRAMEWRIGHT_NATIVE_REPAIR: '1' };
  const header = '/usr/include/node/node_version.h';
  if (!env.npm_config_nodedir && existsSync(header)) {
    const text = readFileSync(header, 'utf8');
    const part = (name) => text.match(new RegExp(`#define NODE_${name}_VERSION (\\d+)`))?.[1];
    if (`v${part('MAJOR')}.${part('MINOR')}.${part('PATCH')}` === process.version)
      env.npm_config_nodedir = '/usr';
  }
  return env;
}

function npm(root, args) {
  const execPath = process.env.npm_execpath;
  const [command, prefix] =
    execPath && existsSync(execPath) && /\.c?js$/.test(execPath)
      ? [process.execPath, [execPath]]
      : [process.platform === 'win32' ? 'npm.cmd' : 'npm', []];
  console.log(`> npm ${args.join(' ')}`);
  return (
    spawnSync(command, [...prefix, ...args], { cwd: root, stdio: 'inherit', env: buildEnv() }).status === 0
  );
}

/** Checks each module, repairs what does not load (unless this is already a repair run), reports. */
export function ensureNativeModules(root = scriptRoot, { repair = true } = {}) {
  let status = NATIVE_MODULES.map((module) => ({ module, ...probe(root, module) }));
  const broken = status.filter((s) => !s.ok);
  if (broken.length && repair) {
    console.log(
      `Native modules that do not load yet: ${broken.map((s) => s.module.name).join(', ')}; building them.`,
    );
    const present = broken.filter((s) => !s.missing).map((s) => s.module.name);
    if (present.length) npm(root, ['rebuild', ...present, '--foreground-scripts']);
    if (broken.some((s) => s.missing))
      npm(root, ['install', '--no-save', '--no-audit', '--no-fund', '--foreground-scripts']);
    status = NATIVE_MODULES.map((module) => ({ module, ...probe(root, module) }));
  }
  for (const s of status) {
    if (s.ok) continue;
    console.log(
      `${s.module.name} ${s.missing ? 'is not installed' : 'does not load'} (${s.reason}): ${s.module.consequence}. ` +
        `It needs ${s.module.needs}; then run: npm rebuild ${s.module.name} || npm install`,
    );
  }
  if (status.every((s) => s.ok))
    console.log(
      `Native modules load under Node ${process.version}: ${NATIVE_MODULES.map((m) => m.name).join(', ')}.`,
    );
  return status;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const status = ensureNativeModules(scriptRoot, { repair: process.env.FRAMEWRIGHT_NATIVE_REPAIR !== '1' });
  process.exit(status.some((s) => !s.ok && s.module.required) ? 1 : 0);
}
