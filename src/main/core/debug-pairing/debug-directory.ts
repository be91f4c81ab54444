import { AppError } from '../errors.js';
import { ApiError } from '../api-clients/api-errors.js';
import type { DebugBinding } from './debug-sessions.js';
import type { FetchLike } from './developer-api.js';

/** The body of one `members:list` call (as production). */
export interface DirectoryMembersQuery {
  readonly groupId?: string;
  readonly includeDescendants?: boolean;
  readonly search?: string;
  readonly page: number;
  readonly pageSize: number;
}

/**
 * Section D's debug directory reads (application-platform-api.md): the organization directory of
 * the pairing's own runtime session, under `{developer_base_url}/apps/{appId}/versions/{versionId}`,
 * with the CLI session as Bearer. The answers have the production shapes, so the Team feature reads
 * them as it reads the session service's.
 */
export class DebugDirectory {
  constructor(
    private readonly binding: DebugBinding,
    /** The CLI token, read (and its expiry checked) before every request. */
    private readonly token: () => Promise<string>,
    private readonly fetchImpl: FetchLike = fetch,
  ) {}

  private prefix(): string {
    const b = this.binding;
    return `${b.developerBaseUrl}/apps/${encodeURIComponent(b.appId)}/versions/${encodeURIComponent(b.appVersionId)}/runtime-sessions/${encodeURIComponent(b.runtimeSessionId)}`;
  }

  private async call(method: 'GET' | 'POST', suffix: string, body?: unknown): Promise<unknown> {
    const token = await this.token();
    let res: Response;
    try {
      res = await this.fetchImpl(this.prefix() + suffix, {
        method,
        redirect: 'error',
        headers: {
          authorization: `Bearer ${token}`,
          accept: 'application/json',
          ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
        signal: AbortSignal.timeout(30_000),
      });
    } catch (error) {
      throw new AppError(
        'pairing.unavailable',
        `The debug directory did not answer (${error instanceof Error ? error.message : String(error)}).`,
      );
    }
    const text = await res.text();
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    if (!res.ok) {
      const err = (parsed ?? {}) as { code?: string; message?: string; requestId?: string };
      throw new ApiError({
        status: res.status,
        apiCode: err.code ?? `HTTP_${res.status}`,
        message: err.message ?? 'The debug directory refused the call',
        requestId: err.requestId,
        retryable: res.status === 429 || res.status >= 500,
      });
    }
    return parsed;
  }

  /** The pairing's RuntimeSession (its subject: whether there is an organization at all). */
  async organizationId(): Promise<string | undefined> {
    const session = (await this.call('GET', ':resolve')) as { subject?: { organizationId?: string | null } };
    return session?.subject?.organizationId ?? undefined;
  }

  listGroups(): Promise<unknown> {
    return this.call('POST', '/organization-directory/groups:list', {});
  }

  listMembers(query: DirectoryMembersQuery): Promise<unknown> {
    return this.call('POST', '/organization-directory/members:list', query);
  }
}
