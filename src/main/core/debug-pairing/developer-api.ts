import { z } from 'zod';
import { AppError } from '../errors.js';

/**
 * The three calls of section E (application-platform-api.md) the pairing makes: the application's
 * test-account list and one version (with the developer's session, before pairing), and
 * `POST /cli-sessions:exchange` (no credential: the code and its verifier are the proof).
 */

export const TestAccountSchema = z.object({
  id: z.string().min(1),
  appId: z.string(),
  accountId: z.string(),
  organizationId: z.string(),
  displayName: z.string(),
  organizationName: z.string(),
  createdAt: z.string(),
});
export type TestAccount = z.infer<typeof TestAccountSchema>;

const TestAccountListSchema = z.object({ items: z.array(TestAccountSchema) });

/** The CLI session of the exchange; the three address names are the simulator's (the spec does not show them). */
export const CliSessionSchema = z.object({
  accessToken: z.string().min(1),
  expiresAt: z.string().refine((s) => !Number.isNaN(Date.parse(s)), 'an ISO date-time'),
  appId: z.string().min(1),
  appKey: z.string().min(1),
  appVersionId: z.string().min(1),
  runtimeSessionId: z.string().min(1),
  testAccountId: z.string().nullable().optional(),
  scopes: z.array(z.string()).default([]),
  runtimeBaseUrl: z.string().min(1),
  relayBaseUrl: z.string().optional(),
  uploadBaseUrl: z.string().optional(),
});
export type CliSession = z.infer<typeof CliSessionSchema>;

const ErrorBodySchema = z.object({ code: z.string(), message: z.string().optional() }).passthrough();

/** A refused developer call: the platform's code and status, never the request's secrets. */
export class DeveloperApiError extends AppError {
  constructor(
    readonly status: number,
    readonly platformCode: string,
    message: string,
  ) {
    super('pairing.refused', message, { status, code: platformCode });
  }
}

/**
 * The fetch the debug calls make (a URL string and its init; the global `fetch` is one): the pairing's
 * and the debug grant issuer's (`inter-app/debug-grant-issuer.ts`), so a test's stand-in serves both.
 */
export type FetchLike = (url: string, init: RequestInit) => Promise<Response>;

async function call<T>(
  fetchImpl: FetchLike,
  method: 'GET' | 'POST',
  url: string,
  schema: z.ZodType<T>,
  init: { bearer?: string; json?: unknown },
  what: string,
): Promise<T> {
  let res: Response;
  try {
    res = await fetchImpl(url, {
      method,
      redirect: 'error',
      headers: {
        accept: 'application/json',
        ...(init.bearer ? { authorization: `Bearer ${init.bearer}` } : {}),
        ...(init.json !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      ...(init.json !== undefined ? { body: JSON.stringify(init.json) } : {}),
      signal: AbortSignal.timeout(30_000),
    });
  } catch (error) {
    throw new AppError(
      'pairing.unavailable',
      `${what}: the developer service at ${new URL(url).origin} did not answer (${error instanceof Error ? error.message : String(error)}).`,
    );
  }
  const text = await res.text();
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  if (!res.ok) {
    const parsed = ErrorBodySchema.safeParse(body);
    const code = parsed.success ? parsed.data.code : `HTTP_${res.status}`;
    const message = parsed.success && parsed.data.message ? `: ${parsed.data.message}` : '';
    throw new DeveloperApiError(res.status, code, `${what} was refused (${res.status} ${code})${message}`);
  }
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    throw new AppError(
      'pairing.unexpected_response',
      `${what}: the developer service answered an unexpected body.`,
    );
  }
  return parsed.data;
}

const enc = encodeURIComponent;

export class DeveloperApi {
  constructor(
    private readonly developerBaseUrl: string,
    private readonly fetchImpl: FetchLike = fetch,
  ) {}

  async testAccounts(appId: string, developerToken: string): Promise<TestAccount[]> {
    const list = await call(
      this.fetchImpl,
      'GET',
      `${this.developerBaseUrl}/apps/${enc(appId)}/test-accounts`,
      TestAccountListSchema,
      { bearer: developerToken },
      `Reading the test accounts of ${appId}`,
    );
    return list.items;
  }

  async version(appId: string, versionId: string, developerToken: string): Promise<{ versionId?: string }> {
    return call(
      this.fetchImpl,
      'GET',
      `${this.developerBaseUrl}/apps/${enc(appId)}/versions/${enc(versionId)}`,
      z.object({ versionId: z.string().optional() }).passthrough(),
      { bearer: developerToken },
      `Reading version ${versionId} of ${appId}`,
    );
  }

  exchange(authorizationCode: string, codeVerifier: string): Promise<CliSession> {
    return call(
      this.fetchImpl,
      'POST',
      `${this.developerBaseUrl}/cli-sessions:exchange`,
      CliSessionSchema,
      { json: { authorizationCode, codeVerifier } },
      'The CLI session exchange',
    );
  }
}
