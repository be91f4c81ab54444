import { app, BrowserWindow, dialog, ipcMain, net, protocol, safeStorage, session, shell } from 'electron';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { IPC_EVENT_CHANNEL } from '../../shared/bridge/api.js';
import { createAppCore, type AppCore } from '../core/app/app-core.js';
import { defaultSimulatorLauncher } from '../core/app/default-simulator-launcher.js';
import { createLogger, type Logger } from '../core/logging/logger.js';
import { APP_INDEX_URL, APP_ORIGIN, APP_SCHEME_PRIVILEGES, registerAppProtocol } from './app-protocol.js';
import { registerBridgeIpc } from './ipc.js';
import { MEDIA_SCHEME_PRIVILEGES, registerFileStagingIpc, registerMediaProtocol } from './media-protocol.js';
import { createMainWindow } from './main-window.js';
import { quitAfterClose } from './quit-after-close.js';
import { createAppUrlCheck, hardenSession, hardenWebContents } from './security.js';
import { logUnexpectedErrors, reportStartupFailure, type ProcessEvents } from './startup-failure.js';
import { electronUpdaterFolders, loadUpdater, startUpdatesIfAllowed, updaterAppAdapter } from './updater.js';
import { ELECTRON_HOST } from '../core/library/studio-host.js';

/** The log file, or (when the data folder cannot be written) standard error only. */
function shellLogger(dataDir: string): Logger {
  try {
    return createLogger({ file: path.join(dataDir, 'logs', 'main.log') });
  } catch {
    return createLogger({ echo: (line) => process.stderr.write(line + '\n') });
  }
}

/**
 * The Electron app: single instance, hardened session and contents, the renderer on its own
 * privileged scheme, the bridge over IPC, the core in this process, electron-updater in packaged
 * builds. If the core cannot start, a native dialog says why and the app exits.
 */
export function startDesktopApp(options: { processEvents?: ProcessEvents } = {}): void {
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return;
  }
  const preloadPath = fileURLToPath(new URL('../preload/index.cjs', import.meta.url));
  const rendererDir = fileURLToPath(new URL('../renderer/', import.meta.url));
  const devServerUrl = !app.isPackaged ? process.env.ELECTRON_RENDERER_URL : undefined;
  const rendererUrl = devServerUrl ?? APP_INDEX_URL;
  const isAppUrl = createAppUrlCheck(APP_ORIGIN, devServerUrl);
  let core: AppCore | undefined;
  let logger: Logger = createLogger({ echo: (line) => process.stderr.write(line + '\n') });
  logUnexpectedErrors(options.processEvents ?? process, (message, fields) => logger.error(message, fields));
  protocol.registerSchemesAsPrivileged([APP_SCHEME_PRIVILEGES, MEDIA_SCHEME_PRIVILEGES]);

  app.on('web-contents-created', (_event, contents) => hardenWebContents(contents, isAppUrl));
  app.on('second-instance', () => {
    const [window] = BrowserWindow.getAllWindows();
    if (window) {
      if (window.isMinimized()) window.restore();
      window.focus();
    }
  });
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });
  quitAfterClose(app, () => {
    const closing = core;
    core = undefined;
    return closing;
  });

  void app.whenReady().then(async () => {
    const dataDir = app.getPath('userData');
    try {
      logger = shellLogger(dataDir);
      const appCore = await createAppCore({
        dataDir,
        host: ELECTRON_HOST,
        launchSimulator: defaultSimulatorLauncher(dataDir),
        safeStorage,
        logger,
      });
      core = appCore;
      showStudio(appCore, dataDir);
    } catch (error) {
      // whatever failed, the core (if it started) stops before the app exits
      const started = core;
      core = undefined;
      await started?.close().catch(() => undefined);
      await reportStartupFailure({ app, dialog, shell }, error, dataDir, (m, f) => logger.error(m, f));
    }
  });

  /** Transports, window and updates over a started core. */
  function showStudio(appCore: AppCore, dataDir: string): void {
    hardenSession(session.defaultSession, isAppUrl);
    registerAppProtocol(protocol, rendererDir, (url) => net.fetch(url));
    registerBridgeIpc(ipcMain, appCore.dispatcher, isAppUrl);
    registerFileStagingIpc(ipcMain, appCore.studio, isAppUrl);
    registerMediaProtocol(protocol, (url, init) => net.fetch(url, init), appCore.studio);
    appCore.events.subscribe((event, payload) => {
      for (const window of BrowserWindow.getAllWindows())
        window.webContents.send(IPC_EVENT_CHANNEL, event, payload);
    });
    const open = () => createMainWindow({ preloadPath, userDataDir: dataDir, rendererUrl });
    open();
    app.on('activate', () => {
      if (BrowserWindow.getAllWindows().length === 0) open();
    });
    const { profiles } = appCore.services;
    void startUpdatesIfAllowed({
      isPackaged: app.isPackaged,
      activeProfileKind: profiles.get(profiles.activeId()).kind,
      env: process.env,
      log: (message) => appCore.logger.warn(message),
      load: async () =>
        loadUpdater(updaterAppAdapter(app, await electronUpdaterFolders(app, process.resourcesPath))),
    });
  }
}
