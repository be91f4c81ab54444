import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import { parseAnswer, runtimeErrorFrom, scrubError } from './runtime-errors.js';
import { readText, sendHttp } from './runtime-http.js';
import {
  DirectoryGroups,
  DirectoryMembers,
  IssuedGrant,
  ResolvedGrant,
  RuntimeSession,
} from './runtime-schemas.js';

/** The session service (`PLATFORM_APP_SESSION_BASE_URL`) as this application. */
export interface SessionEndpoint {
  sessionBaseUrl: string;
  appKey: string;
  appCredential(): Promise<string>;
}

/** What a grant is issued for (section C, `POST /apps/{callerAppKey}/app-grants`). */
export interface GrantIssue {
  runtimeSessionId: string;
  calleeAppKey: string;
  apiVersion?: string;
  scope: string;
  idempotencyKey: string;
  requestDigest: string;
}

export interface MembersQuery {
  groupId?: string;
  includeDescendants?: boolean;
  search?: string;
  page?: number;
  pageSize?: number;
}

/**
 * The typed client of the session service (application-platform-api.md, section C): exchange,
 * resolve, renew and the organization directory. Every call carries the application credential
 * and a random `X-Request-ID`. Launch codes and session ids go only into the body or path the spec
 * names; they, and the credential, are removed from every error and answer text.
 *
 * Exchange is sent once: an unknown outcome (`OutcomeUnknownError`) is never replayed by this
 * client — the user reopens the application (spec, section C rules).
 */
export class SessionServiceClient {
  private readonly base: string;

  constructor(private readonly endpoint: SessionEndpoint) {
    this.base = endpoint.sessionBaseUrl.replace(/\/+$/, '');
  }

  private appPath(): string {
    return `${this.base}/apps/${encodeURIComponent(this.endpoint.appKey)}`;
  }

  private sessionPath(sessionId: string): string {
    return `${this.appPath()}/runtime-sessions/${encodeURIComponent(sessionId)}`;
  }

  private async call<S extends z.ZodType>(
    operation: string,
    method: 'GET' | 'POST',
    url: string,
    schema: S,
    body: unknown,
    secrets: readonly string[],
  ): Promise<z.output<S>> {
    const credential = await this.endpoint.appCredential();
    const all = [credential, ...secrets];
    try {
      const headers: Record<string, string> = {
        authorization: `Bearer ${credential}`,
        accept: 'application/json',
        'x-request-id': randomUUID(),
      };
      if (body !== undefined) headers['content-type'] = 'application/json';
      const answer = await sendHttp(
        url,
        { method, headers, body: body === undefined ? undefined : JSON.stringify(body), bound: 'total' },
        operation,
      );
      if (answer.status < 200 || answer.status >= 300) throw await runtimeErrorFrom(answer, operation, all);
      return await parseAnswer(await readText(answer, operation), schema, operation, [credential]);
    } catch (error) {
      throw scrubError(error, all);
    }
  }

  /** Exchanges a one-time launch code for a RuntimeSession. Never replayed on an unknown outcome. */
  exchange(launchCode: string): Promise<RuntimeSession> {
    if (!launchCode) throw new RangeError('A launch code is required.');
    return this.call(
      'Exchange launch code',
      'POST',
      `${this.appPath()}/runtime-sessions:exchange`,
      RuntimeSession,
      { launchCode },
      [launchCode],
    );
  }

  /** Resolves a session (404 for unknown, expired, revoked or foreign sessions alike). */
  resolve(sessionId: string): Promise<RuntimeSession> {
    return this.call(
      'Resolve session',
      'GET',
      `${this.sessionPath(sessionId)}:resolve`,
      RuntimeSession,
      undefined,
      [sessionId],
    );
  }

  /** Renews a session (body exactly `{}`); the answer is a new session. */
  renew(sessionId: string): Promise<RuntimeSession> {
    return this.call('Renew session', 'POST', `${this.sessionPath(sessionId)}:renew`, RuntimeSession, {}, [
      sessionId,
    ]);
  }

  /** The organization's group tree (organization-manager sessions only). */
  listGroups(sessionId: string): Promise<DirectoryGroups> {
    return this.call(
      'List groups',
      'POST',
      `${this.sessionPath(sessionId)}/organization-directory/groups:list`,
      DirectoryGroups,
      {},
      [sessionId],
    );
  }

  /** One page of members (`pageSize` ≤ 100; page 1, 50 by default as the spec recommends). */
  listMembers(sessionId: string, query: MembersQuery = {}): Promise<DirectoryMembers> {
    const pageSize = query.pageSize ?? 50;
    if (pageSize < 1 || pageSize > 100) throw new RangeError('pageSize must be 1..100.');
    return this.call(
      'List members',
      'POST',
      `${this.sessionPath(sessionId)}/organization-directory/members:list`,
      DirectoryMembers,
      { ...query, page: query.page ?? 1, pageSize },
      [sessionId],
    );
  }

  /**
   * Issues a grant as the caller (this application) for the person's session. Sent once: the
   * caller replays an unknown outcome with the same key and body (the same fact answers).
   */
  issueGrant(issue: GrantIssue): Promise<IssuedGrant> {
    return this.call('Issue app grant', 'POST', `${this.appPath()}/app-grants`, IssuedGrant, issue, [
      issue.runtimeSessionId,
    ]);
  }

  /** Resolves a grant as its callee (this application): 404 for any grant not usable for this request. */
  resolveGrant(input: { grant: string; scope: string; requestDigest: string }): Promise<ResolvedGrant> {
    return this.call(
      'Resolve app grant',
      'POST',
      `${this.appPath()}/app-grants:resolve`,
      ResolvedGrant,
      input,
      [input.grant],
    );
  }
}
