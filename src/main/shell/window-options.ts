import type { BrowserWindowConstructorOptions } from 'electron';
import type { WindowBounds } from './window-state.js';

/**
 * The main window's options. Hardened from day one: isolated, sandboxed renderer with no Node,
 * web security on, no webviews, no remote content (the CSP is set on every response).
 */
export function mainWindowOptions(
  preloadPath: string,
  bounds: WindowBounds,
): BrowserWindowConstructorOptions {
  return {
    ...bounds,
    minWidth: 960,
    minHeight: 600,
    show: false,
    title: 'Framewright',
    backgroundColor: '#111318',
    autoHideMenuBar: true,
    webPreferences: {
      preload: preloadPath,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      experimentalFeatures: false,
      navigateOnDragDrop: false,
      spellcheck: true,
    },
  };
}
