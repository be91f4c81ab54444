import type { IncomingMessage } from 'node:http';
import type { BridgeResponse, StagePurpose } from '../../shared/bridge/api.js';
import type { AppCore } from '../core/app/app-core.js';
import type { AnyEventListener } from '../core/events/event-hub.js';
import type { BrowserHostOptions } from './browser-host.js';

/** What the browser host asks of the core: bridge calls, pushed events, media and staged files. */
export type HostCoreParts = Pick<BrowserHostOptions, 'dispatcher' | 'events' | 'media' | 'files'>;

/**
 * The browser host's view of a core that is still opening, so that `framewright serve` listens
 * (and the page downloads and starts) while the core loads its modules, opens the journal and
 * probes the keychain. Bridge calls, media and file uploads wait for the core; pushed events
 * start once it is open (nothing is emitted before). If the core fails to open, every bridge call
 * answers `host.core_unavailable` with the reason, media are not found and uploads are refused.
 */
export function openingCoreParts(core: Promise<AppCore>): HostCoreParts {
  // the caller handles the failure (serve exits); here it only becomes each call's answer
  core.catch(() => undefined);
  const unavailable = (error: unknown): BridgeResponse => ({
    ok: false,
    error: {
      code: 'host.core_unavailable',
      message: `The studio could not start: ${error instanceof Error ? error.message : String(error)}`,
    },
  });
  return {
    dispatcher: {
      dispatch: (method, params) =>
        core.then((opened) => opened.dispatcher.dispatch(method, params), unavailable),
    },
    events: {
      subscribe(listener: AnyEventListener) {
        let unsubscribe: (() => void) | undefined;
        let cancelled = false;
        void core.then(
          (opened) => {
            if (!cancelled) unsubscribe = opened.events.subscribe(listener);
          },
          () => undefined,
        );
        return () => {
          cancelled = true;
          unsubscribe?.();
        };
      },
    },
    media: {
      resolve: async (route, signature) => (await core).studio.media.resolve(route, signature),
    },
    files: {
      stage: async (source: IncomingMessage, fileName: string, purpose: StagePurpose) =>
        (await core).studio.staged.stageStream(source, fileName, purpose),
    },
  };
}
