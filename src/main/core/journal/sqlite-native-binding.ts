import BetterSqlite3 from 'better-sqlite3';
import type { Database, Options } from 'better-sqlite3';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { findAppRoot } from '../../../shared/node/app-root.js';

export { findAppRoot };

/**
 * better-sqlite3 is a native module, and Node and Electron have different ABIs
 * (`process.versions.modules`). Two builds therefore live side by side:
 * - Node's, where npm puts it (`node_modules/better-sqlite3/build/Release`), for the CLI, the
 *   browser host and the tests;
 * - Electron's, built by `scripts/electron-native.mjs` (run by `npm start` and `npm run dev`) into
 *   {@link ELECTRON_BINDING_DIR}, one folder per ABI and platform, and loaded through
 *   better-sqlite3's `nativeBinding` option. Packaged apps carry that folder unpacked from the asar
 *   (electron-builder.yml `files` and `asarUnpack`; `npmRebuild` is off so packaging never rebuilds
 *   Node's copy in place).
 */
export const ELECTRON_BINDING_DIR = 'native/electron/better-sqlite3';

export const BINDING_FILE = 'better_sqlite3.node';

/** The command that builds Electron's copy (also run by `npm start` and `npm run dev`). */
export const ELECTRON_BUILD_COMMAND = 'npm run native:electron';

/** The command that rebuilds Node's copy. */
export const NODE_REBUILD_COMMAND = 'npm rebuild better-sqlite3';

export interface RuntimeVersions {
  node: string;
  modules: string;
  electron?: string;
}

export interface BindingContext {
  versions: RuntimeVersions;
  platform: string;
  arch: string;
  /** The app's folder (the one holding package.json; inside `app.asar` when packaged). */
  appRoot: string;
  exists?: (file: string) => boolean;
}

export type BindingChoice =
  { runtime: 'node'; nativeBinding: undefined } | { runtime: 'electron'; nativeBinding: string };

/** Thrown when no loadable build matches this runtime; the message names the fix. */
export class NativeBindingError extends Error {
  override readonly name = 'NativeBindingError';
}

/** `<appRoot>/native/electron/better-sqlite3/abi<modules>-<platform>-<arch>/better_sqlite3.node` */
export function electronBindingPath(
  appRoot: string,
  modules: string,
  platform: string,
  arch: string,
): string {
  return path.join(appRoot, ELECTRON_BINDING_DIR, `abi${modules}-${platform}-${arch}`, BINDING_FILE);
}

/** A path inside `app.asar` as the file system sees it: native code loads from `app.asar.unpacked`. */
export function unpackedPath(file: string): string {
  return file
    .split(path.sep)
    .map((part) => (part === 'app.asar' ? 'app.asar.unpacked' : part))
    .join(path.sep);
}

function runtimeName(versions: RuntimeVersions): string {
  return versions.electron
    ? `Electron ${versions.electron} (ABI ${versions.modules})`
    : `Node ${versions.node} (ABI ${versions.modules})`;
}

/**
 * Which build of better-sqlite3 this runtime loads: Node's default one, or Electron's copy for
 * exactly this ABI, platform and architecture. Throws {@link NativeBindingError} naming the fix when
 * Electron's copy is missing.
 */
export function chooseSqliteBinding(context: BindingContext): BindingChoice {
  const { versions, platform, arch } = context;
  if (!versions.electron) return { runtime: 'node', nativeBinding: undefined };
  const exists = context.exists ?? existsSync;
  const file = unpackedPath(electronBindingPath(context.appRoot, versions.modules, platform, arch));
  if (exists(file)) return { runtime: 'electron', nativeBinding: file };
  throw new NativeBindingError(
    `better-sqlite3 has no build for ${runtimeName(versions)} on ${platform}-${arch} (looked for ${file}). ` +
      `Build it with: ${ELECTRON_BUILD_COMMAND} (npm start does this when it can).`,
  );
}

const MISMATCH =
  /NODE_MODULE_VERSION|compiled against a different Node\.js version|ERR_DLOPEN_FAILED|invalid ELF header|wrong ELF class|not a valid Win32 application|incompatible architecture/i;

/**
 * Turns a failed load of the native addon into one clear error naming the fix; any other error
 * (a corrupt file, a full disk) is returned unchanged.
 */
export function explainBindingFailure(
  error: unknown,
  choice: BindingChoice,
  versions: RuntimeVersions,
): unknown {
  const message = error instanceof Error ? error.message : String(error);
  const code = (error as { code?: unknown } | null)?.code;
  if (!(MISMATCH.test(message) || code === 'ERR_DLOPEN_FAILED')) return error;
  const fix = choice.runtime === 'electron' ? ELECTRON_BUILD_COMMAND : NODE_REBUILD_COMMAND;
  const which =
    choice.runtime === 'electron'
      ? `Electron's copy (${choice.nativeBinding})`
      : "Node's copy in node_modules";
  return new NativeBindingError(
    `better-sqlite3 cannot load in ${runtimeName(versions)}: ${which} was built for another runtime ` +
      `(${message.split('\n')[0]}). Rebuild it with: ${fix}`,
    { cause: error },
  );
}

/** The process's own runtime. */
export function currentBindingContext(): BindingContext {
  return {
    versions: process.versions as RuntimeVersions,
    platform: process.platform,
    arch: process.arch,
    appRoot: findAppRoot(),
  };
}

/** `new BetterSqlite3(file, options)` with the build that matches this runtime. */
export function openSqlite(
  file: string,
  options: Omit<Options, 'nativeBinding'>,
  context: BindingContext = currentBindingContext(),
): Database {
  const choice = chooseSqliteBinding(context);
  try {
    return new BetterSqlite3(file, { ...options, nativeBinding: choice.nativeBinding });
  } catch (error) {
    throw explainBindingFailure(error, choice, context.versions);
  }
}
