import type { z } from 'zod';
import { iso } from '../clock.js';
import { ApiError } from '../errors.js';
import { bodyHash } from '../idempotency.js';
import { newId, sendJson } from '../http.js';
import { readSessionBody } from './body.js';
import { debugGrantForProductionResolve } from './debug/production-resolve.js';
import { PlatformError } from './errors.js';
import { findApp } from './fixtures.js';
import {
  GRANT_LAUNCH_CODE_LIFETIME_SECONDS,
  GRANT_LIFETIME_SECONDS,
  type GrantRecord,
  resolvedGrantView,
} from './grant-store.js';
import type { PlatformContext, PlatformRoute } from './router.js';
import {
  errorDoc,
  GrantIssueRequest,
  GrantLaunch,
  GrantUseRequest,
  IssuedGrant,
  ResolvedGrant,
} from './schemas.js';

const preconditionMissing = (message: string, status = 404) =>
  new PlatformError(status, 'APP_GRANT_PRECONDITION_NOT_FOUND', message);

/** Grant bodies: a malformed one is the spec's 400 form of APP_GRANT_PRECONDITION_NOT_FOUND. */
async function readGrantBody<T extends z.ZodType>(pc: PlatformContext, schema: T): Promise<z.infer<T>> {
  try {
    return await readSessionBody(pc.req, schema, { ignoreIdentityFields: true });
  } catch (error) {
    if (error instanceof ApiError && error.status === 400)
      throw new PlatformError(400, 'APP_GRANT_PRECONDITION_NOT_FOUND', error.message, {
        details: error.details,
      });
    throw error;
  }
}

/** `POST /apps/{callerAppKey}/app-grants`: a 2-minute grant bound to callee, scope, digest and key. */
async function issue(pc: PlatformContext): Promise<void> {
  const body = await readGrantBody(pc, GrantIssueRequest);
  const caller = pc.app;
  const session = pc.state.platform.sessions.usable(caller.appKey, body.runtimeSessionId);
  if (!session)
    throw preconditionMissing("runtimeSessionId is not a usable session of the caller's application.");
  const callee = findApp(body.calleeAppKey);
  if (!callee) throw preconditionMissing('calleeAppKey names no application.');
  const dependency = caller.dependencies.find(
    (d) =>
      d.calleeAppKey === callee.appKey &&
      d.scopes.includes(body.scope) &&
      (body.apiVersion === undefined || d.apiVersion === body.apiVersion),
  );
  const opened =
    dependency &&
    callee.capabilities.some((c) => c.apiVersion === dependency.apiVersion && c.scopes.includes(body.scope));
  if (!dependency || !opened)
    throw new PlatformError(
      403,
      'APP_CAPABILITY_NOT_DECLARED',
      'The caller does not declare this dependency (callee, apiVersion, scope), or the callee does not open it.',
    );
  const requestHash = bodyHash({ ...body, apiVersion: dependency.apiVersion });
  const grants = pc.state.platform.grants;
  const existing = grants.byIdempotencyKey(caller.appKey, body.idempotencyKey);
  if (existing) {
    if (existing.requestHash !== requestHash)
      throw new PlatformError(
        409,
        'APP_GRANT_IDEMPOTENCY_CONFLICT',
        'This idempotency key was used for another grant request.',
      );
    // the same fact, without its one-time plaintext (answered once, by the issue that made it)
    sendJson(pc.res, 200, { expiresAt: iso(existing.expiresAtMs) });
    return;
  }
  const { record, plaintext } = grants.newGrant({
    grantId: newId('grant'),
    callerAppKey: caller.appKey,
    // the versions now: the caller's session's, and the callee's active production version (a
    // version published since the fixture's first is the one named, not version 1)
    callerAppVersionId: session.appVersionId,
    calleeAppKey: callee.appKey,
    calleeAppVersionId: pc.state.platform.sessions.activeVersionOf(callee),
    apiVersion: dependency.apiVersion,
    user: session.user,
    subject: { ...session.subject },
    callerAppRoles: [...session.appRoles],
    scope: body.scope,
    idempotencyKey: body.idempotencyKey,
    requestDigest: body.requestDigest,
    requestHash,
    expiresAtMs: pc.state.clock.nowMs() + GRANT_LIFETIME_SECONDS * 1000,
  });
  grants.add(record);
  sendJson(pc.res, 200, { grant: plaintext, expiresAt: iso(record.expiresAtMs) });
}

/** The grant for this callee when valid, unexpired and bound to exactly this scope and digest; else one 404. */
async function usableGrant(pc: PlatformContext, debugToo = false): Promise<GrantRecord> {
  const body = await readGrantBody(pc, GrantUseRequest);
  const record =
    pc.state.platform.grants.byGrant(body.grant) ??
    (debugToo ? debugGrantForProductionResolve(pc.state, pc.app, body.grant) : undefined);
  if (
    !record ||
    record.calleeAppKey !== pc.app.appKey ||
    record.expiresAtMs <= pc.state.clock.nowMs() ||
    record.scope !== body.scope ||
    record.requestDigest !== body.requestDigest
  )
    throw new PlatformError(
      404,
      'APP_GRANT_NOT_FOUND',
      'No valid grant for this callee, scope and request digest.',
    );
  return record;
}

/** `:resolve` does not consume the grant; the plaintext is never returned. */
async function resolve(pc: PlatformContext): Promise<void> {
  // a relay-mode debug grant (section D) resolves here too: its callee is a production application
  const g = await usableGrant(pc, true);
  sendJson(pc.res, 200, resolvedGrantView(g));
}

/** `:launch`: a one-time, 1-minute launch code of the callee for the same person (exchanged like any launch code). */
async function launch(pc: PlatformContext): Promise<void> {
  const g = await usableGrant(pc);
  const code = pc.state.platform.sessions.issueLaunchCode(pc.app, g.user, GRANT_LAUNCH_CODE_LIFETIME_SECONDS);
  sendJson(pc.res, 200, { launchCode: code.launchCode, expiresAt: iso(code.expiresAtMs) });
}

const COMMON = {
  401: errorDoc('Application credential missing or unknown'),
  429: errorDoc('Rate limited (Retry-After)'),
  504: errorDoc('Gateway timeout'),
};

export const grantRoutes: PlatformRoute[] = [
  {
    method: 'POST',
    path: '/session/apps/{callerAppKey}/app-grants',
    surface: 'grant',
    appParam: 'callerAppKey',
    handler: issue,
    doc: {
      operationId: 'issueAppGrant',
      summary: 'Issue a 2-minute grant for one callee, scope, request digest and idempotency key',
      tags: ['grants'],
      requestBody: { schema: GrantIssueRequest, required: true },
      responses: {
        200: {
          description:
            'Issued grant (the plaintext appears here only); a replay of the same issue answers expiresAt without grant',
          schema: IssuedGrant,
        },
        400: errorDoc('APP_GRANT_PRECONDITION_NOT_FOUND: malformed request (digest, scope, fields)'),
        403: errorDoc('APP_CAPABILITY_NOT_DECLARED, or credential mismatch'),
        404: errorDoc('APP_GRANT_PRECONDITION_NOT_FOUND: session or callee missing'),
        409: errorDoc('APP_GRANT_IDEMPOTENCY_CONFLICT'),
        503: errorDoc('APP_GRANT_SERVICE_UNAVAILABLE (Retry-After)'),
        ...COMMON,
      },
    },
  },
  {
    method: 'POST',
    path: '/session/apps/{calleeAppKey}/app-grants:resolve',
    surface: 'grant',
    appParam: 'calleeAppKey',
    handler: resolve,
    doc: {
      operationId: 'resolveAppGrant',
      summary: 'Resolve a grant as its callee (not consumed)',
      tags: ['grants'],
      requestBody: { schema: GrantUseRequest, required: true },
      responses: {
        200: { description: 'Resolved grant', schema: ResolvedGrant },
        400: errorDoc('APP_GRANT_PRECONDITION_NOT_FOUND: malformed request'),
        403: errorDoc('Credential mismatch'),
        404: errorDoc('APP_GRANT_NOT_FOUND: invalid, expired, wrong callee, scope or digest'),
        503: errorDoc('APP_GRANT_SERVICE_UNAVAILABLE (Retry-After)'),
        ...COMMON,
      },
    },
  },
  {
    method: 'POST',
    path: '/session/apps/{calleeAppKey}/app-grants:launch',
    surface: 'grant_launch',
    appParam: 'calleeAppKey',
    handler: launch,
    doc: {
      operationId: 'launchAppGrant',
      summary: "A one-time 1-minute launch code of the callee for the caller's person",
      tags: ['grants'],
      requestBody: { schema: GrantUseRequest, required: true },
      responses: {
        200: { description: 'Launch code', schema: GrantLaunch },
        400: errorDoc('APP_GRANT_PRECONDITION_NOT_FOUND: malformed request'),
        403: errorDoc('Credential mismatch'),
        404: errorDoc('APP_GRANT_NOT_FOUND'),
        503: errorDoc('APP_HANDOFF_UNAVAILABLE (Retry-After)'),
        ...COMMON,
      },
    },
  },
];
