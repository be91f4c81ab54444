import type { BridgeResponse, BridgeTransport } from '../../../shared/bridge/api';
import { isEventName, methodNames, type EventName } from '../../../shared/bridge/contract';

/**
 * The browser host's transport: the same contract over `POST /bridge/invoke` and a WebSocket of
 * pushed events. The host token travels in the HttpOnly cookie set by the one-time login link,
 * so page scripts never see it.
 */
export function createHttpTransport(origin = window.location.origin): BridgeTransport {
  const listeners = new Set<(event: EventName, payload: unknown) => void>();
  let socket: WebSocket | undefined;
  let retryMs = 500;

  const connect = () => {
    const url = origin.replace(/^http/, 'ws') + '/bridge/events';
    socket = new WebSocket(url);
    socket.onopen = () => {
      retryMs = 500;
    };
    socket.onmessage = (message) => {
      try {
        const { event, payload } = JSON.parse(String(message.data)) as { event: unknown; payload: unknown };
        if (isEventName(event)) for (const listener of listeners) listener(event, payload);
      } catch {
        // ignore malformed frames
      }
    };
    socket.onclose = () => {
      socket = undefined;
      if (listeners.size > 0) {
        setTimeout(connect, retryMs);
        retryMs = Math.min(retryMs * 2, 10_000);
      }
    };
  };

  return {
    methods: methodNames,
    async invoke(method, params) {
      let response: Response;
      try {
        response = await fetch(`${origin}/bridge/invoke`, {
          method: 'POST',
          credentials: 'same-origin',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ method, params }),
        });
      } catch (error) {
        return {
          ok: false,
          error: { code: 'bridge.unreachable', message: `The studio host is unreachable: ${String(error)}` },
        };
      }
      return (await response.json()) as BridgeResponse;
    },
    async stageFile(file) {
      try {
        const response = await fetch(`${origin}/bridge/files?name=${encodeURIComponent(file.name)}`, {
          method: 'POST',
          credentials: 'same-origin',
          headers: { 'content-type': 'application/octet-stream' },
          body: file,
        });
        return (await response.json()) as BridgeResponse;
      } catch (error) {
        return {
          ok: false,
          error: { code: 'bridge.unreachable', message: `The studio host is unreachable: ${String(error)}` },
        };
      }
    },
    subscribe(listener) {
      listeners.add(listener);
      if (!socket) connect();
      return () => {
        listeners.delete(listener);
        if (listeners.size === 0) socket?.close();
      };
    },
  };
}
