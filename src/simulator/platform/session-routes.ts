import { sendJson } from '../http.js';
import { readSessionBody } from './body.js';
import { PlatformError, sessionNotFound } from './errors.js';
import type { PlatformContext, PlatformRoute } from './router.js';
import { EmptyBody, errorDoc, ExchangeBody, RuntimeSessionSchema } from './schemas.js';
import { toRuntimeSession } from './session-store.js';

/** `POST /apps/{appKey}/runtime-sessions:exchange`: consumes the launch code once. */
async function exchange(pc: PlatformContext): Promise<void> {
  const body = await readSessionBody(pc.req, ExchangeBody, { ignoreIdentityFields: true });
  const session = pc.state.platform.sessions.exchange(pc.app.appKey, body.launchCode);
  if (!session)
    throw new PlatformError(
      404,
      'RUNTIME_SESSION_LAUNCH_CODE_NOT_FOUND',
      'The launch code is unknown, already used, expired or issued for another application. Reopen the application.',
    );
  sendJson(pc.res, 200, toRuntimeSession(session));
}

/** `GET /apps/{appKey}/runtime-sessions/{sessionId}:resolve`: uniform 404 for every failure. */
async function resolve(pc: PlatformContext): Promise<void> {
  const session = pc.state.platform.sessions.resolve(pc.app.appKey, pc.params.sessionId ?? '');
  if (!session) throw sessionNotFound();
  sendJson(pc.res, 200, toRuntimeSession(session));
}

/** `POST /apps/{appKey}/runtime-sessions/{sessionId}:renew`: body absent or exactly `{}`. */
async function renew(pc: PlatformContext): Promise<void> {
  await readSessionBody(pc.req, EmptyBody, { emptyAllowed: true });
  const outcome = pc.state.platform.sessions.renew(pc.app.appKey, pc.params.sessionId ?? '');
  if (outcome.ok) {
    sendJson(pc.res, 200, toRuntimeSession(outcome.session));
    return;
  }
  switch (outcome.reason) {
    case 'not_found':
      throw sessionNotFound();
    case 'revoked':
      throw new PlatformError(
        403,
        'RUNTIME_SESSION_ACCESS_REVOKED',
        "The person's permission or the application's state no longer allows this session.",
      );
    case 'window_passed':
      throw new PlatformError(
        401,
        'RUNTIME_SESSION_REAUTHENTICATION_REQUIRED',
        'The 7-day renewal window since the first exchange has passed; the person must open the application again.',
      );
    case 'blocked':
      throw new PlatformError(
        409,
        'RUNTIME_SESSION_RENEWAL_BLOCKED',
        'Renewal of this session is blocked by its state.',
      );
  }
}

const SESSION_PATH_DOC = { description: 'RuntimeSession', schema: RuntimeSessionSchema };
const COMMON_SESSION_ERRORS = {
  401: errorDoc('Application credential missing or unknown'),
  403: errorDoc('The credential does not match the application in the path'),
  429: errorDoc('Rate limited (Retry-After)'),
  503: errorDoc('Dependency unavailable (Retry-After)'),
  504: errorDoc('Gateway timeout'),
};

export const sessionRoutes: PlatformRoute[] = [
  {
    method: 'POST',
    path: '/session/apps/{appKey}/runtime-sessions:exchange',
    surface: 'session',
    appParam: 'appKey',
    handler: exchange,
    doc: {
      operationId: 'exchangeRuntimeSession',
      summary: 'Exchange a one-time launch code for a RuntimeSession (single use)',
      tags: ['session'],
      requestBody: { schema: ExchangeBody, required: true },
      responses: {
        200: SESSION_PATH_DOC,
        400: errorDoc('Invalid body'),
        404: errorDoc('Launch code unknown, used, expired or of another application (not consumed)'),
        ...COMMON_SESSION_ERRORS,
      },
    },
  },
  {
    method: 'GET',
    path: '/session/apps/{appKey}/runtime-sessions/{sessionId}:resolve',
    surface: 'session',
    appParam: 'appKey',
    handler: resolve,
    doc: {
      operationId: 'resolveRuntimeSession',
      summary: 'Resolve a RuntimeSession (successes cached at most 1 s)',
      tags: ['session'],
      responses: {
        200: SESSION_PATH_DOC,
        404: errorDoc('Nonexistent, expired, revoked or cross-application session (uniform)'),
        ...COMMON_SESSION_ERRORS,
      },
    },
  },
  {
    method: 'POST',
    path: '/session/apps/{appKey}/runtime-sessions/{sessionId}:renew',
    surface: 'session_renew',
    appParam: 'appKey',
    handler: renew,
    doc: {
      operationId: 'renewRuntimeSession',
      summary: 'Renew: a new 24-hour session; the old one stays usable at most 1 minute',
      tags: ['session'],
      requestBody: { schema: EmptyBody, required: false },
      responses: {
        200: { description: 'The new RuntimeSession', schema: RuntimeSessionSchema },
        400: errorDoc('Body other than absent or {}'),
        404: errorDoc('RUNTIME_SESSION_NOT_FOUND'),
        409: errorDoc('RUNTIME_SESSION_RENEWAL_BLOCKED'),
        ...COMMON_SESSION_ERRORS,
        401: errorDoc(
          'RUNTIME_SESSION_REAUTHENTICATION_REQUIRED (7-day window passed) or credential missing',
        ),
        403: errorDoc('RUNTIME_SESSION_ACCESS_REVOKED or credential mismatch'),
        503: errorDoc('RUNTIME_SESSION_RENEWAL_UNAVAILABLE (Retry-After)'),
      },
    },
  },
];
