import type { Session, WebContents } from 'electron';
import { contentSecurityPolicy } from '../host/content-security-policy.js';

/** Permissions the studio may use; everything else (camera, geolocation, …) is refused. */
export const ALLOWED_PERMISSIONS: ReadonlySet<string> = new Set([
  'notifications',
  'clipboard-sanitized-write',
]);

/** True for URLs of the app itself: the built renderer (file://) or the electron-vite dev server. */
export function createAppUrlCheck(rendererIndexUrl: string, devServerUrl?: string): (url: string) => boolean {
  const index = new URL(rendererIndexUrl);
  const rendererFolder = index.href.slice(0, index.href.lastIndexOf('/') + 1);
  const devOrigin = devServerUrl ? new URL(devServerUrl).origin : undefined;
  return (url: string) => {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return false;
    }
    if (devOrigin && parsed.origin === devOrigin) return true;
    return parsed.protocol === 'file:' && parsed.href.startsWith(rendererFolder);
  };
}

/**
 * Locks a renderer's web contents down: no new windows, no navigation away from the app,
 * no webviews.
 */
export function hardenWebContents(
  contents: Pick<WebContents, 'setWindowOpenHandler' | 'on'>,
  isAppUrl: (url: string) => boolean,
): void {
  contents.setWindowOpenHandler(() => ({ action: 'deny' }));
  contents.on('will-navigate', (event, url) => {
    if (!isAppUrl(url)) event.preventDefault();
  });
  contents.on('will-redirect', (event, url) => {
    if (!isAppUrl(url)) event.preventDefault();
  });
  contents.on('will-attach-webview', (event) => event.preventDefault());
}

/**
 * Session-wide rules: a strict CSP on every response, only the permissions the studio needs.
 */
export function hardenSession(
  session: Pick<Session, 'setPermissionRequestHandler' | 'setPermissionCheckHandler' | 'webRequest'>,
): void {
  session.setPermissionRequestHandler((_contents, permission, callback) => {
    callback(ALLOWED_PERMISSIONS.has(permission));
  });
  session.setPermissionCheckHandler((_contents, permission) => ALLOWED_PERMISSIONS.has(permission));
  session.webRequest.onHeadersReceived((details, callback) => {
    callback({
      responseHeaders: {
        ...details.responseHeaders,
        'Content-Security-Policy': [contentSecurityPolicy()],
        'X-Content-Type-Options': ['nosniff'],
      },
    });
  });
}
