/**
 * How a call of the deployed runtime is authorized (application-platform-api.md, "Authentication"):
 * the application credential, plus EITHER the user's RuntimeSession OR one job's recovery reference.
 * The union has no value carrying both, so a request cannot be built with both headers.
 */
export interface SessionAuth {
  readonly kind: 'session';
  readonly sessionId: string;
}
/** One job's recovery reference: reads that job and its results only (never creation or lists). */
export interface RecoveryAuth {
  readonly kind: 'recovery';
  readonly recoveryRef: string;
}
export type RuntimeAuth = SessionAuth | RecoveryAuth;

export const sessionAuth = (sessionId: string): SessionAuth => ({ kind: 'session', sessionId });
export const recoveryAuth = (recoveryRef: string): RecoveryAuth => ({ kind: 'recovery', recoveryRef });

export const SESSION_HEADER = 'x-platform-runtime-session-id';
export const RECOVERY_HEADER = 'x-platform-job-recovery-ref';

/** The headers of one runtime call: the credential and exactly one of session / recovery reference. */
export function runtimeAuthHeaders(credential: string, auth: RuntimeAuth): Record<string, string> {
  const headers: Record<string, string> = { authorization: `Bearer ${credential}` };
  if (auth.kind === 'session') headers[SESSION_HEADER] = auth.sessionId;
  else headers[RECOVERY_HEADER] = auth.recoveryRef;
  return headers;
}

/** The secret values of an auth, for scrubbing error texts. */
export function authSecrets(auth: RuntimeAuth): string[] {
  return auth.kind === 'session' ? [auth.sessionId] : [auth.recoveryRef];
}
