import {
  PLATFORM_LAUNCH_CODE_PARAM,
  PLATFORM_SESSION_OVER_CODE,
  PLATFORM_SESSION_PATH,
  type PlatformSessionView,
} from '../../../shared/bridge/platform-host-protocol';

/**
 * The page's side of Framewright on the platform. The platform opens `<origin>/?launchCode=<code>`:
 * the code leaves the address bar at once (before any request), is posted to the host's own
 * exchange route, and the answer sets an HttpOnly cookie the page never sees. The page keeps only
 * the CSRF token, in memory. A tab that was opened this way remembers so in its sessionStorage and,
 * after a reload, asks the host again who is signed in.
 */
const PLATFORM_TAB_KEY = 'framewright.platform';

export type PlatformStart =
  { kind: 'not-platform' } | { kind: 'signed-in'; view: PlatformSessionView } | { kind: 'over' };

let over = false;
const overListeners = new Set<() => void>();

/** True once the host said this person must reopen Framewright from the application center. */
export function platformSessionIsOver(): boolean {
  return over;
}

export function onPlatformSessionOver(listener: () => void): () => void {
  overListeners.add(listener);
  return () => overListeners.delete(listener);
}

function markOver(): void {
  if (over) return;
  over = true;
  for (const listener of overListeners) listener();
}

/** Marks the session over when a host answer says so; returns the answer unchanged. */
export function watchForSessionOver<T>(answer: T): T {
  const error = (answer as { ok?: boolean; error?: { code?: unknown } }).error;
  if (error?.code === PLATFORM_SESSION_OVER_CODE) markOver();
  return answer;
}

/** Removes the launch code from the address bar and returns it (undefined when there is none). */
export function takeLaunchCode(): string | undefined {
  const location = new URL(window.location.href);
  const code = location.searchParams.get(PLATFORM_LAUNCH_CODE_PARAM);
  if (code === null) return undefined;
  location.searchParams.delete(PLATFORM_LAUNCH_CODE_PARAM);
  window.history.replaceState(window.history.state, '', location.pathname + location.search + location.hash);
  return code;
}

/** Signs this tab in with the launch code, or finds its session again after a reload. */
export async function startPlatformSession(
  origin: string,
  launchCode: string | undefined,
): Promise<PlatformStart> {
  if (launchCode === undefined && window.sessionStorage.getItem(PLATFORM_TAB_KEY) === null)
    return { kind: 'not-platform' };
  window.sessionStorage.setItem(PLATFORM_TAB_KEY, '1');
  try {
    const response = await fetch(`${origin}${PLATFORM_SESSION_PATH}`, {
      credentials: 'same-origin',
      ...(launchCode === undefined
        ? { method: 'GET' }
        : {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ launchCode }),
          }),
    });
    const answer = (await response.json()) as
      { ok: true; result: PlatformSessionView } | { ok: false; error: { code: string } };
    if (answer.ok) return { kind: 'signed-in', view: answer.result };
  } catch {
    // no answer: the exchange is not replayed, the person reopens the application
  }
  markOver();
  return { kind: 'over' };
}
