import {
  PLATFORM_LAUNCH_CODE_PARAM,
  PLATFORM_SESSION_OVER_CODE,
  PLATFORM_SESSION_PATH,
  PLATFORM_SIGN_IN_CONFIRM_CODE,
  PLATFORM_SWITCH_CONFIRM_CODE,
  type PlatformSessionView,
  type PlatformSignedInView,
  type PlatformSignInQuestionDetails,
} from '../../../shared/bridge/platform-host-protocol';

/**
 * The page's side of Framewright on the platform. The platform opens `<origin>/?launchCode=<code>`:
 * the code leaves the address bar at once (before any request), is posted to the host's own
 * exchange route, and the answer sets an HttpOnly cookie the page never sees. The page keeps only
 * the CSRF token, in memory. A tab that was opened this way remembers so in its sessionStorage and,
 * after a reload, asks the host again who is signed in.
 *
 * When this browser is signed in already, the host exchanges nothing and asks (login CSRF: a link
 * must not silently sign the person into someone else's workspace). The page then shows who is
 * signed in now and waits for the person: switching posts the same code again (it was kept only in
 * this module's memory), staying keeps the current session and forgets the code.
 *
 * When this browser has no session, the host exchanges the code but holds the session until the
 * person confirms whom the link signs in (someone else's link must not sign this browser in
 * silently either): the page shows that person and posts the answer with the host's confirm token.
 */
const PLATFORM_TAB_KEY = 'framewright.platform';
/** A sign-in the host refused for load (429) is tried again after its `Retry-After`, this often. */
const SIGN_IN_ATTEMPTS = 4;

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

/**
 * What the page asks before a launch link signs in: `switch`, this browser is signed in as
 * `signedIn` already; `sign-in`, it has no session and the link signs in `signingIn`.
 */
export type PlatformQuestion =
  { kind: 'switch'; signedIn: PlatformSignedInView } | { kind: 'sign-in'; signingIn: PlatformSignedInView };

let question: { asked: PlatformQuestion; answer(yes: boolean): void } | null = null;
const questionListeners = new Set<() => void>();

function setQuestion(next: typeof question): void {
  question = next;
  for (const listener of questionListeners) listener();
}

/** What the page asks while a launch link waits for the person's word (null: nothing). */
export function platformQuestion(): PlatformQuestion | null {
  return question?.asked ?? null;
}

export function onPlatformQuestion(listener: () => void): () => void {
  questionListeners.add(listener);
  return () => questionListeners.delete(listener);
}

/** The person's answer: `true` signs in with the link (a current session ends), `false` does not. */
export function answerPlatformQuestion(yes: boolean): void {
  question?.answer(yes);
}

/** Shows `asked` and waits for the person's answer. */
async function ask(asked: PlatformQuestion): Promise<boolean> {
  const yes = await new Promise<boolean>((resolve) => setQuestion({ asked, answer: resolve }));
  setQuestion(null);
  return yes;
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
    type Answer =
      | { ok: true; result: PlatformSessionView | null }
      | {
          ok: false;
          error: {
            code: string;
            details?: { signedIn?: PlatformSignedInView } & Partial<PlatformSignInQuestionDetails>;
          };
        };
    const send = async (method: 'GET' | 'POST', body?: unknown): Promise<Answer> => {
      for (let attempt = 1; ; attempt += 1) {
        const response = await fetch(`${origin}${PLATFORM_SESSION_PATH}`, {
          credentials: 'same-origin',
          method,
          ...(body === undefined
            ? {}
            : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
        });
        // too many sign-ins right now: nothing was exchanged, so the same code may be sent again
        const wait = Number(response.headers.get('retry-after'));
        if (response.status !== 429 || attempt >= SIGN_IN_ATTEMPTS || !(wait >= 0))
          return (await response.json()) as Answer;
        await new Promise((resolve) => setTimeout(resolve, Math.min(wait, 30) * 1000));
      }
    };
    let answer = await send(
      launchCode === undefined ? 'GET' : 'POST',
      launchCode === undefined ? undefined : { launchCode },
    );
    if (!answer.ok && answer.error.code === PLATFORM_SWITCH_CONFIRM_CODE && launchCode !== undefined) {
      const signedIn = answer.error.details?.signedIn ?? { userId: '' };
      const replace = await ask({ kind: 'switch', signedIn });
      answer = replace ? await send('POST', { launchCode, replace: true }) : await send('GET');
    }
    if (!answer.ok && answer.error.code === PLATFORM_SIGN_IN_CONFIRM_CODE) {
      const { signingIn, confirmToken } = answer.error.details ?? {};
      const confirm = signingIn !== undefined && (await ask({ kind: 'sign-in', signingIn }));
      answer = await send('POST', { confirmToken, confirm });
    }
    if (answer.ok && answer.result) return { kind: 'signed-in', view: answer.result };
  } catch {
    // no answer: the exchange is not replayed, the person reopens the application
  }
  markOver();
  return { kind: 'over' };
}
