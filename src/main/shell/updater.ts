import path from 'node:path';
import type { AppAdapter } from 'electron-updater/out/AppAdapter.js';
import type { ProfileKind } from '../../shared/bridge/contract.js';

export interface UpdatePolicyInput {
  isPackaged: boolean;
  activeProfileKind: ProfileKind;
  env: NodeJS.ProcessEnv;
}

/**
 * Updates are checked only in packaged builds, never in development, never while the app runs
 * the local simulator (demos must not change under the presenter), and never when disabled by
 * `FRAMEWRIGHT_DISABLE_UPDATES=1`.
 */
export function shouldCheckForUpdates({ isPackaged, activeProfileKind, env }: UpdatePolicyInput): boolean {
  if (!isPackaged) return false;
  if (activeProfileKind === 'simulator') return false;
  if (env.FRAMEWRIGHT_DISABLE_UPDATES === '1') return false;
  return true;
}

export interface UpdaterLike {
  autoDownload: boolean;
  checkForUpdatesAndNotify(): Promise<unknown>;
  on(event: 'error', listener: (error: Error) => void): unknown;
}

/** Starts a background update check with electron-updater; failures are logged, never fatal. */
export function startUpdateCheck(updater: UpdaterLike, log: (message: string) => void): void {
  updater.autoDownload = true;
  updater.on('error', (error) => log(`update check failed: ${error.message}`));
  updater.checkForUpdatesAndNotify().catch((error: unknown) => log(`update check failed: ${String(error)}`));
}

/** What the updater adapter needs of Electron's `app`. */
export interface UpdaterElectronApp {
  readonly isPackaged: boolean;
  getVersion(): string;
  getName(): string;
  getAppPath(): string;
  whenReady(): Promise<unknown>;
  relaunch(): void;
  quit(): void;
  once(event: 'quit', listener: (event: unknown, exitCode: number) => void): unknown;
}

export interface UpdaterFolders {
  /** Where electron-updater keeps its own state (`.updaterId`): never the data folder. */
  readonly stateDir: string;
  /** Where it downloads updates (its `<name>-updater` folder goes below). */
  readonly cacheDir: string;
  /** `app-update.yml` written by electron-builder into the packaged resources. */
  readonly updateConfigPath: string;
}

/**
 * electron-updater's view of the app. Its default adapter keeps the staging id (`.updaterId`,
 * rewritten at every check) in Electron's userData folder, which is Framewright's data folder
 * (journal, library, logs); this one points it at the OS cache instead, so an update check or
 * download never writes beside the user's journal or library.
 */
export function updaterAppAdapter(app: UpdaterElectronApp, folders: UpdaterFolders): AppAdapter {
  return {
    get version() {
      return app.getVersion();
    },
    get name() {
      return app.getName();
    },
    get isPackaged() {
      return app.isPackaged;
    },
    appUpdateConfigPath: folders.updateConfigPath,
    userDataPath: folders.stateDir,
    baseCachePath: folders.cacheDir,
    whenReady: async () => {
      await app.whenReady();
    },
    relaunch: () => app.relaunch(),
    quit: () => app.quit(),
    onQuit: (handler) => {
      app.once('quit', (_event, exitCode) => handler(exitCode));
    },
  };
}

/**
 * The updater's folders: its state and downloads under the OS cache folder electron-updater uses
 * (`~/.cache`, `~/Library/Caches`, `%LOCALAPPDATA%`), its feed from the packaged `app-update.yml`.
 */
export async function electronUpdaterFolders(
  app: Pick<UpdaterElectronApp, 'getName' | 'getAppPath' | 'isPackaged'>,
  resourcesPath: string,
): Promise<UpdaterFolders> {
  const { getAppCacheDir } = await import('electron-updater/out/AppAdapter.js');
  const cacheDir = getAppCacheDir();
  return {
    stateDir: path.join(cacheDir, `${app.getName()}-updater-state`),
    cacheDir,
    updateConfigPath: app.isPackaged
      ? path.join(resourcesPath, 'app-update.yml')
      : path.join(app.getAppPath(), 'dev-app-update.yml'),
  };
}

/** An electron-updater updater class (AppImage, deb, rpm, NSIS, macOS…). */
export type PlatformUpdaterClass<T> = new (options: undefined, app: AppAdapter) => T;

/**
 * Builds `PlatformUpdater` over `adapter`. electron-updater only gives an updater an HTTP client
 * when it builds its own Electron adapter; over a custom adapter it has none, so the one it would
 * have made is set here (`httpExecutor`, the field its constructor sets).
 */
export function createUpdater<T extends { emit(event: string, ...args: unknown[]): unknown }>(
  PlatformUpdater: PlatformUpdaterClass<T>,
  adapter: AppAdapter,
  makeHttpExecutor: (updater: T) => unknown,
): T {
  const updater = new PlatformUpdater(undefined, adapter);
  (updater as unknown as { httpExecutor: unknown }).httpExecutor = makeHttpExecutor(updater);
  return updater;
}

/**
 * electron-updater's updater for this platform (it picks AppImage, deb, rpm, NSIS or macOS itself,
 * through its default `autoUpdater`), built again over `adapter` with Electron's network stack.
 */
export async function loadUpdater(adapter: AppAdapter): Promise<UpdaterLike> {
  const updaterModule = await import('electron-updater');
  const { autoUpdater } = updaterModule.default ?? updaterModule;
  const { ElectronHttpExecutor } = await import('electron-updater/out/electronHttpExecutor.js');
  return createUpdater(
    autoUpdater.constructor as PlatformUpdaterClass<typeof autoUpdater>,
    adapter,
    (updater) => new ElectronHttpExecutor((authInfo, callback) => updater.emit('login', authInfo, callback)),
  );
}

export interface UpdateStartInput extends UpdatePolicyInput {
  load: () => Promise<UpdaterLike>;
  log: (message: string) => void;
}

/** Checks for updates when the policy allows it; returns whether a check was started. */
export async function startUpdatesIfAllowed(input: UpdateStartInput): Promise<boolean> {
  if (!shouldCheckForUpdates(input)) return false;
  try {
    startUpdateCheck(await input.load(), input.log);
    return true;
  } catch (error) {
    input.log(`update check failed: ${error instanceof Error ? error.message : String(error)}`);
    return false;
  }
}
