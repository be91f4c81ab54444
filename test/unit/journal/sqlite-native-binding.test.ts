import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  chooseSqliteBinding,
  electronBindingPath,
  explainBindingFailure,
  NativeBindingError,
  openSqlite,
  type BindingContext,
} from '../../../src/main/core/journal/sqlite-native-binding.js';
import { tempFolder } from '../../support/worlds/temp-folder.js';

const NODE = { node: '20.20.2', modules: '115' };
const ELECTRON = { node: '22.20.0', modules: '140', electron: '45.4.1' };

function context(overrides: Partial<BindingContext>, files: string[] = []): BindingContext {
  return {
    versions: NODE,
    platform: 'linux',
    arch: 'x64',
    appRoot: '/home/me/framewright',
    exists: (file) => files.includes(file),
    ...overrides,
  };
}

describe('which better-sqlite3 build a runtime loads', () => {
  it("plain Node (CLI, browser host, tests) loads Node's build from node_modules", () => {
    expect(chooseSqliteBinding(context({ versions: NODE }))).toEqual({
      runtime: 'node',
      nativeBinding: undefined,
    });
  });

  it('Electron loads its own copy for exactly its ABI, platform and architecture', () => {
    const file = '/home/me/framewright/native/electron/better-sqlite3/abi140-linux-x64/better_sqlite3.node';
    expect(electronBindingPath('/home/me/framewright', '140', 'linux', 'x64')).toBe(file);
    expect(chooseSqliteBinding(context({ versions: ELECTRON }, [file]))).toEqual({
      runtime: 'electron',
      nativeBinding: file,
    });
    const arm = '/home/me/framewright/native/electron/better-sqlite3/abi140-darwin-arm64/better_sqlite3.node';
    expect(
      chooseSqliteBinding(context({ versions: ELECTRON, platform: 'darwin', arch: 'arm64' }, [arm])),
    ).toMatchObject({ nativeBinding: arm });
  });

  it('a packaged app loads the copy unpacked beside app.asar', () => {
    const appRoot = '/opt/Framewright/resources/app.asar';
    const unpacked =
      '/opt/Framewright/resources/app.asar.unpacked/native/electron/better-sqlite3/abi140-linux-x64/better_sqlite3.node';
    expect(chooseSqliteBinding(context({ versions: ELECTRON, appRoot }, [unpacked]))).toEqual({
      runtime: 'electron',
      nativeBinding: unpacked,
    });
  });

  it('Electron without its copy (or with one for another ABI only) gets a clear error naming the fix', () => {
    const other = '/home/me/framewright/native/electron/better-sqlite3/abi139-linux-x64/better_sqlite3.node';
    const choose = () => chooseSqliteBinding(context({ versions: ELECTRON }, [other]));
    expect(choose).toThrow(NativeBindingError);
    expect(choose).toThrow(
      'better-sqlite3 has no build for Electron 45.4.1 (ABI 140) on linux-x64 (looked for ' +
        '/home/me/framewright/native/electron/better-sqlite3/abi140-linux-x64/better_sqlite3.node). ' +
        'Build it with: npm run native:electron (npm start does this when it can).',
    );
  });
});

describe('a mismatched binary', () => {
  it("Node's ABI error becomes one line naming the rebuild command", () => {
    const dlopen = Object.assign(
      new Error(
        "The module '/x/better_sqlite3.node'\nwas compiled against a different Node.js version using\n" +
          'NODE_MODULE_VERSION 115. This version of Node.js requires\nNODE_MODULE_VERSION 140.',
      ),
      { code: 'ERR_DLOPEN_FAILED' },
    );
    const electron = explainBindingFailure(
      dlopen,
      { runtime: 'electron', nativeBinding: '/x/better_sqlite3.node' },
      ELECTRON,
    ) as Error;
    expect(electron).toBeInstanceOf(NativeBindingError);
    expect(electron.message).toBe(
      "better-sqlite3 cannot load in Electron 45.4.1 (ABI 140): Electron's copy (/x/better_sqlite3.node) was " +
        "built for another runtime (The module '/x/better_sqlite3.node'). Rebuild it with: npm run native:electron",
    );
    const node = explainBindingFailure(dlopen, { runtime: 'node', nativeBinding: undefined }, NODE) as Error;
    expect(node.message).toMatch(/^better-sqlite3 cannot load in Node 20\.20\.2 \(ABI 115\): Node's copy/);
    expect(node.message).toMatch(/Rebuild it with: npm rebuild better-sqlite3$/);
  });

  it('other failures (a corrupt journal, a full disk) pass through unchanged', () => {
    const busy = new Error('database is locked');
    expect(explainBindingFailure(busy, { runtime: 'node', nativeBinding: undefined }, NODE)).toBe(busy);
  });

  it('opening with a binary that is not loadable here fails with that clear error, not a stack trace', () => {
    const appRoot = tempFolder('fw-binding-');
    const file = electronBindingPath(appRoot, '140', process.platform, process.arch);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, 'not a shared object');
    const open = () =>
      openSqlite(
        ':memory:',
        {},
        { versions: ELECTRON, platform: process.platform, arch: process.arch, appRoot },
      );
    expect(open).toThrow(NativeBindingError);
    expect(open).toThrow(/^better-sqlite3 cannot load in Electron 45\.4\.1 \(ABI 140\): Electron's copy/);
    expect(open).toThrow(/Rebuild it with: npm run native:electron$/);
  });

  it("this Node process opens a database with Node's build", () => {
    const db = openSqlite(':memory:', {});
    expect(db.prepare('select 1 as one').get()).toEqual({ one: 1 });
    db.close();
  });
});
