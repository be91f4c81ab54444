import type { IpcMain, IpcMainInvokeEvent, Protocol } from 'electron';
import { pathToFileURL } from 'node:url';
import { IPC_STAGE_FILE_CHANNEL, isStagePurpose, type BridgeResponse } from '../../shared/bridge/api.js';
import type { StudioFeatures } from '../core/studio/studio-features.js';
import { isTrustedSender, UNTRUSTED_SENDER } from './ipc.js';
import { mediaResponseHeaders, mediaSignatureOf } from '../core/library/media-resolver.js';

/** The scheme the player reads library media from (declared privileged before the app is ready). */
export const MEDIA_SCHEME = 'framewright-media';

export const MEDIA_SCHEME_PRIVILEGES = {
  scheme: MEDIA_SCHEME,
  privileges: { standard: true, secure: true, supportFetchAPI: true, stream: true },
};

/**
 * `framewright-media://media/<route>`: the route goes through the core's MediaResolver, which
 * maps journal ids to files inside the library (or staging) and refuses everything else. The
 * URL never carries a path.
 */
export function registerMediaProtocol(
  protocol: Pick<Protocol, 'handle'>,
  fetchFile: (url: string, init: { headers: Headers }) => Promise<Response>,
  parts: Pick<StudioFeatures, 'media'>,
): void {
  protocol.handle(MEDIA_SCHEME, async (request) => {
    const url = new URL(request.url);
    if (url.host !== 'media') return new Response('Not found', { status: 404 });
    let route: string;
    try {
      route = decodeURIComponent(url.pathname).replace(/^\//, '');
    } catch {
      return new Response('Bad request', { status: 400 });
    }
    const found = await parts.media.resolve(route, mediaSignatureOf(url));
    if (!found) return new Response('Not found', { status: 404 });
    const response = await fetchFile(pathToFileURL(found.path).href, { headers: request.headers });
    const headers = new Headers(response.headers);
    // served only as what the core sniffed, as the browser host does
    for (const [name, value] of Object.entries(mediaResponseHeaders(found))) headers.set(name, value);
    return new Response(response.body, { status: response.status, headers });
  });
}

/**
 * Staging of a dropped/picked file, for Create or the Playground, by the path the preload read from
 * a real File; sender checked first (the same check as every bridge channel).
 */
export function registerFileStagingIpc(
  ipcMain: Pick<IpcMain, 'handle'>,
  parts: Pick<StudioFeatures, 'staged'>,
  isAppUrl: (url: string) => boolean,
): void {
  ipcMain.handle(
    IPC_STAGE_FILE_CHANNEL,
    async (event: IpcMainInvokeEvent, filePath: unknown, purpose?: unknown): Promise<BridgeResponse> => {
      if (!isTrustedSender(event, isAppUrl)) return UNTRUSTED_SENDER;
      if (typeof filePath !== 'string' || filePath.length === 0 || filePath.length > 4096) {
        return { ok: false, error: { code: 'file.no_path', message: 'Not a file path.' } };
      }
      if (purpose !== undefined && !isStagePurpose(purpose)) {
        return {
          ok: false,
          error: { code: 'file.bad_purpose', message: 'Not a purpose a file is staged for.' },
        };
      }
      try {
        const staged =
          purpose === 'playground'
            ? await parts.staged.stageCopy(filePath, 'playground')
            : await parts.staged.stageCopy(filePath);
        return { ok: true, result: staged };
      } catch (error) {
        const shaped = error as { code?: unknown; message?: unknown };
        return {
          ok: false,
          error: {
            code: typeof shaped.code === 'string' ? shaped.code : 'file.stage_failed',
            message: typeof shaped.message === 'string' ? shaped.message : 'The file could not be staged.',
          },
        };
      }
    },
  );
}
