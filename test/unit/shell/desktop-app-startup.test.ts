import { EventEmitter } from 'node:events';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { openJournal } from '../../../src/main/core/journal/open-journal.js';
import { journalFromNewerVersion } from '../journal/helpers.js';
import { tempFolder } from '../../support/worlds/temp-folder.js';

// The Electron shell is started against a fake `electron` module (its binary cannot run here):
// a fake app that records the single-instance lock, exit codes and windows, a dialog that answers
// "Open data folder", and a fake electron-updater that records whether a check was started.
const fake = vi.hoisted(() => ({
  state: {} as {
    app: EventEmitter & Record<string, unknown>;
    dataDir: string;
    isPackaged: boolean;
    lockHeld: boolean;
    exitCodes: number[];
    windows: unknown[];
    dialogs: { message: string; detail: string; buttons: string[] }[];
    openedPaths: string[];
    updaters: { adapter: { userDataPath: string; baseCachePath: string }; checks: number }[];
    cacheDir: string;
    windowFails: boolean;
  },
}));

vi.mock('electron', async () => {
  const { EventEmitter: Emitter } = await import('node:events');
  const state = () => fake.state;
  class FakeBrowserWindow extends Emitter {
    webContents = { send: () => undefined };
    constructor() {
      super();
      if (state().windowFails) throw new Error('the GPU process could not start');
      state().windows.push(this);
    }
    loadURL = async () => undefined;
    maximize = () => undefined;
    show = () => undefined;
    isMaximized = () => false;
    isMinimized = () => false;
    getNormalBounds = () => ({ x: 0, y: 0, width: 1000, height: 700 });
    static getAllWindows = () => state().windows;
  }
  const app = new Proxy(
    {},
    { get: (_target, key) => (state().app as Record<string | symbol, unknown>)[key] },
  );
  return {
    app,
    BrowserWindow: FakeBrowserWindow,
    dialog: {
      showMessageBox: async (options: { message: string; detail: string; buttons: string[] }) => {
        state().dialogs.push(options);
        return { response: 0, checkboxChecked: false };
      },
    },
    shell: {
      openPath: async (folder: string) => {
        state().openedPaths.push(folder);
        return '';
      },
    },
    ipcMain: { handle: () => undefined, removeHandler: () => undefined },
    net: { fetch: async () => new Response('') },
    protocol: { registerSchemesAsPrivileged: () => undefined, handle: () => undefined },
    safeStorage: {
      isEncryptionAvailable: () => false,
      getSelectedStorageBackend: () => 'basic_text',
      encryptString: () => Buffer.alloc(0),
      decryptString: () => '',
    },
    session: {
      defaultSession: {
        setPermissionRequestHandler: () => undefined,
        setPermissionCheckHandler: () => undefined,
        webRequest: { onHeadersReceived: () => undefined },
      },
    },
    screen: { getAllDisplays: () => [{ workArea: { x: 0, y: 0, width: 1920, height: 1080 } }] },
  };
});

vi.mock('electron-updater', () => {
  class FakeUpdater {
    autoDownload = false;
    record: { adapter: { userDataPath: string; baseCachePath: string }; checks: number };
    constructor(_options: unknown, adapter: { userDataPath: string; baseCachePath: string }) {
      this.record = { adapter, checks: 0 };
      if (adapter) fake.state.updaters.push(this.record);
    }
    on() {
      return this;
    }
    async checkForUpdatesAndNotify() {
      this.record.checks += 1;
      return null;
    }
  }
  return { default: { autoUpdater: new FakeUpdater(undefined, undefined as never) } };
});
vi.mock('electron-updater/out/AppAdapter.js', () => ({ getAppCacheDir: () => fake.state.cacheDir }));

const { startDesktopApp } = await import('../../../src/main/shell/app-lifecycle.js');

function fakeApp(dataDir: string, isPackaged: boolean) {
  const app = new EventEmitter() as EventEmitter & Record<string, unknown>;
  Object.assign(app, {
    isPackaged,
    requestSingleInstanceLock: () => {
      if (fake.state.lockHeld) return false;
      fake.state.lockHeld = true;
      return true;
    },
    releaseSingleInstanceLock: () => {
      fake.state.lockHeld = false;
    },
    exit: (code: number) => fake.state.exitCodes.push(code),
    quit: () => app.emit('before-quit', { preventDefault: () => undefined }),
    whenReady: async () => undefined,
    getPath: (name: string) => {
      if (name !== 'userData') throw new Error(`unexpected getPath(${name})`);
      return dataDir;
    },
    getName: () => 'Framewright',
    getVersion: () => '0.1.0',
    getAppPath: () => '/app',
    relaunch: () => undefined,
  });
  return app;
}

const processEvents = new EventEmitter();

function launch(dataDir: string, options: { isPackaged?: boolean } = {}) {
  fake.state.dataDir = dataDir;
  fake.state.app = fakeApp(dataDir, options.isPackaged ?? false);
  startDesktopApp({ processEvents });
}

/** Waits until the launch either showed the failure dialog or opened the studio window. */
async function settled() {
  await vi.waitFor(
    () => {
      if (fake.state.dialogs.length === 0 && fake.state.windows.length === 0)
        throw new Error('still starting');
    },
    { timeout: 30_000, interval: 20 },
  );
}

async function quitApp() {
  const closing: Promise<void>[] = [];
  fake.state.app.emit('before-quit', {
    preventDefault: () => closing.push(new Promise((resolve) => setTimeout(resolve, 300))),
  });
  await Promise.all(closing);
}

const tempDir = () => tempFolder('fw-desktop-start-');

beforeEach(() => {
  // Electron sets it in the main process; plain Node has none
  (process as { resourcesPath?: string }).resourcesPath = '/opt/Framewright/resources';
  fake.state = {
    app: new EventEmitter() as EventEmitter & Record<string, unknown>,
    dataDir: '',
    isPackaged: false,
    lockHeld: false,
    exitCodes: [],
    windows: [],
    dialogs: [],
    openedPaths: [],
    updaters: [],
    cacheDir: tempDir(),
    windowFails: false,
  };
});
afterEach(() => processEvents.removeAllListeners());

describe('the Electron app when the core cannot start', () => {
  it('a corrupt journal: a dialog with the cause, where it was moved and the data folder; opens it; exits and frees the lock', async () => {
    const dataDir = tempDir();
    writeFileSync(path.join(dataDir, 'journal.sqlite'), 'not a database '.repeat(500));
    launch(dataDir);
    await settled();

    expect(fake.state.windows).toHaveLength(0);
    expect(fake.state.dialogs).toHaveLength(1);
    const [shown] = fake.state.dialogs;
    expect(shown!.message).toMatch(/journal .* is damaged and was moved aside/);
    const aside = readdirSync(dataDir).find((name) => name.startsWith('journal.sqlite.corrupt-'));
    expect(aside).toBeDefined();
    expect(shown!.detail).toContain(path.join(dataDir, aside!));
    expect(shown!.detail).toContain(`Data folder: ${dataDir}`);
    expect(shown!.buttons).toEqual(['Open data folder', 'Quit']);
    expect(fake.state.openedPaths).toEqual([dataDir]);
    expect(fake.state.lockHeld).toBe(false);
    expect(fake.state.exitCodes).toEqual([1]);
    // the damaged journal is kept, and the next launch gets the lock and starts
    expect(readFileSync(path.join(dataDir, aside!), 'utf8')).toContain('not a database');
  });

  it('a journal from a newer Framewright: refused with a clear message, not modified', async () => {
    const dataDir = tempDir();
    const file = path.join(dataDir, 'journal.sqlite');
    journalFromNewerVersion(file);
    const before = readFileSync(file);
    launch(dataDir);
    await settled();

    expect(fake.state.dialogs[0]!.message).toBe(
      'This data folder was last used by a newer version of Framewright.',
    );
    expect(fake.state.dialogs[0]!.detail).toMatch(/schema version 99.*update Framewright/s);
    expect(readFileSync(file).equals(before)).toBe(true);
    expect(fake.state.exitCodes).toEqual([1]);
    expect(fake.state.lockHeld).toBe(false);
  });

  it('a data folder that cannot be written: says so, names the folder, exits', async () => {
    const parent = tempDir();
    const dataDir = path.join(parent, 'Framewright');
    writeFileSync(dataDir, 'a file where the data folder should be');
    launch(dataDir);
    await settled();

    expect(fake.state.dialogs[0]!.message).toBe('Framewright cannot write to its data folder.');
    expect(fake.state.dialogs[0]!.detail).toContain(`Data folder: ${dataDir}`);
    expect(fake.state.exitCodes).toEqual([1]);
    expect(fake.state.lockHeld).toBe(false);
  });

  it('a failure after the core started (no window): the core is closed, the dialog shown, the app exits', async () => {
    const dataDir = tempDir();
    fake.state.windowFails = true;
    launch(dataDir);
    await settled();

    expect(fake.state.dialogs[0]!.message).toBe('Framewright could not start.');
    expect(fake.state.dialogs[0]!.detail).toContain('the GPU process could not start');
    expect(fake.state.exitCodes).toEqual([1]);
    expect(fake.state.lockHeld).toBe(false);
    // the journal was closed cleanly: no WAL left behind to replay
    expect(existsSync(path.join(dataDir, 'journal.sqlite-wal'))).toBe(false);
  });

  it('unhandled rejections and uncaught exceptions are written to the log', async () => {
    const dataDir = tempDir();
    writeFileSync(path.join(dataDir, 'journal.sqlite'), 'garbage '.repeat(600));
    launch(dataDir);
    await settled();
    processEvents.emit('unhandledRejection', new Error('a promise nobody awaited'));
    processEvents.emit('uncaughtException', new Error('a throw nobody caught'));
    const log = readFileSync(path.join(dataDir, 'logs', 'main.log'), 'utf8');
    expect(log).toContain('the core failed to start');
    expect(log).toContain('a promise nobody awaited');
    expect(log).toContain('a throw nobody caught');
  });
});

describe('auto-update in a packaged build', () => {
  function profileFolder(kind: 'personal' | 'simulator'): string {
    const dataDir = tempDir();
    const journal = openJournal({ path: path.join(dataDir, 'journal.sqlite') });
    if (kind === 'personal') {
      journal.profiles.create({
        id: 'mine',
        name: 'Mine',
        kind: 'personal',
        baseUrl: 'http://127.0.0.1:9/v1',
      });
      journal.settings.set('activeProfileId', 'mine');
    }
    journal.close();
    return dataDir;
  }

  it('checks with a personal profile active, its updater state outside the data folder', async () => {
    const dataDir = profileFolder('personal');
    launch(dataDir, { isPackaged: true });
    await settled();
    await vi.waitFor(() => expect(fake.state.updaters).toHaveLength(1));
    const [updater] = fake.state.updaters;
    expect(updater!.checks).toBe(1);
    expect((updater!.adapter as unknown as { appUpdateConfigPath: string }).appUpdateConfigPath).toBe(
      '/opt/Framewright/resources/app-update.yml',
    );
    expect(updater!.adapter.userDataPath.startsWith(fake.state.cacheDir)).toBe(true);
    expect(path.relative(dataDir, updater!.adapter.userDataPath).startsWith('..')).toBe(true);
    expect(path.relative(dataDir, updater!.adapter.baseCachePath).startsWith('..')).toBe(true);
    await quitApp();
  });

  it('does not check when only the simulator profile is used', async () => {
    const dataDir = profileFolder('simulator');
    launch(dataDir, { isPackaged: true });
    await settled();
    expect(fake.state.windows).toHaveLength(1);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(fake.state.updaters).toHaveLength(0);
    await quitApp();
  });

  it('does not check in development', async () => {
    const dataDir = profileFolder('personal');
    launch(dataDir, { isPackaged: false });
    await settled();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(fake.state.updaters).toHaveLength(0);
    expect(existsSync(path.join(dataDir, 'journal.sqlite'))).toBe(true);
    await quitApp();
  });
});
