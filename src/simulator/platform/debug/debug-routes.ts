import type { z } from 'zod';
import { iso } from '../../clock.js';
import { ApiError } from '../../errors.js';
import { bodyHash } from '../../idempotency.js';
import { sendJson } from '../../http.js';
import { readSessionBody } from '../body.js';
import type { CliSessionRecord } from '../developer/cli-session-store.js';
import { listGroups, listMembers } from '../directory.js';
import { PlatformError, sessionNotFound } from '../errors.js';
import { appRolesOf, findApp, isOrganizationManager, ORGANIZATION_ID, type FixtureApp } from '../fixtures.js';
import type { PlatformContext, PlatformRoute } from '../router.js';
import {
  DirectoryGroupList,
  DirectoryMemberPage,
  EmptyBody,
  errorDoc,
  ExchangeBody,
  GrantLaunch,
  GrantUseRequest,
  MembersListBody,
  RuntimeSessionSchema,
} from '../schemas.js';
import type { RuntimeSession } from '../session-store.js';
import { debugBinding, declaresDependency, identityOf, openedForDebug, sameIdentity } from './debug-auth.js';
import {
  DebugAppGrantRequest,
  DebugIssuedGrant,
  DebugPeerGrantRequest,
  DebugReceiver,
  DebugReceiverRequest,
  DebugReceiverRevoked,
  DebugResolvedGrant,
} from './debug-schemas.js';
import {
  DEBUG_GRANT_LIFETIME_SECONDS,
  DEBUG_LAUNCH_CODE_LIFETIME_SECONDS,
  DEBUG_RECEIVER_LIFETIME_SECONDS,
  DEBUG_SESSION_LIFETIME_SECONDS,
  type DebugGrantRecord,
  type DebugReceiverRecord,
  type DebugSourceChannel,
} from './debug-store.js';
import { DEBUG_BINDING_PATH } from './paths.js';
import { usablePeerGrantFor } from './peer-resolve.js';
import { resolvedGrantView } from '../grant-store.js';

/** Reads a JSON body; a malformed one (invalid JSON, unknown field, wrong type) is 400 with `code`. */
async function readDebugBody<T extends z.ZodType>(
  pc: PlatformContext,
  schema: T,
  code = 'INVALID_REQUEST',
): Promise<z.infer<T>> {
  try {
    return await readSessionBody(pc.req, schema);
  } catch (error) {
    if (error instanceof ApiError && error.status === 400 && code !== error.code)
      throw new PlatformError(400, code, error.message, { details: error.details });
    throw error;
  }
}

const peerNotFound = () =>
  new PlatformError(
    404,
    'DEBUG_PEER_NOT_FOUND',
    'No usable debug peer for this target, version, subject and capability (or it expired or was revoked).',
  );

const grantRejected = (message: string, status = 409) =>
  new PlatformError(status, 'DEVELOPER_APP_GRANT_REJECTED', message);

// --- runtime sessions derived from the pairing (and from debug launch codes)

/** The RuntimeSession of a CLI pairing: the pairing's identity for its application and candidate version. */
function pairingSession(cli: CliSessionRecord, app: FixtureApp): RuntimeSession {
  return {
    sessionId: cli.runtimeSessionId,
    appKey: cli.appKey,
    appVersionId: cli.appVersionId,
    subject: { ...cli.subject },
    appRoles: appRolesOf(app, cli.subject.userId),
    expiresAt: iso(cli.expiresAtMs),
  };
}

/**
 * The session `{sessionId}` names under this binding: the pairing's own derived session, or one
 * exchanged from a debug launch code for this application and version while its receiver is live
 * and its provider has not withdrawn online debugging; otherwise the uniform 404.
 */
function bindingSession(pc: PlatformContext, cli: CliSessionRecord, app: FixtureApp): RuntimeSession {
  const sessionId = pc.params.sessionId ?? '';
  if (sessionId === cli.runtimeSessionId) return pairingSession(cli, app);
  const debug = pc.state.platform.debug;
  const s = debug.session(sessionId);
  if (
    !s ||
    s.appKey !== cli.appKey ||
    s.appVersionId !== cli.appVersionId ||
    s.expiresAtMs <= debug.now() ||
    !debug.liveReceiver(s.receiverRef) ||
    debug.isWithdrawn(s.appKey)
  )
    throw sessionNotFound();
  return {
    sessionId,
    appKey: s.appKey,
    appVersionId: s.appVersionId,
    subject: { ...s.subject },
    appRoles: [...s.appRoles],
    expiresAt: iso(s.expiresAtMs),
  };
}

async function resolveSession(pc: PlatformContext): Promise<void> {
  const { cli, app } = debugBinding(pc);
  sendJson(pc.res, 200, bindingSession(pc, cli, app));
}

function managerSession(pc: PlatformContext, cli: CliSessionRecord, app: FixtureApp): void {
  const session = bindingSession(pc, cli, app);
  if (!isOrganizationManager(session.subject) || session.subject.organizationId !== ORGANIZATION_ID)
    throw new PlatformError(
      403,
      'ORGANIZATION_MANAGER_REQUIRED',
      'Only an organization manager session can read the organization directory.',
    );
}

async function groups(pc: PlatformContext): Promise<void> {
  const { cli, app } = debugBinding(pc);
  await readSessionBody(pc.req, EmptyBody);
  managerSession(pc, cli, app);
  sendJson(pc.res, 200, { appKey: app.appKey, organizationId: ORGANIZATION_ID, items: listGroups() });
}

async function members(pc: PlatformContext): Promise<void> {
  const { cli, app } = debugBinding(pc);
  const body = await readSessionBody(pc.req, MembersListBody);
  managerSession(pc, cli, app);
  sendJson(pc.res, 200, { appKey: app.appKey, organizationId: ORGANIZATION_ID, ...listMembers(app, body) });
}

// --- grants (shared by the relay-mode debug grant and the peer grant)

interface GrantIssue {
  channel: DebugSourceChannel;
  cli: CliSessionRecord;
  app: FixtureApp;
  callee: FixtureApp;
  calleeAppVersionId: string;
  apiVersion: string;
  scope: string;
  idempotencyKey: string;
  requestDigest: string;
  requestHash: string;
  receiver?: DebugReceiverRecord;
  expiresAtMs: number;
  conflict: () => PlatformError;
}

/**
 * As production grants: the same key and the same request reuse the same fact, and the one-time
 * plaintext appears once — a replay answers the fact (`apiVersion`, `sourceChannel`, `expiresAt`)
 * without `grant`, before and after its expiry and across a restart; a caller that lost the first
 * answer issues again under a new key. Same key and another request: `conflict`.
 */
function issueGrant(pc: PlatformContext, g: GrantIssue): void {
  const debug = pc.state.platform.debug;
  const existing = debug.grantByKey(g.channel, g.cli.appKey, g.cli.appVersionId, g.idempotencyKey);
  const answer = (record: DebugGrantRecord, plaintext: string | undefined) =>
    sendJson(pc.res, 200, {
      ...(plaintext !== undefined ? { grant: plaintext } : {}),
      apiVersion: record.apiVersion,
      sourceChannel: record.sourceChannel,
      expiresAt: iso(record.expiresAtMs),
    });
  if (existing) {
    if (existing.record.requestHash !== g.requestHash) throw g.conflict();
    return answer(existing.record, undefined);
  }
  const issued = debug.addGrant({
    sourceChannel: g.channel,
    callerAppKey: g.cli.appKey,
    callerAppVersionId: g.cli.appVersionId,
    calleeAppKey: g.callee.appKey,
    calleeAppVersionId: g.calleeAppVersionId,
    apiVersion: g.apiVersion,
    ...identityOf(g.cli),
    callerAppRoles: appRolesOf(g.app, g.cli.subject.userId),
    scope: g.scope,
    idempotencyKey: g.idempotencyKey,
    requestDigest: g.requestDigest,
    requestHash: g.requestHash,
    ...(g.receiver ? { receiverRef: g.receiver.receiverRef } : {}),
    expiresAtMs: g.expiresAtMs,
  });
  answer(issued.record, issued.plaintext);
}

/** `POST .../app-grants`: a relay-mode debug grant (`developer_debug`) to the callee's active production version. */
async function issueAppGrant(pc: PlatformContext): Promise<void> {
  const { cli, app } = debugBinding(pc);
  const body = await readDebugBody(pc, DebugAppGrantRequest, 'APP_GRANT_PRECONDITION_NOT_FOUND');
  const callee = findApp(body.calleeAppKey);
  if (!callee || callee.appKey === app.appKey)
    throw grantRejected('calleeAppKey names no application this version can call.', 404);
  if (!declaresDependency(cli, callee.appKey, body.apiVersion, body.scope))
    throw grantRejected(
      'The candidate version does not declare this dependency (callee, apiVersion, scope).',
    );
  if (!openedForDebug(pc.state, callee.appKey, body.apiVersion, [body.scope]))
    throw grantRejected(
      "The callee's active production version does not open this apiVersion and scope to online debugging.",
    );
  const now = pc.state.clock.nowMs();
  issueGrant(pc, {
    channel: 'developer_debug',
    cli,
    app,
    callee,
    calleeAppVersionId: pc.state.platform.sessions.activeVersionOf(callee),
    apiVersion: body.apiVersion,
    scope: body.scope,
    idempotencyKey: body.idempotencyKey,
    requestDigest: body.requestDigest,
    requestHash: bodyHash(body),
    expiresAtMs: Math.min(now + DEBUG_GRANT_LIFETIME_SECONDS * 1000, cli.expiresAtMs),
    conflict: () =>
      new PlatformError(
        409,
        'APP_GRANT_IDEMPOTENCY_CONFLICT',
        'This idempotency key was used for another debug grant request.',
      ),
  });
}

/** `POST .../debug-receivers`: the provider (callee) opens its local debugging to one caller application. */
async function createReceiver(pc: PlatformContext): Promise<void> {
  const { cli, app } = debugBinding(pc);
  const body = await readDebugBody(pc, DebugReceiverRequest);
  const caller = findApp(body.callerAppKey);
  if (!caller || caller.appKey === app.appKey) throw peerNotFound();
  const scopes = [...new Set(body.scopes)];
  if (!openedForDebug(pc.state, app.appKey, body.apiVersion, scopes))
    throw new PlatformError(
      403,
      'APP_CAPABILITY_NOT_DECLARED',
      "This application's active production version does not open every one of these scopes of apiVersion to online debugging.",
    );
  const now = pc.state.clock.nowMs();
  const receiver = pc.state.platform.debug.addReceiver({
    appKey: app.appKey,
    appVersionId: cli.appVersionId,
    ...identityOf(cli),
    callerAppKey: caller.appKey,
    apiVersion: body.apiVersion,
    scopes,
    expiresAtMs: Math.min(now + DEBUG_RECEIVER_LIFETIME_SECONDS * 1000, cli.expiresAtMs),
  });
  sendJson(pc.res, 200, {
    receiverRef: receiver.receiverRef,
    callerAppKey: receiver.callerAppKey,
    apiVersion: receiver.apiVersion,
    scopes: receiver.scopes,
    expiresAt: iso(receiver.expiresAtMs),
  });
}

/** `DELETE .../debug-receivers/{receiverRef}`: its peer grants, launch codes and derived sessions stop resolving. */
async function revokeReceiver(pc: PlatformContext): Promise<void> {
  const { cli } = debugBinding(pc);
  const debug = pc.state.platform.debug;
  const receiver = debug.receiver(pc.params.receiverRef ?? '');
  if (!receiver || receiver.appKey !== cli.appKey || receiver.appVersionId !== cli.appVersionId)
    throw peerNotFound();
  debug.revokeReceiver(receiver.receiverRef);
  sendJson(pc.res, 200, { revoked: true });
}

/** `POST .../debug-peer-grants`: the caller's grant for a provider's receiver (`developer_local`). */
async function issuePeerGrant(pc: PlatformContext): Promise<void> {
  const { cli, app } = debugBinding(pc);
  const body = await readDebugBody(pc, DebugPeerGrantRequest);
  const receiver = pc.state.platform.debug.liveReceiver(body.receiverRef);
  const callee = findApp(body.calleeAppKey);
  if (
    !receiver ||
    !callee ||
    receiver.appKey !== callee.appKey ||
    receiver.callerAppKey !== app.appKey ||
    receiver.apiVersion !== body.apiVersion ||
    !receiver.scopes.includes(body.scope) ||
    !sameIdentity(receiver, identityOf(cli)) ||
    !declaresDependency(cli, callee.appKey, body.apiVersion, body.scope) ||
    !openedForDebug(pc.state, callee.appKey, body.apiVersion, [body.scope])
  )
    throw peerNotFound();
  const now = pc.state.clock.nowMs();
  issueGrant(pc, {
    channel: 'developer_local',
    cli,
    app,
    callee,
    calleeAppVersionId: receiver.appVersionId,
    apiVersion: body.apiVersion,
    scope: body.scope,
    idempotencyKey: body.idempotencyKey,
    requestDigest: body.requestDigest,
    requestHash: bodyHash(body),
    receiver,
    expiresAtMs: Math.min(now + DEBUG_GRANT_LIFETIME_SECONDS * 1000, receiver.expiresAtMs),
    conflict: () =>
      new PlatformError(
        409,
        'DEBUG_PEER_IDEMPOTENCY_CONFLICT',
        'This idempotency key was used with another digest or request.',
      ),
  });
}

/** The peer grant for this provider binding, scope and digest, while its receiver is live; else one 404. */
async function usablePeerGrant(
  pc: PlatformContext,
): Promise<{ grant: DebugGrantRecord; cli: CliSessionRecord }> {
  const { cli } = debugBinding(pc);
  const body = await readDebugBody(pc, GrantUseRequest);
  const g = usablePeerGrantFor(
    pc.state,
    { appKey: cli.appKey, appVersionId: cli.appVersionId, ...identityOf(cli) },
    body,
  );
  if (!g) throw peerNotFound();
  return { grant: g, cli };
}

/** `:resolve` does not consume; the plaintext is never returned. */
async function resolvePeerGrant(pc: PlatformContext): Promise<void> {
  const { grant: g } = await usablePeerGrant(pc);
  sendJson(pc.res, 200, { ...resolvedGrantView(g), sourceChannel: g.sourceChannel });
}

/** `:launch`: a one-minute, single-use debug launch code of the provider for the same person. */
async function launchPeerGrant(pc: PlatformContext): Promise<void> {
  const { grant: g } = await usablePeerGrant(pc);
  const callee = findApp(g.calleeAppKey)!;
  const debug = pc.state.platform.debug;
  const { record, launchCode } = debug.addLaunchCode({
    grantId: g.grantId,
    appKey: g.calleeAppKey,
    appVersionId: g.calleeAppVersionId,
    subject: { ...g.subject },
    appRoles: appRolesOf(callee, g.subject.userId),
    receiverRef: g.receiverRef!,
    expiresAtMs: debug.now() + DEBUG_LAUNCH_CODE_LIFETIME_SECONDS * 1000,
  });
  sendJson(pc.res, 200, { launchCode, expiresAt: iso(record.expiresAtMs) });
}

/** `POST .../debug-runtime-sessions:exchange`: consumes the code once; the provider's own RuntimeSession. */
async function exchange(pc: PlatformContext): Promise<void> {
  const { cli } = debugBinding(pc);
  const body = await readDebugBody(pc, ExchangeBody);
  const debug = pc.state.platform.debug;
  const code = debug.launchCode(body.launchCode);
  const now = debug.now();
  if (
    !code ||
    code.consumed ||
    code.expiresAtMs <= now ||
    code.appKey !== cli.appKey ||
    code.appVersionId !== cli.appVersionId ||
    !debug.liveReceiver(code.receiverRef) ||
    debug.isWithdrawn(code.appKey)
  )
    throw peerNotFound();
  let created;
  try {
    created = debug.consume(code, now + DEBUG_SESSION_LIFETIME_SECONDS * 1000);
  } catch {
    throw new PlatformError(
      503,
      'DEBUG_PEER_UNAVAILABLE',
      'The debug session could not be stored; the launch code was not consumed. Retry.',
      { retryable: true, headers: { 'Retry-After': '1' } },
    );
  }
  const { session, sessionId } = created;
  sendJson(pc.res, 200, {
    sessionId,
    appKey: session.appKey,
    appVersionId: session.appVersionId,
    subject: session.subject,
    appRoles: session.appRoles,
    expiresAt: iso(session.expiresAtMs),
  });
}

// --- route table

const COMMON = {
  401: errorDoc('UNAUTHENTICATED: no live CLI session Bearer (application credentials are refused)'),
  404: errorDoc('NOT_FOUND: appId or versionId not bound to this CLI session (uniform)'),
  429: errorDoc('Rate limited (Retry-After)'),
  504: errorDoc('Gateway timeout'),
};
const PEER_COMMON = {
  ...COMMON,
  400: errorDoc('INVALID_REQUEST: invalid JSON, unknown field, wrong type or size'),
  503: errorDoc('DEBUG_PEER_UNAVAILABLE (Retry-After)'),
};

const route = (
  method: PlatformRoute['method'],
  suffix: string,
  surface: PlatformRoute['surface'],
  handler: PlatformRoute['handler'],
  doc: PlatformRoute['doc'],
): PlatformRoute => ({
  method,
  auth: 'route',
  path: DEBUG_BINDING_PATH + suffix,
  surface,
  handler,
  doc: { ...doc, tags: ['debug'] },
});

export const debugRoutes: PlatformRoute[] = [
  route('GET', '/runtime-sessions/{sessionId}:resolve', 'session', resolveSession, {
    operationId: 'resolveDebugRuntimeSession',
    summary:
      'Resolve the RuntimeSession derived from this CLI pairing (or exchanged from a debug launch code)',
    tags: [],
    responses: {
      200: { description: 'RuntimeSession', schema: RuntimeSessionSchema },
      ...COMMON,
      404: errorDoc('RUNTIME_SESSION_NOT_FOUND, or NOT_FOUND for another binding (uniform)'),
      503: errorDoc('Dependency unavailable (Retry-After)'),
    },
  }),
  route('POST', '/runtime-sessions/{sessionId}/organization-directory/groups:list', 'directory', groups, {
    operationId: 'listDebugOrganizationGroups',
    summary: "The organization's group tree, as production (manager sessions only)",
    tags: [],
    requestBody: { schema: EmptyBody, required: true },
    responses: {
      200: { description: 'Groups', schema: DirectoryGroupList },
      ...COMMON,
      400: errorDoc('INVALID_REQUEST'),
      403: errorDoc('ORGANIZATION_MANAGER_REQUIRED'),
      404: errorDoc('RUNTIME_SESSION_NOT_FOUND, or NOT_FOUND for another binding'),
      503: errorDoc('ORGANIZATION_DIRECTORY_UNAVAILABLE (Retry-After)'),
    },
  }),
  route('POST', '/runtime-sessions/{sessionId}/organization-directory/members:list', 'directory', members, {
    operationId: 'listDebugOrganizationMembers',
    summary: "A page of the organization's members, as production (manager sessions only)",
    tags: [],
    requestBody: { schema: MembersListBody, required: true },
    responses: {
      200: { description: 'Member page', schema: DirectoryMemberPage },
      ...COMMON,
      400: errorDoc('INVALID_REQUEST'),
      403: errorDoc('ORGANIZATION_MANAGER_REQUIRED'),
      404: errorDoc('RUNTIME_SESSION_NOT_FOUND, unknown groupId, or NOT_FOUND for another binding'),
      503: errorDoc('ORGANIZATION_DIRECTORY_UNAVAILABLE (Retry-After)'),
    },
  }),
  route('POST', '/app-grants', 'grant', issueAppGrant, {
    operationId: 'issueDebugAppGrant',
    summary: "A relay-mode debug grant (developer_debug, <= 2 minutes) to the callee's production version",
    tags: [],
    requestBody: { schema: DebugAppGrantRequest, required: true },
    responses: {
      200: {
        description:
          'Issued debug grant (the plaintext appears in the first answer only; a replay answers the fact without it)',
        schema: DebugIssuedGrant,
      },
      ...COMMON,
      400: errorDoc('APP_GRANT_PRECONDITION_NOT_FOUND: malformed request'),
      404: errorDoc('NOT_FOUND (binding) or DEVELOPER_APP_GRANT_REJECTED (unknown callee)'),
      409: errorDoc(
        'DEVELOPER_APP_GRANT_REJECTED (dependency or debug capability missing), APP_GRANT_IDEMPOTENCY_CONFLICT',
      ),
      503: errorDoc('APP_GRANT_SERVICE_UNAVAILABLE (Retry-After)'),
    },
  }),
  route('POST', '/debug-receivers', 'debug_peer', createReceiver, {
    operationId: 'createDebugReceiver',
    summary: 'Open local debugging of this provider to one caller application (<= 1 hour)',
    tags: [],
    requestBody: { schema: DebugReceiverRequest, required: true },
    responses: {
      200: {
        description: 'Debug receiver (receiverRef is a pairing number, not a credential)',
        schema: DebugReceiver,
      },
      ...PEER_COMMON,
      403: errorDoc('APP_CAPABILITY_NOT_DECLARED: scopes not opened to online debugging'),
      404: errorDoc('NOT_FOUND (binding) or DEBUG_PEER_NOT_FOUND (unknown caller)'),
    },
  }),
  route('DELETE', '/debug-receivers/{receiverRef}', 'debug_peer', revokeReceiver, {
    operationId: 'revokeDebugReceiver',
    summary: 'Revoke a receiver: its peer grants and derived sessions stop resolving',
    tags: [],
    responses: {
      200: { description: 'Revoked', schema: DebugReceiverRevoked },
      ...PEER_COMMON,
      404: errorDoc('NOT_FOUND (binding) or DEBUG_PEER_NOT_FOUND'),
    },
  }),
  route('POST', '/debug-peer-grants', 'debug_peer', issuePeerGrant, {
    operationId: 'issueDebugPeerGrant',
    summary: "A peer grant (developer_local, <= 2 minutes) for a provider's receiver",
    tags: [],
    requestBody: { schema: DebugPeerGrantRequest, required: true },
    responses: {
      200: {
        description:
          'Issued peer grant (the plaintext appears in the first answer only; a replay answers the fact without it)',
        schema: DebugIssuedGrant,
      },
      ...PEER_COMMON,
      404: errorDoc('NOT_FOUND (binding) or DEBUG_PEER_NOT_FOUND'),
      409: errorDoc('DEBUG_PEER_IDEMPOTENCY_CONFLICT'),
    },
  }),
  route('POST', '/debug-peer-grants:resolve', 'debug_peer', resolvePeerGrant, {
    operationId: 'resolveDebugPeerGrant',
    summary: 'Resolve a peer grant as its provider (not consumed; no plaintext)',
    tags: [],
    requestBody: { schema: GrantUseRequest, required: true },
    responses: {
      200: { description: 'Resolved grant', schema: DebugResolvedGrant },
      ...PEER_COMMON,
      404: errorDoc('NOT_FOUND (binding) or DEBUG_PEER_NOT_FOUND'),
    },
  }),
  route('POST', '/debug-peer-grants:launch', 'debug_peer', launchPeerGrant, {
    operationId: 'launchDebugPeerGrant',
    summary: 'A one-minute, single-use debug launch code of the provider',
    tags: [],
    requestBody: { schema: GrantUseRequest, required: true },
    responses: {
      200: { description: 'Launch code', schema: GrantLaunch },
      ...PEER_COMMON,
      404: errorDoc('NOT_FOUND (binding) or DEBUG_PEER_NOT_FOUND'),
    },
  }),
  route('POST', '/debug-runtime-sessions:exchange', 'debug_peer', exchange, {
    operationId: 'exchangeDebugRuntimeSession',
    summary: "Exchange a debug launch code (once) for the provider application's RuntimeSession",
    tags: [],
    requestBody: { schema: ExchangeBody, required: true },
    responses: {
      200: { description: 'RuntimeSession', schema: RuntimeSessionSchema },
      ...PEER_COMMON,
      404: errorDoc('NOT_FOUND (binding) or DEBUG_PEER_NOT_FOUND (unknown, used, expired, revoked)'),
      503: errorDoc('DEBUG_PEER_UNAVAILABLE: storage failed, the code was not consumed (Retry-After)'),
    },
  }),
];
