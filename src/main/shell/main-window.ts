import type { BrowserWindow as BrowserWindowType } from 'electron';
import { BrowserWindow, screen } from 'electron';
import { mainWindowOptions } from './window-options.js';
import { loadWindowState, saveWindowState } from './window-state.js';

export interface MainWindowOptions {
  preloadPath: string;
  userDataDir: string;
  /** The renderer: the dev server URL or the built index.html as a file URL. */
  rendererUrl: string;
}

/** Creates the studio window with the hardened options and its remembered size and position. */
export function createMainWindow(options: MainWindowOptions): BrowserWindowType {
  const displays = screen.getAllDisplays().map((d) => d.workArea);
  const state = loadWindowState(options.userDataDir, displays);
  const window = new BrowserWindow(mainWindowOptions(options.preloadPath, state));
  if (state.maximized) window.maximize();
  window.once('ready-to-show', () => window.show());
  window.on('close', () => {
    saveWindowState(options.userDataDir, { ...window.getNormalBounds(), maximized: window.isMaximized() });
  });
  void window.loadURL(options.rendererUrl);
  return window;
}
