import { SessionServiceClient } from '../../api-clients/runtime/session-service-client.js';
import type { RuntimeSession } from '../../api-clients/runtime/runtime-schemas.js';

export type { RuntimeSession };

/**
 * The three session-service calls the server-side sessions need (spec section C): exchange a
 * launch code, resolve and renew a RuntimeSession. The platform's typed client
 * (`platform/runtime/session-service-client.ts`) implements it; tests may wrap it.
 */
export interface SessionService {
  /** Never replayed by the caller: an OutcomeUnknownError means "reopen the application". */
  exchange(launchCode: string): Promise<RuntimeSession>;
  resolve(sessionId: string): Promise<RuntimeSession>;
  renew(sessionId: string): Promise<RuntimeSession>;
}

export interface SessionServiceOptions {
  sessionBaseUrl: string;
  appKey: string;
  appCredential: string;
}

/** The session service as this application (`Authorization: Bearer <credential>`, a random `X-Request-ID`). */
export function createSessionService(options: SessionServiceOptions): SessionService {
  return new SessionServiceClient({
    sessionBaseUrl: options.sessionBaseUrl,
    appKey: options.appKey,
    appCredential: async () => options.appCredential,
  });
}
