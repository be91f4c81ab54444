import { app, BrowserWindow, ipcMain, net, protocol, safeStorage, session } from 'electron';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { IPC_EVENT_CHANNEL } from '../../shared/bridge/api.js';
import { createAppCore, type AppCore } from '../core/app/app-core.js';
import { defaultSimulatorLauncher } from '../core/app/default-simulator-launcher.js';
import { registerBridgeIpc } from './ipc.js';
import { MEDIA_SCHEME_PRIVILEGES, registerFileStagingIpc, registerMediaProtocol } from './media-protocol.js';
import { createMainWindow } from './main-window.js';
import { quitAfterClose } from './quit-after-close.js';
import { createAppUrlCheck, hardenSession, hardenWebContents } from './security.js';
import { shouldCheckForUpdates, startUpdateCheck } from './updater.js';

/**
 * The Electron app: single instance, hardened session and contents, the bridge over IPC,
 * the core in this process, electron-updater in packaged builds.
 */
export function startDesktopApp(): void {
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return;
  }
  const preloadPath = fileURLToPath(new URL('../preload/index.cjs', import.meta.url));
  const rendererIndexUrl = pathToFileURL(
    fileURLToPath(new URL('../renderer/index.html', import.meta.url)),
  ).href;
  const devServerUrl = !app.isPackaged ? process.env.ELECTRON_RENDERER_URL : undefined;
  const rendererUrl = devServerUrl ?? rendererIndexUrl;
  const isAppUrl = createAppUrlCheck(rendererIndexUrl, devServerUrl);
  let core: AppCore | undefined;
  protocol.registerSchemesAsPrivileged([MEDIA_SCHEME_PRIVILEGES]);

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
    const appCore = await createAppCore({
      dataDir,
      host: 'electron',
      launchSimulator: defaultSimulatorLauncher(dataDir),
      safeStorage,
    });
    core = appCore;
    const log = (message: string) => appCore.logger.warn(message);
    hardenSession(session.defaultSession);
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
    if (
      shouldCheckForUpdates({ isPackaged: app.isPackaged, activeProfileKind: 'simulator', env: process.env })
    ) {
      void import('electron-updater').then(({ default: updater }) =>
        startUpdateCheck(updater.autoUpdater, log),
      );
    }
  });
}
