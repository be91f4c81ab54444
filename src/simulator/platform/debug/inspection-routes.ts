import { iso } from '../../clock.js';
import { sendJson } from '../../http.js';
import { FIXED_LOCAL_TEST_TOKEN } from '../../identities.js';
import { readSessionBody } from '../body.js';
import type { CliSessionRecord } from '../developer/cli-session-store.js';
import { PlatformError } from '../errors.js';
import { FIXTURE_SUBJECTS, findApp } from '../fixtures.js';
import { PLATFORM_PREFIX, type PlatformContext, type PlatformRoute } from '../router.js';
import { errorDoc } from '../schemas.js';
import {
  CliSessionSchema,
  DebugWithdrawal,
  DebugWithdrawalRequest,
  SimulatorCliSessionRequest,
} from './debug-schemas.js';
import { DEBUG_PATH, RELAY_SEGMENT } from './paths.js';

/** Simulator-only routes (under `/platform/_simulator`, with the fixed local test token). */
export const SIMULATOR_CLI_SESSIONS_PATH = '/_simulator/cli-sessions';
export const SIMULATOR_DEBUG_WITHDRAWALS_PATH = '/_simulator/debug-withdrawals';

/** `{debug_base_url}` of a simulator whose origin is `origin`. */
export const debugBaseUrl = (origin: string) => origin + PLATFORM_PREFIX + DEBUG_PATH;

/** The CLI session body (section "Developer resources"), with its runtime, relay and upload addresses. */
export function cliSessionBody(origin: string, record: CliSessionRecord, accessToken: string) {
  const debugBase = debugBaseUrl(origin);
  return {
    accessToken,
    expiresAt: iso(record.expiresAtMs),
    appId: record.appId,
    appKey: record.appKey,
    appVersionId: record.appVersionId,
    runtimeSessionId: record.runtimeSessionId,
    scopes: [...record.scopes],
    testAccountId: record.testAccountId,
    runtimeBaseUrl: debugBase,
    relayBaseUrl: debugBase + RELAY_SEGMENT.replace(/\/$/, ''),
    uploadBaseUrl: debugBase,
  };
}

function requireLocalTestToken(pc: PlatformContext): void {
  if (pc.bearer !== FIXED_LOCAL_TEST_TOKEN)
    throw new PlatformError(401, 'UNAUTHENTICATED', "The simulator's fixed local test token is required.", {
      headers: { 'WWW-Authenticate': 'Bearer' },
    });
}

/** Issues a CLI session directly, as section E's PKCE pairing does after the developer approves it. */
async function issueCliSession(pc: PlatformContext): Promise<void> {
  requireLocalTestToken(pc);
  const body = await readSessionBody(pc.req, SimulatorCliSessionRequest);
  const app = findApp(body.appKey);
  if (!app) throw new PlatformError(404, 'NOT_FOUND', 'No fixture application with this appKey.');
  const { record, accessToken } = pc.state.platform.cliSessions.issue({
    appId: app.appId,
    appKey: app.appKey,
    appVersionId: body.versionId ?? app.appVersionId,
    testAccountId: body.testAccountId ?? null,
    subject: { ...FIXTURE_SUBJECTS[body.user] },
  });
  sendJson(pc.res, 200, cliSessionBody(new URL(pc.state.baseUrl).origin, record, accessToken));
}

/** A provider withdraws (or reopens) online debugging of its capabilities. */
async function setWithdrawal(pc: PlatformContext): Promise<void> {
  requireLocalTestToken(pc);
  const body = await readSessionBody(pc.req, DebugWithdrawalRequest);
  if (!findApp(body.appKey))
    throw new PlatformError(404, 'NOT_FOUND', 'No fixture application with this appKey.');
  pc.state.platform.debug.setWithdrawn(body.appKey, body.withdrawn);
  sendJson(pc.res, 200, { appKey: body.appKey, withdrawn: body.withdrawn });
}

const ERRORS = {
  400: errorDoc('INVALID_REQUEST'),
  401: errorDoc('UNAUTHENTICATED: the fixed local test token is required'),
  404: errorDoc('NOT_FOUND: unknown appKey'),
};

export const debugInspectionRoutes: PlatformRoute[] = [
  {
    method: 'POST',
    auth: 'route',
    path: SIMULATOR_CLI_SESSIONS_PATH,
    surface: 'session',
    handler: issueCliSession,
    doc: {
      operationId: 'simulatorIssueCliSession',
      summary: 'Simulator only: issue a 1-hour CLI session for {appKey, versionId?, user, testAccountId?}',
      tags: ['simulator'],
      requestBody: { schema: SimulatorCliSessionRequest, required: true },
      responses: { 200: { description: 'CLI session', schema: CliSessionSchema }, ...ERRORS },
    },
  },
  {
    method: 'POST',
    auth: 'route',
    path: SIMULATOR_DEBUG_WITHDRAWALS_PATH,
    surface: 'session',
    handler: setWithdrawal,
    doc: {
      operationId: 'simulatorSetDebugWithdrawal',
      summary: 'Simulator only: a provider withdraws (or reopens) online debugging of its capabilities',
      tags: ['simulator'],
      requestBody: { schema: DebugWithdrawalRequest, required: true },
      responses: { 200: { description: 'Withdrawal state', schema: DebugWithdrawal }, ...ERRORS },
    },
  },
];
