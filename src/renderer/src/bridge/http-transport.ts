import type { BridgeResponse, BridgeTransport } from '../../../shared/bridge/api';
import {
  HOST_EVENTS_PROTOCOL,
  HOST_SESSION_PATH,
  HOST_SESSION_STORAGE_KEY,
  HOST_TOKEN_PROTOCOL_PREFIX,
} from '../../../shared/bridge/browser-host-protocol';
import { isEventName, METHOD_NAMES, type EventName } from '../../../shared/bridge/names';
import {
  PLATFORM_CSRF_HEADER,
  PLATFORM_CSRF_PROTOCOL_PREFIX,
} from '../../../shared/bridge/platform-host-protocol';
import { startPlatformSession, takeLaunchCode, watchForSessionOver } from './platform-session';

const unreachable = (error: unknown): BridgeResponse => ({
  ok: false,
  error: { code: 'bridge.unreachable', message: `The studio host is unreachable: ${String(error)}` },
});

/**
 * A bridge answer from the host's response. An answer that is not one (a proxy's error page, an
 * empty 400 from a refused connection) says which HTTP status came, instead of a JSON parser's
 * "Unexpected end of JSON input".
 */
async function bridgeAnswerOf(response: Response): Promise<BridgeResponse> {
  const text = await response.text();
  try {
    const answer = JSON.parse(text) as unknown;
    if (typeof answer === 'object' && answer !== null && typeof (answer as { ok?: unknown }).ok === 'boolean')
      return answer as BridgeResponse;
  } catch {
    // not JSON: said below
  }
  const shown = text.trim().replace(/\s+/g, ' ').slice(0, 120);
  return {
    ok: false,
    error: {
      code: 'bridge.unreachable',
      message:
        `The studio host answered HTTP ${response.status} without a bridge answer` +
        (shown ? ` (${shown})` : ' (an empty body)') +
        '. Try again; if it keeps happening, the host or a proxy in front of it is refusing the connection.',
    },
  };
}

/**
 * The per-run host token: exchanged once for the launch link's `?code=` (which is then removed from
 * the address), kept in memory and in this tab's sessionStorage (scoped to this origin and port, so
 * a reload keeps it and no other local server ever receives it, as it would a cookie).
 */
async function signInToHost(origin: string): Promise<string | undefined> {
  const location = new URL(window.location.href);
  const code = location.searchParams.get('code');
  if (code === null) return window.sessionStorage.getItem(HOST_SESSION_STORAGE_KEY) ?? undefined;
  location.searchParams.delete('code');
  window.history.replaceState(window.history.state, '', location.pathname + location.search + location.hash);
  try {
    const response = await fetch(`${origin}${HOST_SESSION_PATH}`, {
      method: 'POST',
      credentials: 'omit',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ code }),
    });
    const answer = (await response.json()) as BridgeResponse<{ token: string }>;
    if (!answer.ok) return window.sessionStorage.getItem(HOST_SESSION_STORAGE_KEY) ?? undefined;
    window.sessionStorage.setItem(HOST_SESSION_STORAGE_KEY, answer.result.token);
    return answer.result.token;
  } catch {
    return window.sessionStorage.getItem(HOST_SESSION_STORAGE_KEY) ?? undefined;
  }
}

/** How this page proves who it is: the browser host's token, or the platform host's CSRF token (with its cookie). */
interface PageCredentials {
  platform: boolean;
  token?: string;
  csrf?: string;
}

async function signIn(origin: string): Promise<PageCredentials> {
  // the platform's launch code leaves the address bar first, synchronously, before any request
  const platform = await startPlatformSession(origin, takeLaunchCode());
  if (platform.kind === 'signed-in') return { platform: true, csrf: platform.view.csrfToken };
  if (platform.kind === 'over') return { platform: true };
  return { platform: false, token: await signInToHost(origin) };
}

/** A call the platform host refused at its session's cap (429: nothing was read) is sent again this often. */
const CAPPED_ATTEMPTS = 4;
/** The longest wait for a capped call's `Retry-After`, in seconds. */
const CAPPED_MAX_WAIT_SECONDS = 10;

/**
 * Sends a request again after its `Retry-After` while the host answers 429 (a session's cap on
 * calls or uploads in flight: the request was refused before it was read, so sending it again is
 * safe), a few times; then the last answer stands.
 */
async function sentUnderCap(send: () => Promise<Response>): Promise<Response> {
  for (let attempt = 1; ; attempt += 1) {
    const response = await send();
    const wait = Number(response.headers.get('retry-after'));
    if (response.status !== 429 || attempt >= CAPPED_ATTEMPTS || !(wait >= 0)) return response;
    await response.body?.cancel();
    await new Promise((resolve) => setTimeout(resolve, Math.min(wait, CAPPED_MAX_WAIT_SECONDS) * 1000));
  }
}

/**
 * The browser host's transport: the same contract over `POST /bridge/invoke` and a WebSocket of
 * pushed events, each call carrying the host token from memory (`Authorization: Bearer`, or a
 * subprotocol on the socket).
 */
export function createHttpTransport(origin = window.location.origin): BridgeTransport {
  const listeners = new Set<(event: EventName, payload: unknown) => void>();
  const missedListeners = new Set<() => void>();
  /** The socket closed while events were listened to: the next open tells the page to re-read. */
  let dropped = false;
  const session = signIn(origin);
  let socket: WebSocket | undefined;
  let connecting = false;
  let retryMs = 500;
  const authorization = async (): Promise<Record<string, string>> => {
    const { token, csrf } = await session;
    if (csrf !== undefined) return { [PLATFORM_CSRF_HEADER]: csrf };
    return token === undefined ? {} : { authorization: `Bearer ${token}` };
  };
  /** The platform host's cookie is sent; the browser host never uses cookies. */
  const credentials = async (): Promise<RequestCredentials> =>
    (await session).platform ? 'same-origin' : 'omit';

  const connect = async () => {
    if (socket || connecting) return;
    connecting = true;
    const { token, csrf } = await session;
    connecting = false;
    if (listeners.size === 0) return;
    const url = origin.replace(/^http/, 'ws') + '/bridge/events';
    const protocols = [HOST_EVENTS_PROTOCOL];
    if (token !== undefined) protocols.push(HOST_TOKEN_PROTOCOL_PREFIX + token);
    if (csrf !== undefined) protocols.push(PLATFORM_CSRF_PROTOCOL_PREFIX + csrf);
    socket = new WebSocket(url, protocols);
    socket.onopen = () => {
      retryMs = 500;
      if (dropped) {
        dropped = false;
        for (const listener of missedListeners) listener();
      }
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
        // e.g. 1012 from a backend draining before a restart: reconnect (to the next process)
        dropped = true;
        setTimeout(() => void connect(), retryMs);
        retryMs = Math.min(retryMs * 2, 10_000);
      }
    };
  };

  return {
    methods: METHOD_NAMES,
    async invoke(method, params) {
      try {
        const body = JSON.stringify({ method, params });
        const response = await sentUnderCap(async () =>
          fetch(`${origin}/bridge/invoke`, {
            method: 'POST',
            credentials: await credentials(),
            headers: { 'content-type': 'application/json', ...(await authorization()) },
            body,
          }),
        );
        return watchForSessionOver(await bridgeAnswerOf(response));
      } catch (error) {
        return unreachable(error);
      }
    },
    async stageFile(file, purpose) {
      const query = new URLSearchParams({ name: file.name, for: purpose ?? 'composer' });
      try {
        const response = await sentUnderCap(async () =>
          fetch(`${origin}/bridge/files?${query.toString()}`, {
            method: 'POST',
            credentials: await credentials(),
            headers: { 'content-type': 'application/octet-stream', ...(await authorization()) },
            body: file,
          }),
        );
        return watchForSessionOver(await bridgeAnswerOf(response));
      } catch (error) {
        return unreachable(error);
      }
    },
    onMissedEvents(listener) {
      missedListeners.add(listener);
      return () => missedListeners.delete(listener);
    },
    subscribe(listener) {
      listeners.add(listener);
      void connect();
      return () => {
        listeners.delete(listener);
        if (listeners.size === 0) socket?.close();
      };
    },
  };
}
