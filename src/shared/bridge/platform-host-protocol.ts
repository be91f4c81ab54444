/**
 * What the platform host (`framewright serve --platform`) and the page it serves agree on. The
 * platform opens the application at `<origin>/?launchCode=<code>`; the page removes the code from
 * the address bar and posts it here (JSON `{launchCode}`); the answer sets an HttpOnly cookie and
 * carries a per-session CSRF token the page sends back as a header on every state-changing call
 * (and as a WebSocket subprotocol on the events socket). `GET` here answers the same view again
 * (after a reload) from the cookie.
 */
export const PLATFORM_SESSION_PATH = '/platform/session';
export const PLATFORM_LAUNCH_CODE_PARAM = 'launchCode';
export const PLATFORM_CSRF_HEADER = 'x-framewright-csrf';
export const PLATFORM_CSRF_PROTOCOL_PREFIX = 'framewright.csrf.';
/** The error code of every answer that means "reopen Framewright from your application center". */
export const PLATFORM_SESSION_OVER_CODE = 'platform.session_over';

/**
 * The answer (409) to a launch code posted by a browser that already has a live session: nothing
 * was exchanged. The page shows who is signed in now (`details.signedIn`) and asks; only when the
 * person confirms does it post the same code again with `replace: true` (the code stays in the
 * page's memory meanwhile, never in the address bar or storage). The replaced session ends.
 */
export const PLATFORM_SWITCH_CONFIRM_CODE = 'platform.switch_confirm';

/**
 * The answer (409) to a launch code posted by a browser with no live session (login CSRF: a link
 * someone else made must not sign this browser in silently). The code was exchanged and the new
 * session is held, without a cookie, for PLATFORM_SIGN_IN_HOLD_SECONDS: the page shows whom the
 * link signs in (`details.signingIn`) and asks; its answer posts `{confirmToken, confirm}` (the token
 * kept only in the page's memory). Confirmed: the cookie is set as for any sign-in. Declined or
 * never answered: the held session ends.
 */
export const PLATFORM_SIGN_IN_CONFIRM_CODE = 'platform.signin_confirm';
export const PLATFORM_SIGN_IN_HOLD_SECONDS = 120;

/** `details` of a `platform.signin_confirm` answer. */
export interface PlatformSignInQuestionDetails {
  signingIn: PlatformSignedInView;
  confirmToken: string;
}

/** Who is signed in, without anything that acts for them (the switch question shows it). */
export interface PlatformSignedInView {
  userId: string;
  organizationId?: string;
}

/** Who is signed in, as the page is told (never the RuntimeSession's id). */
export interface PlatformSessionView {
  userId: string;
  /** Present when the person opened Framewright inside an organization. */
  organizationId?: string;
  appRoles: string[];
  expiresAt: string;
  csrfToken: string;
}
