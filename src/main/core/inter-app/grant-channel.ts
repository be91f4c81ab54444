/**
 * The port through which Framewright (the caller) reaches another application of the platform:
 * one grant per exact request, then the request itself carrying only that grant.
 * Production: `production-grant-channel.ts`; tests and the debug relay bring their own.
 */
export interface GrantChannel {
  /** Issues one grant for one exact request (scope, idempotency key stable for the business action, digest). */
  issue(input: {
    calleeAppKey: string;
    apiVersion: string;
    scope: string;
    idempotencyKey: string;
    requestDigest: string;
  }): Promise<{ grant: string; expiresAt: string }>;
  /** Sends the business request with `X-Platform-App-Grant` (and nothing else identifying). */
  send(input: {
    method: 'GET' | 'POST';
    path: string;
    body?: Buffer;
    grant: string;
  }): Promise<{ status: number; headers: Headers; body: Buffer }>;
}

/** The header that carries a grant, the one identifying thing a business request sends. */
export const APP_GRANT_HEADER = 'X-Platform-App-Grant';
