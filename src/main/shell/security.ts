import type { Session, WebContents } from 'electron';
import { contentSecurityPolicy } from '../host/content-security-policy.js';

/** Permissions the studio may use; everything else (camera, geolocation, …) is refused. */
export const ALLOWED_PERMISSIONS: ReadonlySet<string> = new Set([
  'notifications',
  'clipboard-sanitized-write',
]);

/**
 * True for URLs of the app itself: the built renderer on its own origin (`framewright-app://studio`,
 * see app-protocol.ts) or, in development, the electron-vite dev server. Also accepts a bare origin
 * (what permission checks are given).
 */
export function createAppUrlCheck(appOrigin: string, devServerUrl?: string): (url: string) => boolean {
  const app = new URL(appOrigin);
  const devOrigin = devServerUrl ? new URL(devServerUrl).origin : undefined;
  return (url: string) => {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return false;
    }
    if (devOrigin && parsed.origin === devOrigin) return true;
    // a custom scheme's URL.origin is "null" in Node: compare scheme and host instead
    return (
      parsed.protocol === app.protocol &&
      parsed.host === app.host &&
      parsed.username === '' &&
      parsed.password === ''
    );
  };
}

/**
 * Locks a renderer's web contents down: no new windows, no navigation away from the app (of the
 * page or of any frame in it), no webviews.
 */
export function hardenWebContents(
  contents: Pick<WebContents, 'setWindowOpenHandler' | 'on'>,
  isAppUrl: (url: string) => boolean,
): void {
  contents.setWindowOpenHandler(() => ({ action: 'deny' }));
  contents.on('will-navigate', (event, url) => {
    if (!isAppUrl(url)) event.preventDefault();
  });
  contents.on('will-frame-navigate', (event) => {
    if (!isAppUrl(event.url)) event.preventDefault();
  });
  contents.on('will-redirect', (event, url) => {
    if (!isAppUrl(url)) event.preventDefault();
  });
  contents.on('will-attach-webview', (event) => event.preventDefault());
}

/**
 * Session-wide rules: a strict CSP on every response, only the permissions the studio needs and
 * only for the app's own pages (the requesting URL or origin is checked, not only the name).
 */
export function hardenSession(
  session: Pick<Session, 'setPermissionRequestHandler' | 'setPermissionCheckHandler' | 'webRequest'>,
  isAppUrl: (url: string) => boolean,
): void {
  session.setPermissionRequestHandler((_contents, permission, callback, details) => {
    callback(ALLOWED_PERMISSIONS.has(permission) && isAppUrl(details.requestingUrl));
  });
  session.setPermissionCheckHandler(
    (_contents, permission, requestingOrigin) =>
      ALLOWED_PERMISSIONS.has(permission) && isAppUrl(requestingOrigin),
  );
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
