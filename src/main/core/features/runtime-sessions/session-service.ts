import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { apiErrorFromResponse, OutcomeUnknownError, ResponseShapeError } from '../../platform/api-errors.js';

/**
 * The three session-service calls the platform host needs (spec section C): exchange a launch code,
 * resolve and renew a RuntimeSession. The full client (directory, grants) is lane runtime-jobs';
 * this narrow interface lets the host be wired to either.
 */
export const RuntimeSessionSchema = z.object({
  sessionId: z.string().min(1),
  appKey: z.string(),
  appVersionId: z.string(),
  subject: z.object({
    tenantId: z.string().min(1),
    accountId: z.string().min(1),
    workspaceId: z.string().optional(),
    userId: z.string().min(1),
    organizationId: z.string().optional(),
    membershipId: z.string().optional(),
  }),
  appRoles: z.array(z.string()),
  expiresAt: z.string().refine((value) => Number.isFinite(Date.parse(value)), 'a date-time'),
});
export type RuntimeSession = z.infer<typeof RuntimeSessionSchema>;

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
  fetch?: typeof fetch;
  /** Total time of one call (the reference client's 30 s). */
  timeoutMs?: number;
}

/** A fetch-based SessionService: `Authorization: Bearer <credential>`, a random `X-Request-ID`. */
export function createSessionService(options: SessionServiceOptions): SessionService {
  const doFetch = options.fetch ?? fetch;
  const base = `${options.sessionBaseUrl.replace(/\/+$/, '')}/apps/${encodeURIComponent(options.appKey)}/runtime-sessions`;
  const call = async (operation: string, url: string, init: RequestInit): Promise<RuntimeSession> => {
    let response: Response;
    try {
      response = await doFetch(url, {
        ...init,
        redirect: 'error',
        signal: AbortSignal.timeout(options.timeoutMs ?? 30_000),
        headers: {
          Authorization: `Bearer ${options.appCredential}`,
          'X-Request-ID': randomUUID(),
          ...(init.body === undefined ? {} : { 'Content-Type': 'application/json' }),
        },
      });
    } catch (error) {
      // the message of a fetch failure names no header; keep only its kind
      const cause = error instanceof Error ? error.name : 'network error';
      throw new OutcomeUnknownError(operation, cause);
    }
    if (!response.ok) throw await apiErrorFromResponse(response);
    let body: unknown;
    try {
      body = await response.json();
    } catch {
      throw new OutcomeUnknownError(operation, 'the answer could not be read');
    }
    const parsed = RuntimeSessionSchema.safeParse(body);
    if (!parsed.success) throw new ResponseShapeError(operation, 'not a RuntimeSession');
    return parsed.data;
  };
  const sessionPath = (sessionId: string, action: string) =>
    `${base}/${encodeURIComponent(sessionId)}:${action}`;
  return {
    exchange: (launchCode) =>
      call('Exchanging the launch code', `${base}:exchange`, {
        method: 'POST',
        body: JSON.stringify({ launchCode }),
      }),
    resolve: (sessionId) =>
      call('Resolving the session', sessionPath(sessionId, 'resolve'), { method: 'GET' }),
    renew: (sessionId) =>
      call('Renewing the session', sessionPath(sessionId, 'renew'), { method: 'POST', body: '{}' }),
  };
}
