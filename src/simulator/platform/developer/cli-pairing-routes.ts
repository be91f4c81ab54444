import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { PlatformContext, PlatformRoute } from '../router.js';
import { iso } from '../../clock.js';
import { readBody, sendJson } from '../../http.js';
import { ApiError } from '../../errors.js';
import { PlatformError } from '../errors.js';
import { errorDoc } from '../schemas.js';
import {
  developerCaller,
  ownedApp,
  parseDeveloperJson,
  readDeveloperBody,
  type DeveloperCaller,
} from './developer-auth.js';
import { DEVELOPER_SUBJECT, DEVELOPER_TOKEN } from './developer-fixtures.js';
import { DEVELOPER_COMMON, developerRoute } from './developer-routes.js';
import {
  CliAuthorizationRequest,
  CliAuthorizationResponse,
  CliExchangeRequest,
  CliSessionSchema,
} from './developer-schemas.js';
import { sha256Hex, type CliAuthorization } from './developer-store.js';

/** An authorization code can be exchanged for 5 minutes, once. */
export const CLI_AUTHORIZATION_CODE_SECONDS = 5 * 60;
/** The online debugging runtime of the simulator (section B, served by another part). */
export const DEBUG_RUNTIME_PATH = '/platform/debug/v1';

const invalid = (status: 400 | 401, message: string) =>
  new PlatformError(status, 'CLI_AUTHORIZATION_INVALID', message);

/** A redirect address the CLI listens on: http on a loopback address only. */
function isLoopbackRedirect(value: string): boolean {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  return (
    url.protocol === 'http:' &&
    ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname) &&
    url.username === '' &&
    url.password === '' &&
    url.hash === ''
  );
}

/**
 * The developer's approval of a CLI pairing: checks the parameters and answers a one-time,
 * 5-minute code bound to the S256 challenge (only the code's hash is kept).
 */
export function approvePairing(
  pc: PlatformContext,
  caller: DeveloperCaller,
  appId: string,
  fields: unknown,
): { authorizationCode: string; expiresAt: string; redirectUri: string } {
  const app = ownedApp(pc, caller, appId);
  let body: ReturnType<typeof CliAuthorizationRequest.parse>;
  try {
    body = parseDeveloperJson(JSON.stringify(fields), CliAuthorizationRequest);
  } catch (error) {
    if (error instanceof ApiError) throw invalid(400, error.message);
    throw error;
  }
  if (!isLoopbackRedirect(body.redirectUri))
    throw invalid(400, 'redirectUri must be an http address on loopback (127.0.0.1, localhost or [::1]).');
  if (!body.versionId) throw invalid(400, 'versionId is required: online debugging is bound to one version.');
  const store = pc.state.platform.developer;
  const version = store.versions.get(body.versionId);
  if (!version || version.appId !== app.appId || version.status === 'deleted')
    throw invalid(400, 'versionId names no usable version of this application.');
  if (
    body.testAccountId &&
    !store.testAccounts.some((t) => t.id === body.testAccountId && t.appId === app.appId)
  )
    throw new PlatformError(
      403,
      'TEST_IDENTITY_NOT_AUTHORIZED',
      "testAccountId is not on this application's test-account list.",
    );
  const authorizationCode = 'fwcac_' + randomBytes(32).toString('base64url');
  const record: CliAuthorization = {
    codeHash: sha256Hex(authorizationCode),
    appId: app.appId,
    versionId: body.versionId,
    testAccountId: body.testAccountId ?? null,
    codeChallenge: body.codeChallenge,
    redirectUri: body.redirectUri,
    expiresAtMs: pc.state.clock.nowMs() + CLI_AUTHORIZATION_CODE_SECONDS * 1000,
    consumed: false,
  };
  store.saveCliAuthorization(record);
  return { authorizationCode, expiresAt: iso(record.expiresAtMs), redirectUri: body.redirectUri };
}

/** `POST /apps/{appId}/cli-authorizations`: the call, made with the developer session, is the approval. */
async function createAuthorization(pc: PlatformContext): Promise<void> {
  let caller: DeveloperCaller;
  try {
    caller = developerCaller(pc, 'approve a pairing');
  } catch (error) {
    if (error instanceof ApiError && error.status === 401)
      throw new PlatformError(
        401,
        'CLI_AUTHORIZATION_IDENTITY_MISSING',
        'No developer identity: sign in (developer session) to approve a CLI pairing.',
        { headers: { 'WWW-Authenticate': 'Bearer' } },
      );
    throw error;
  }
  ownedApp(pc, caller, pc.params.appId ?? '');
  const raw = (await readBody(pc.req, 64 * 1024)).toString('utf8');
  let fields: unknown;
  try {
    fields = JSON.parse(raw);
  } catch {
    throw invalid(400, 'The body is not valid JSON.');
  }
  const { authorizationCode, expiresAt } = approvePairing(pc, caller, pc.params.appId ?? '', fields);
  sendJson(pc.res, 200, { authorizationCode, expiresAt });
}

const s256 = (verifier: string) => createHash('sha256').update(verifier).digest('base64url');

/** `POST /cli-sessions:exchange`: the code and its verifier → a 1-hour CLI session; single use. */
async function exchange(pc: PlatformContext): Promise<void> {
  const body = await readDeveloperBody(pc, CliExchangeRequest);
  const store = pc.state.platform.developer;
  const record = store.cliAuthorizations.get(sha256Hex(body.authorizationCode));
  const now = pc.state.clock.nowMs();
  if (!record || record.consumed || record.expiresAtMs <= now)
    throw invalid(401, 'The authorization code is unknown, expired or already used.');
  const expected = Buffer.from(record.codeChallenge);
  const actual = Buffer.from(s256(body.codeVerifier));
  if (expected.length !== actual.length || !timingSafeEqual(expected, actual))
    throw invalid(401, 'The code verifier does not match the challenge of this authorization.');
  const app = store.apps.get(record.appId);
  const version = record.versionId ? store.versions.get(record.versionId) : undefined;
  if (!app || !version || version.status === 'deleted')
    throw invalid(401, 'The application or version of this authorization is no longer available.');
  // the test-account list is re-checked at use
  const account = record.testAccountId
    ? store.testAccounts.find((t) => t.id === record.testAccountId && t.appId === app.appId)
    : undefined;
  if (record.testAccountId && !account)
    throw new PlatformError(403, 'TEST_IDENTITY_NOT_AUTHORIZED', 'The test account is no longer authorized.');
  store.saveCliAuthorization({ ...record, consumed: true });
  const { record: session, accessToken } = pc.state.platform.cliSessions.issue({
    appId: app.appId,
    appKey: app.appKey,
    appVersionId: version.versionId,
    testAccountId: record.testAccountId,
    subject: { ...(account?.subject ?? DEVELOPER_SUBJECT) },
  });
  const origin = new URL(pc.state.baseUrl).origin;
  const debugBase = origin + DEBUG_RUNTIME_PATH;
  sendJson(pc.res, 200, {
    accessToken,
    tokenType: 'Bearer',
    expiresAt: iso(session.expiresAtMs),
    appId: session.appId,
    appKey: session.appKey,
    appVersionId: session.appVersionId,
    runtimeSessionId: session.runtimeSessionId,
    testAccountId: session.testAccountId,
    scopes: session.scopes,
    runtimeBaseUrl: debugBase,
    relayBaseUrl: debugBase + '/inter-app',
    uploadBaseUrl: debugBase + '/assets',
    developerBaseUrl: origin + '/platform/api/v1/appstore/developer',
  });
}

// ---------- the local developer portal (plain HTML on loopback) ----------

const escapeHtml = (value: string) =>
  value.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

function sendHtml(pc: PlatformContext, status: number, title: string, body: string): void {
  const html =
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>` +
    `<meta name="referrer" content="no-referrer"></head><body><h1>${escapeHtml(title)}</h1>${body}</body></html>`;
  pc.res.writeHead(status, {
    'Content-Type': 'text/html; charset=utf-8',
    'Content-Length': String(Buffer.byteLength(html)),
    'Cache-Control': 'no-store',
    // the approval form answers with a 303 to the CLI's loopback redirectUri: form-action governs
    // that redirect too, so loopback origins are allowed (and nothing else)
    'Content-Security-Policy': "default-src 'none'; form-action 'self' http://127.0.0.1:* http://localhost:*",
    'X-Frame-Options': 'DENY',
  });
  pc.res.end(html);
}

const PAIRING_FIELDS = [
  'appId',
  'codeChallenge',
  'redirectUri',
  'versionId',
  'testAccountId',
  'state',
] as const;

/** `GET /developer-portal`: sign-in; with pairing parameters, the approval form of a CLI pairing. */
async function portalPage(pc: PlatformContext): Promise<void> {
  const q = pc.query;
  const pairing = q.get('appId') && q.get('codeChallenge') && q.get('redirectUri');
  const hidden = PAIRING_FIELDS.filter((f) => q.get(f))
    .map((f) => `<input type="hidden" name="${f}" value="${escapeHtml(q.get(f)!)}">`)
    .join('');
  const token =
    '<p><label>Developer token <input type="password" name="developerToken" autocomplete="off" required></label></p>';
  if (!pairing) {
    sendHtml(
      pc,
      200,
      'Local developer portal',
      '<p>Local simulation of the platform\u2019s developer portal. Sign in with the local developer token ' +
        '(<code>developerToken</code> of <code>framewright simulator --json</code>). A CLI opens this page with ' +
        '<code>appId</code>, <code>codeChallenge</code>, <code>redirectUri</code>, <code>versionId</code> and ' +
        'optionally <code>testAccountId</code> and <code>state</code> to be approved.</p>',
    );
    return;
  }
  sendHtml(
    pc,
    200,
    'Approve a CLI pairing',
    `<p>A command-line tool asks to debug application <b>${escapeHtml(q.get('appId')!)}</b>, version ` +
      `<b>${escapeHtml(q.get('versionId') ?? '(none)')}</b>, as <b>${escapeHtml(q.get('testAccountId') ?? 'you')}</b>. ` +
      `It will be sent back to <code>${escapeHtml(q.get('redirectUri')!)}</code>.</p>` +
      `<form method="post" action="${DEVELOPER_PORTAL_APPROVE}">${hidden}${token}` +
      '<p><button type="submit">Sign in and approve</button></p></form>',
  );
}

export const DEVELOPER_PORTAL_APPROVE = '/platform/developer-portal/cli-authorizations';

/**
 * `POST /developer-portal/cli-authorizations` (form): the developer signs in with the token and
 * approves; the answer redirects (303) to the CLI's loopback `redirectUri` with `code` and `state`.
 */
async function portalApprove(pc: PlatformContext): Promise<void> {
  const type = (pc.req.headers['content-type'] ?? '').toLowerCase();
  const raw = (await readBody(pc.req, 64 * 1024)).toString('utf8');
  if (!type.startsWith('application/x-www-form-urlencoded')) {
    sendHtml(pc, 415, 'Unsupported form', '<p>Send the form as application/x-www-form-urlencoded.</p>');
    return;
  }
  const form = new URLSearchParams(raw);
  if (form.get('developerToken') !== DEVELOPER_TOKEN) {
    sendHtml(
      pc,
      401,
      'Sign-in failed',
      '<p>CLI_AUTHORIZATION_IDENTITY_MISSING: the developer token is not valid.</p>',
    );
    return;
  }
  const fields: Record<string, string> = {};
  for (const f of ['codeChallenge', 'redirectUri', 'versionId', 'testAccountId'] as const) {
    const v = form.get(f);
    if (v) fields[f] = v;
  }
  try {
    const approved = approvePairing(pc, { kind: 'developer' }, form.get('appId') ?? '', fields);
    const target = new URL(approved.redirectUri);
    target.searchParams.set('code', approved.authorizationCode);
    const state = form.get('state');
    if (state) target.searchParams.set('state', state);
    pc.res.writeHead(303, {
      Location: target.toString(),
      'Cache-Control': 'no-store',
      'Content-Length': '0',
    });
    pc.res.end();
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    sendHtml(
      pc,
      error.status,
      'Pairing refused',
      `<p>${escapeHtml(error.code)}: ${escapeHtml(error.message)}</p>`,
    );
  }
}

export const cliPairingRoutes: PlatformRoute[] = [
  developerRoute('POST', '/apps/{appId}/cli-authorizations', createAuthorization, {
    operationId: 'createCliAuthorization',
    summary:
      'Approve a CLI pairing (PKCE S256): a 5-minute, single-use authorizationCode. Made with the developer session (the portal page makes it for a CLI)',
    tags: ['developer', 'cli'],
    requestBody: { schema: CliAuthorizationRequest, required: true },
    responses: {
      200: { description: 'Authorization code (appears once)', schema: CliAuthorizationResponse },
      ...DEVELOPER_COMMON,
      401: errorDoc('CLI_AUTHORIZATION_IDENTITY_MISSING: no developer identity at approval'),
      400: errorDoc('CLI_AUTHORIZATION_INVALID: bad parameters (challenge, loopback redirectUri, versionId)'),
      403: errorDoc('TEST_IDENTITY_NOT_AUTHORIZED, or CLI_TOKEN_NOT_PERMITTED'),
    },
  }),
  developerRoute('POST', '/cli-sessions:exchange', exchange, {
    operationId: 'exchangeCliSession',
    summary: 'Exchange the authorization code and its PKCE verifier for a 1-hour CLI session',
    tags: ['developer', 'cli'],
    requestBody: { schema: CliExchangeRequest, required: true },
    responses: {
      200: { description: 'CLI session (the access token appears once)', schema: CliSessionSchema },
      400: errorDoc('INVALID_REQUEST: malformed body'),
      401: errorDoc('CLI_AUTHORIZATION_INVALID: bad, expired, replayed code or wrong verifier'),
      403: errorDoc('TEST_IDENTITY_NOT_AUTHORIZED: re-checked at use'),
      429: DEVELOPER_COMMON[429],
      503: DEVELOPER_COMMON[503],
      504: DEVELOPER_COMMON[504],
    },
  }),
  {
    method: 'GET',
    path: '/developer-portal',
    surface: 'developer',
    auth: 'route',
    handler: portalPage,
    doc: {
      operationId: 'developerPortalPage',
      summary: 'Local developer portal (simulator): sign-in with the developer token, CLI pairing approval',
      tags: ['simulator'],
      responses: { 200: { description: 'HTML page', contentType: 'text/html' } },
    },
  },
  {
    method: 'POST',
    path: '/developer-portal/cli-authorizations',
    surface: 'developer',
    auth: 'route',
    handler: portalApprove,
    doc: {
      operationId: 'developerPortalApprove',
      summary:
        'Form (application/x-www-form-urlencoded: developerToken, appId, codeChallenge, redirectUri, versionId, testAccountId?, state?): approve, 303 to redirectUri?code=&state=',
      tags: ['simulator'],
      responses: {
        303: { description: 'Redirect to the CLI loopback address with the code' },
        400: { description: 'HTML error page', contentType: 'text/html' },
        401: { description: 'HTML sign-in failure', contentType: 'text/html' },
        403: { description: 'HTML error page', contentType: 'text/html' },
        404: { description: 'HTML error page', contentType: 'text/html' },
        415: { description: 'HTML error page', contentType: 'text/html' },
      },
    },
  },
];
