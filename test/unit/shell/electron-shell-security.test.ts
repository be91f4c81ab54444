import { EventEmitter } from 'node:events';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { tempFolder } from '../../support/worlds/temp-folder.js';

// Electron's binary cannot run here: the shell module is loaded against a recording fake of the
// `electron` module, so the test reads the real options and handlers the shell passes to Electron.
const recorded = vi.hoisted(() => ({
  windowOptions: [] as unknown[],
  windows: [] as unknown[],
}));

vi.mock('electron', async () => {
  const { EventEmitter: Emitter } = await import('node:events');
  class FakeBrowserWindow extends Emitter {
    webContents = { send: vi.fn() };
    constructor(options: unknown) {
      super();
      recorded.windowOptions.push(options);
      recorded.windows.push(this);
    }
    loadURL = vi.fn(async () => undefined);
    maximize = vi.fn();
    show = vi.fn();
    isMaximized = () => false;
    getNormalBounds = () => ({ x: 10, y: 10, width: 1000, height: 700 });
    static getAllWindows = () => recorded.windows;
  }
  return {
    BrowserWindow: FakeBrowserWindow,
    screen: { getAllDisplays: () => [{ workArea: { x: 0, y: 0, width: 1920, height: 1080 } }] },
  };
});

const { createMainWindow } = await import('../../../src/main/shell/main-window.js');
const { createAppUrlCheck, hardenSession, hardenWebContents, ALLOWED_PERMISSIONS } =
  await import('../../../src/main/shell/security.js');

const { APP_INDEX_URL, APP_ORIGIN } = await import('../../../src/main/shell/app-protocol.js');

const RENDERER = APP_INDEX_URL;

describe('Electron shell security', () => {
  beforeEach(() => {
    recorded.windowOptions.length = 0;
    recorded.windows.length = 0;
  });

  it('creates the window isolated, sandboxed, without Node, with web security on', () => {
    const userDataDir = tempFolder('fw-shell-');
    createMainWindow({ preloadPath: '/app/out/preload/index.cjs', userDataDir, rendererUrl: RENDERER });
    expect(recorded.windowOptions).toHaveLength(1);
    const options = recorded.windowOptions[0] as { webPreferences: Record<string, unknown> };
    expect(options.webPreferences).toMatchObject({
      preload: '/app/out/preload/index.cjs',
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
    });
  });

  it('denies window.open and blocks navigation or redirects away from the app', () => {
    const contents = new EventEmitter() as EventEmitter & { setWindowOpenHandler: ReturnType<typeof vi.fn> };
    contents.setWindowOpenHandler = vi.fn();
    hardenWebContents(contents as never, createAppUrlCheck(APP_ORIGIN));
    const openHandler = contents.setWindowOpenHandler.mock.calls[0]![0] as (d: { url: string }) => unknown;
    expect(openHandler({ url: 'https://example.com' })).toEqual({ action: 'deny' });
    expect(openHandler({ url: RENDERER })).toEqual({ action: 'deny' });

    for (const eventName of ['will-navigate', 'will-redirect']) {
      const away = { preventDefault: vi.fn() };
      contents.emit(eventName, away, 'https://evil.example/phish');
      expect(away.preventDefault).toHaveBeenCalled();
      for (const elsewhere of [
        'file:///etc/passwd',
        'file:///opt/Framewright/resources/app.asar/out/renderer/index.html',
        'framewright-app://other/index.html',
        'framewright-media://media/x',
      ]) {
        const otherPlace = { preventDefault: vi.fn() };
        contents.emit(eventName, otherPlace, elsewhere);
        expect(otherPlace.preventDefault).toHaveBeenCalled();
      }
      const inside = { preventDefault: vi.fn() };
      contents.emit(eventName, inside, RENDERER + '#/queue');
      expect(inside.preventDefault).not.toHaveBeenCalled();
    }
    // any frame of the page: a subframe must not be navigated away either
    for (const [url, blocked] of [
      ['https://evil.example/frame', true],
      ['file:///etc/passwd', true],
      [RENDERER + '#/library', false],
    ] as const) {
      const frameNavigation = { url, isMainFrame: false, preventDefault: vi.fn() };
      contents.emit('will-frame-navigate', frameNavigation);
      expect(frameNavigation.preventDefault).toHaveBeenCalledTimes(blocked ? 1 : 0);
    }
    const webview = { preventDefault: vi.fn() };
    contents.emit('will-attach-webview', webview);
    expect(webview.preventDefault).toHaveBeenCalled();
  });

  it('accepts the dev server only in development', () => {
    const dev = createAppUrlCheck(APP_ORIGIN, 'http://localhost:5173');
    expect(dev('http://localhost:5173/')).toBe(true);
    expect(dev('http://localhost:5174/')).toBe(false);
    expect(createAppUrlCheck(APP_ORIGIN)('http://localhost:5173/')).toBe(false);
  });

  it('grants only the permissions the studio needs, only to its own pages, and sets a strict CSP', () => {
    let requestHandler: ((c: unknown, p: string, cb: (ok: boolean) => void) => void) | undefined;
    let checkHandler: ((c: unknown, p: string) => boolean) | undefined;
    let headersHandler:
      | ((
          d: { responseHeaders?: Record<string, string[]> },
          cb: (r: { responseHeaders: Record<string, string[]> }) => void,
        ) => void)
      | undefined;
    hardenSession(
      {
        setPermissionRequestHandler: (h: never) => (requestHandler = h),
        setPermissionCheckHandler: (h: never) => (checkHandler = h),
        webRequest: { onHeadersReceived: (h: never) => (headersHandler = h) },
      } as never,
      createAppUrlCheck(APP_ORIGIN),
    );
    const request = (permission: string, requestingUrl: string) => {
      const callback = vi.fn();
      (requestHandler as unknown as (c: unknown, p: string, cb: unknown, d: unknown) => void)(
        null,
        permission,
        callback,
        { requestingUrl },
      );
      return callback.mock.calls[0]?.[0] as boolean;
    };
    const check = (permission: string, origin: string) =>
      (checkHandler as unknown as (c: unknown, p: string, o: string) => boolean)(null, permission, origin);
    for (const permission of ['media', 'geolocation', 'openExternal', 'hid', 'serial']) {
      expect(request(permission, RENDERER)).toBe(false);
      expect(check(permission, APP_ORIGIN)).toBe(false);
    }
    expect(request('notifications', RENDERER)).toBe(true);
    expect(check('notifications', APP_ORIGIN)).toBe(true);
    // the right permission asked by anything but the app's own origin is refused
    for (const stranger of [
      'https://evil.example/',
      'file:///tmp/page.html',
      'framewright-media://media/x',
      '',
    ]) {
      expect(request('notifications', stranger)).toBe(false);
      expect(check('notifications', stranger)).toBe(false);
    }
    expect(ALLOWED_PERMISSIONS.has('notifications')).toBe(true);

    let headers: Record<string, string[]> = {};
    headersHandler!(
      { responseHeaders: { 'content-type': ['text/html'] } },
      (r) => (headers = r.responseHeaders),
    );
    const csp = headers['Content-Security-Policy']![0]!;
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-eval');
    expect(csp).toContain("object-src 'none'");
    expect(headers['content-type']).toEqual(['text/html']);
  });
});
