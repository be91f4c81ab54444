#!/usr/bin/env node
// `npm run native:electron` (also run by `npm start` and `npm run dev`): builds better-sqlite3 for
// the Electron that will run the app, into its own folder beside Node's build, which stays in
// node_modules for the CLI, the browser host and the tests. The app loads this copy in Electron
// through better-sqlite3's `nativeBinding` option (src/main/core/journal/sqlite-native-binding.ts,
// same folder layout). keytar needs no second copy: it is a Node-API addon (ABI-stable).
//
// The copy is made when it is missing or stale (another Electron or better-sqlite3 version): first a
// prebuilt binary for Electron (`prebuild-install --runtime electron`), else a build from source
// against Electron's headers (`node-gyp --dist-url https://electronjs.org/headers`). Both need the
// network; when neither works it says so in one line (exit 1) and keeps the detail in
// native/electron/better-sqlite3/last-build.log.
//
//   node scripts/electron-native.mjs [--electron PATH] [--where] [--check]
//     --electron PATH  the Electron binary to build for (default: node_modules/electron's)
//     --where          print the folder the copy goes to, build nothing
//     --check          only say whether the copy is there and current (exit 0) or not (exit 1)
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { installedElectronBinary } from './electron-binary.mjs';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);

/** Same layout as ELECTRON_BINDING_DIR and electronBindingPath() in sqlite-native-binding.ts. */
export function electronCopyDir(target) {
  return path.join(
    root,
    'native',
    'electron',
    'better-sqlite3',
    `abi${target.modules}-${target.platform}-${target.arch}`,
  );
}

/** Electron version and ABI of a binary, asked of the binary itself (as Node: no display needed). */
export function electronTarget(binary) {
  const asked = spawnSync(binary, ['-e', 'process.stdout.write(JSON.stringify(process.versions))'], {
    env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' },
    encoding: 'utf8',
    timeout: 30_000,
  });
  let versions;
  try {
    versions = JSON.parse(asked.stdout);
  } catch {
    versions = undefined;
  }
  if (!versions?.electron || !versions.modules) {
    const why = `${asked.stderr ?? ''}`.trim().split('\n')[0] || `exit ${asked.status ?? asked.signal}`;
    throw new Error(`${binary} did not report its Electron version (${why})`);
  }
  return {
    electron: versions.electron,
    modules: versions.modules,
    platform: process.platform,
    arch: process.arch,
  };
}

function betterSqliteVersion() {
  return JSON.parse(readFileSync(path.join(root, 'node_modules', 'better-sqlite3', 'package.json'), 'utf8'))
    .version;
}

/** Whether the copy for this target is there and was built from this better-sqlite3 for this Electron. */
export function copyIsCurrent(target) {
  const dir = electronCopyDir(target);
  const info = path.join(dir, 'build-info.json');
  if (!existsSync(path.join(dir, 'better_sqlite3.node')) || !existsSync(info)) return false;
  try {
    const built = JSON.parse(readFileSync(info, 'utf8'));
    return built.electron === target.electron && built.betterSqlite3 === betterSqliteVersion();
  } catch {
    return false;
  }
}

/** The cause of a failed download or build, in a few words. */
function cause(result) {
  const text = `${result.error?.message ?? ''}\n${result.stderr ?? ''}\n${result.stdout ?? ''}`;
  const network = text.match(
    /(getaddrinfo \S+ \S+|ENOTFOUND \S+|ECONNREFUSED \S+|ETIMEDOUT|ECONNRESET|HTTP \d{3}|\b40[34]\b[^\n]*)/,
  );
  if (network) return network[1];
  const url = text.match(/gyp http GET (\S+)/);
  if (/network connectivity/.test(text)) return `network unreachable${url ? `: ${url[1]}` : ''}`;
  const lines = text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('at ') && !/^gyp (info|verb|ERR! stack)/.test(l));
  return lines.find((l) => /ERR!|error|Error/.test(l)) ?? lines.at(-1) ?? `exit ${result.status}`;
}

/** Builds the copy; returns { ok: true, dir } or { ok: false, reason } (detail in last-build.log). */
export function buildElectronCopy(target) {
  const dir = electronCopyDir(target);
  const work = path.join(root, 'native', '.build', `better-sqlite3-abi${target.modules}`);
  const log = [];
  rmSync(work, { recursive: true, force: true });
  mkdirSync(path.dirname(work), { recursive: true });
  cpSync(path.join(root, 'node_modules', 'better-sqlite3'), work, {
    recursive: true,
    filter: (src) => !src.startsWith(path.join(root, 'node_modules', 'better-sqlite3', 'build')),
  });
  const run = (label, command, args) => {
    const result = spawnSync(command, args, {
      cwd: work,
      encoding: 'utf8',
      timeout: 600_000,
      env: { ...process.env, npm_config_nodedir: '' },
    });
    log.push(
      `$ ${label}\n${result.stdout ?? ''}${result.stderr ?? ''}${result.error ? String(result.error) : ''}`,
    );
    return result;
  };
  const prebuilt = run('prebuild-install --runtime electron', process.execPath, [
    require.resolve('prebuild-install/bin.js'),
    '--runtime',
    'electron',
    '--target',
    target.electron,
    '--arch',
    target.arch,
    '--platform',
    target.platform,
  ]);
  let built = prebuilt.status === 0;
  let fromSource;
  if (!built) {
    fromSource = run('node-gyp rebuild (Electron headers)', process.execPath, [
      require.resolve('node-gyp/bin/node-gyp.js'),
      'rebuild',
      '--release',
      `--target=${target.electron}`,
      `--arch=${target.arch}`,
      '--runtime=electron',
      '--dist-url=https://electronjs.org/headers',
    ]);
    built = fromSource.status === 0;
  }
  mkdirSync(path.dirname(dir), { recursive: true });
  writeFileSync(path.join(path.dirname(dir), 'last-build.log'), log.join('\n\n'));
  const binary = path.join(work, 'build', 'Release', 'better_sqlite3.node');
  if (!built || !existsSync(binary)) {
    rmSync(work, { recursive: true, force: true });
    return {
      ok: false,
      reason:
        `no prebuilt binary could be downloaded (${cause(prebuilt)})` +
        (fromSource
          ? ` and Electron's headers could not be downloaded to build one (${cause(fromSource)})`
          : ''),
    };
  }
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  cpSync(binary, path.join(dir, 'better_sqlite3.node'));
  writeFileSync(
    path.join(dir, 'build-info.json'),
    JSON.stringify(
      { ...target, betterSqlite3: betterSqliteVersion(), builtAt: new Date().toISOString() },
      null,
      2,
    ) + '\n',
  );
  rmSync(work, { recursive: true, force: true });
  return { ok: true, dir };
}

/**
 * Makes sure the copy for `binary` exists and is current. Returns { ok: true, dir } or
 * { ok: false, reason } where reason is one sentence for the user.
 */
export function ensureElectronCopy(binary) {
  let target;
  try {
    target = electronTarget(binary);
  } catch (error) {
    return { ok: false, reason: error.message };
  }
  if (copyIsCurrent(target)) return { ok: true, dir: electronCopyDir(target), target, built: false };
  console.log(`Building better-sqlite3 for Electron ${target.electron} (ABI ${target.modules})…`);
  const result = buildElectronCopy(target);
  if (!result.ok)
    return {
      ok: false,
      target,
      reason: `better-sqlite3 could not be built for Electron ${target.electron} (ABI ${target.modules}): ${result.reason}`,
    };
  return { ...result, target, built: true };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2);
  const flag = args.indexOf('--electron');
  const binary =
    flag >= 0 ? args[flag + 1] : (process.env.FRAMEWRIGHT_ELECTRON_BINARY ?? installedElectronBinary());
  if (!binary || !existsSync(binary)) {
    console.log(
      `better-sqlite3 cannot be built for Electron: the Electron binary is not here (${binary ?? 'node_modules/electron has not downloaded it; `npm start` tries once'}).`,
    );
    process.exit(1);
  }
  if (args.includes('--where') || args.includes('--check')) {
    let target;
    try {
      target = electronTarget(binary);
    } catch (error) {
      console.log(error.message);
      process.exit(1);
    }
    if (args.includes('--where')) {
      console.log(electronCopyDir(target));
      process.exit(0);
    }
    const current = copyIsCurrent(target);
    console.log(
      current ? `current: ${electronCopyDir(target)}` : `missing or stale: ${electronCopyDir(target)}`,
    );
    process.exit(current ? 0 : 1);
  }
  const result = ensureElectronCopy(binary);
  console.log(
    result.ok
      ? `better-sqlite3 for Electron ${result.target.electron}: ${path.relative(root, result.dir)}`
      : result.reason,
  );
  process.exit(result.ok ? 0 : 1);
}
