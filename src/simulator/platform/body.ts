import type { IncomingMessage } from 'node:http';
import type { z } from 'zod';
import { readBody } from '../http.js';
import { invalidSessionRequest } from './errors.js';

/** Largest JSON body of a session-service call (they are all a few fields). */
export const SESSION_BODY_MAX_BYTES = 64 * 1024;

/**
 * Identity fields a browser (or a careless backend) may put into a session-service body: the
 * spec's session service ignores them (the person, tenant and roles come from the launch code
 * or the session, never from a body), so they are dropped before the body is checked.
 */
export const IGNORED_IDENTITY_FIELDS: readonly string[] = [
  'user',
  'userId',
  'tenantId',
  'accountId',
  'workspaceId',
  'organizationId',
  'membershipId',
  'subject',
  'role',
  'roles',
  'appRoles',
  'callerAppRoles',
];

/**
 * Reads and validates a session-service JSON body: invalid JSON, a non-object, an unknown field
 * or a wrong type is 400 `INVALID_REQUEST` naming the field. An absent body is `{}` only when
 * `emptyAllowed`; with `ignoreIdentityFields` the IGNORED_IDENTITY_FIELDS are dropped first
 * (where the spec does not make the body exact: renewal and the directory keep refusing them).
 */
export async function readSessionBody<T extends z.ZodType>(
  req: IncomingMessage,
  schema: T,
  options: { emptyAllowed?: boolean; ignoreIdentityFields?: boolean } = {},
): Promise<z.infer<T>> {
  const raw = await readBody(req, SESSION_BODY_MAX_BYTES);
  let parsed: unknown;
  if (raw.length === 0 && options.emptyAllowed) parsed = {};
  else {
    try {
      parsed = JSON.parse(raw.toString('utf8'));
    } catch {
      throw invalidSessionRequest('The body is not valid JSON.');
    }
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
    throw invalidSessionRequest('The body must be a JSON object.');
  if (options.ignoreIdentityFields)
    parsed = Object.fromEntries(
      Object.entries(parsed).filter(([name]) => !IGNORED_IDENTITY_FIELDS.includes(name)),
    );
  const result = schema.safeParse(parsed);
  if (!result.success) {
    const issues = result.error.issues.map((issue) => ({
      path: issue.path.map(String).join('.'),
      code: issue.code,
      message: issue.message,
      ...('keys' in issue ? { keys: issue.keys } : {}),
    }));
    const first = issues[0];
    throw invalidSessionRequest(
      first ? `${first.path || 'body'}: ${first.message}` : 'The body is invalid.',
      {
        issues,
      },
    );
  }
  return result.data;
}
