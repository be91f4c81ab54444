import type { Protocol } from 'electron';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { contentSecurityPolicy } from '../host/content-security-policy.js';

/**
 * The scheme the built renderer is served from instead of `file://`: a page on `file://` may read
 * any other local file it can name, and every `file://` URL shares one origin. Here the page has
 * its own origin, `framewright-app://studio`, and can load nothing but the files of `out/renderer`.
 */
export const APP_SCHEME = 'framewright-app';
export const APP_HOST = 'studio';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;
export const APP_INDEX_URL = `${APP_ORIGIN}/index.html`;

/** Declared before the app is ready: a standard, secure origin with fetch (same-origin rules, CSP 'self'). */
export const APP_SCHEME_PRIVILEGES = {
  scheme: APP_SCHEME,
  privileges: { standard: true, secure: true, supportFetchAPI: true },
};

/**
 * The file of `rendererDir` a `framewright-app://studio/...` URL names, or undefined when the URL
 * is for another host, is malformed, or leads outside the folder (`..`, encoded separators, NUL).
 */
export function rendererFileFor(rendererDir: string, requestUrl: string): string | undefined {
  let url: URL;
  try {
    url = new URL(requestUrl);
  } catch {
    return undefined;
  }
  if (url.protocol !== `${APP_SCHEME}:` || url.host !== APP_HOST) return undefined;
  let relative: string;
  try {
    relative = decodeURIComponent(url.pathname);
  } catch {
    return undefined;
  }
  if (relative.includes('\0') || relative.includes('\\')) return undefined;
  if (relative === '/' || relative === '') relative = '/index.html';
  const root = path.resolve(rendererDir);
  const file = path.resolve(root, '.' + relative);
  return file.startsWith(root + path.sep) ? file : undefined;
}

/** Serves `framewright-app://studio/<file>` from `rendererDir` only; everything else is a 404. */
export function registerAppProtocol(
  protocol: Pick<Protocol, 'handle'>,
  rendererDir: string,
  fetchFile: (url: string) => Promise<Response>,
): void {
  protocol.handle(APP_SCHEME, async (request) => {
    const file = rendererFileFor(rendererDir, request.url);
    if (!file || request.method !== 'GET') return new Response('Not found', { status: 404 });
    let response: Response;
    try {
      response = await fetchFile(pathToFileURL(file).href);
    } catch {
      return new Response('Not found', { status: 404 });
    }
    const headers = new Headers(response.headers);
    headers.set('Content-Security-Policy', contentSecurityPolicy());
    headers.set('X-Content-Type-Options', 'nosniff');
    return new Response(response.body, { status: response.status, headers });
  });
}
