import { AppError } from '../errors.js';

/**
 * A grant was issued before under this key (an answer lost, a restart) and its plaintext is not
 * answered again — by the session service (production) or the developer control plane (a debug
 * grant) alike: the caller issues under a successor key. One class for every GrantChannel, so a
 * caller's retry path runs in debugging as in production.
 */
export class GrantPlaintextGoneError extends Error {
  constructor(
    readonly expiresAt: string,
    message = 'The grant was issued before; its plaintext is not answered again.',
  ) {
    super(message);
    this.name = 'GrantPlaintextGoneError';
  }
}

/** What a refusal means for the person, one group per next step. */
export type InterAppErrorGroup =
  | 'not_declared' // this deployment of Framewright may not call that application: an administrator's fix
  | 'session' // the person's platform session is over or refused: sign in again
  | 'conflict' // the same business action was already asked with another content
  | 'unavailable' // the platform or the other application is down for a while: try again later
  | 'refused' // the other application refused the grant (unknown, expired, another request)
  | 'not_found' // the other application has nothing of this person under that id
  | 'failed'; // anything else: the other application's answer, kept as is

/** The AppError code of each group (declared in `../error-kinds.ts`). */
export type InterAppErrorCode = `inter_app.${InterAppErrorGroup}`;

const GROUP_OF_CODE: Readonly<Record<string, InterAppErrorGroup>> = {
  APP_CAPABILITY_NOT_DECLARED: 'not_declared',
  APP_GRANT_PRECONDITION_NOT_FOUND: 'not_declared',
  APP_GRANT_IDEMPOTENCY_CONFLICT: 'conflict',
  idempotency_conflict: 'conflict',
  APP_GRANT_SERVICE_UNAVAILABLE: 'unavailable',
  APP_GRANT_RESOLVE_FAILED: 'unavailable',
  APP_HANDOFF_UNAVAILABLE: 'unavailable',
  APP_GRANT_NOT_FOUND: 'refused',
  APP_GRANT_MISSING: 'refused',
  RUNTIME_SESSION_NOT_FOUND: 'session',
  RUNTIME_SESSION_REAUTHENTICATION_REQUIRED: 'session',
  RUNTIME_SESSION_ACCESS_REVOKED: 'session',
  board_not_found: 'not_found',
  panel_not_found: 'not_found',
  image_not_found: 'not_found',
  // online debugging (section D): debug grants, peer grants, the relay
  DEVELOPER_APP_GRANT_REJECTED: 'not_declared',
  DEBUG_PEER_NOT_FOUND: 'refused',
  DEBUG_PEER_IDEMPOTENCY_CONFLICT: 'conflict',
  DEBUG_PEER_UNAVAILABLE: 'unavailable',
  DEBUG_RELAY_UNAVAILABLE: 'unavailable',
  DEBUG_RELAY_UPSTREAM_FAILED: 'unavailable',
  DEBUG_RELAY_UPSTREAM_TIMEOUT: 'unavailable',
  UNAUTHENTICATED: 'session',
};

/** The plain sentence the person reads for a refusal by `code` (the spec's names and the callee's own). */
export function grantErrorSentence(code: string, appLabel: string, retryAfterSeconds?: number): string {
  switch (code) {
    case 'APP_CAPABILITY_NOT_DECLARED':
      return `This Framewright deployment is not allowed to use ${appLabel} (the connection is not declared on the platform). Ask your administrator to declare it.`;
    case 'APP_GRANT_PRECONDITION_NOT_FOUND':
      return `${appLabel} is not available to you on this platform (it is not installed for your organisation, or your session cannot use it).`;
    case 'APP_GRANT_IDEMPOTENCY_CONFLICT':
    case 'idempotency_conflict':
      return `${appLabel} already received this action with different content. Nothing was changed; start the action again.`;
    case 'APP_GRANT_SERVICE_UNAVAILABLE':
      return `The platform cannot authorise the call to ${appLabel} right now${retryWhen(retryAfterSeconds)}. Nothing was changed; try again.`;
    case 'APP_GRANT_RESOLVE_FAILED':
      return `${appLabel} could not check Framewright's authorisation. Nothing was changed; try again later.`;
    case 'APP_GRANT_NOT_FOUND':
      return `${appLabel} refused Framewright's authorisation for this request (expired or not for this request). Nothing was changed; try again.`;
    case 'APP_GRANT_MISSING':
      return `${appLabel} received the request without its authorisation. Nothing was changed; try again.`;
    case 'RUNTIME_SESSION_NOT_FOUND':
    case 'RUNTIME_SESSION_REAUTHENTICATION_REQUIRED':
    case 'RUNTIME_SESSION_ACCESS_REVOKED':
      return `Your platform session is over or no longer allows this. Sign in again, then retry.`;
    case 'board_not_found':
      return `${appLabel} has no board with this id for you.`;
    case 'panel_not_found':
      return `${appLabel} has no such panel on this board (it may have been removed).`;
    case 'image_not_found':
      return `${appLabel} no longer serves this image (its address expired). Try again.`;
    case 'DEVELOPER_APP_GRANT_REJECTED':
      return `The version you are debugging cannot call ${appLabel} in online debugging (it does not declare that dependency, or ${appLabel} does not open it to debugging).`;
    case 'DEBUG_PEER_NOT_FOUND':
      return `The local ${appLabel} you are debugging against does not accept this pairing (its receiver expired, was revoked, or is for another person or capability). Open a new receiver, then retry.`;
    case 'DEBUG_PEER_IDEMPOTENCY_CONFLICT':
      return `${appLabel} already received this action with different content in this debugging session. Nothing was changed; start the action again.`;
    case 'DEBUG_PEER_UNAVAILABLE':
    case 'DEBUG_RELAY_UNAVAILABLE':
      return `Online debugging cannot reach ${appLabel} right now${retryWhen(retryAfterSeconds)}. Nothing was changed; try again.`;
    case 'DEBUG_RELAY_UPSTREAM_FAILED':
    case 'DEBUG_RELAY_UPSTREAM_TIMEOUT':
      return `The debugging relay could not get an answer from ${appLabel}. The outcome is unknown; check the board before trying again.`;
    case 'UNAUTHENTICATED':
      return `Your debugging pairing is over (a pairing lasts one hour). Pair for debugging again, then retry.`;
    default:
      return `${appLabel} refused the request (code ${code}).`;
  }
}

function retryWhen(seconds: number | undefined): string {
  return seconds !== undefined && seconds > 0 ? ` (it asks to wait ${Math.ceil(seconds)} s)` : '';
}

/** The group of a refusal's code: by name first, then by HTTP status. */
export function groupOfGrantError(code: string, status: number): InterAppErrorGroup {
  const named = GROUP_OF_CODE[code];
  if (named) return named;
  if (status === 401) return 'session';
  if (status === 409) return 'conflict';
  if (status === 429 || status >= 500) return 'unavailable';
  return 'failed';
}

/**
 * A refusal in an inter-application call (by the session service or the other application), as a
 * plain sentence. Carries no grant, no session id: only the code, the status and `Retry-After`.
 */
export class InterAppError extends AppError {
  readonly apiCode: string;
  readonly status: number;
  readonly retryAfterSeconds: number | undefined;
  readonly group: InterAppErrorGroup;
  constructor(init: { apiCode: string; status: number; appLabel: string; retryAfterSeconds?: number }) {
    const group = groupOfGrantError(init.apiCode, init.status);
    super(`inter_app.${group}`, grantErrorSentence(init.apiCode, init.appLabel, init.retryAfterSeconds), {
      code: init.apiCode,
      status: init.status,
    });
    this.name = 'InterAppError';
    this.apiCode = init.apiCode;
    this.status = init.status;
    this.retryAfterSeconds = init.retryAfterSeconds;
    this.group = group;
  }
}
