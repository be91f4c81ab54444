import { newId, sendJson } from '../../http.js';
import { PlatformError } from '../errors.js';
import { ORGANIZATION_MANAGER_ROLE } from '../fixtures.js';
import type { PlatformContext, PlatformRoute } from '../router.js';
import { errorDoc } from '../schemas.js';
import {
  DEVELOPER_PATH,
  developerCaller,
  ownedTarget,
  ownsApp,
  pageOf,
  paging,
  readDeveloperBody,
  requireDeveloperSession,
} from './developer-auth.js';
import { DEVELOPER_PUBLISHERS } from './developer-fixtures.js';
import {
  ApplicationList,
  ApplicationSchema,
  CreateAppRequest,
  PageQuery,
  PublisherList,
  PutRolesRequest,
  RoleArray,
  TestAccountList,
} from './developer-schemas.js';
import type { DevApp, RoleDefinition } from './developer-store.js';

/** The application projection: no internal deployment details (chart, namespace, secrets, addresses). */
export function appProjection(app: DevApp) {
  return {
    appId: app.appId,
    appKey: app.appKey,
    name: app.name,
    description: app.description,
    publisherId: app.publisherId,
    status: app.status,
    activeVersionId: app.activeVersionId,
    createdAt: app.createdAt,
    updatedAt: app.updatedAt,
  };
}

async function listPublishers(pc: PlatformContext): Promise<void> {
  developerCaller(pc);
  sendJson(pc.res, 200, pageOf([...DEVELOPER_PUBLISHERS], paging(pc)));
}

async function listApps(pc: PlatformContext): Promise<void> {
  developerCaller(pc);
  const p = paging(pc);
  const apps = [...pc.state.platform.developer.apps.values()]
    .filter(ownsApp)
    .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.appId.localeCompare(b.appId));
  sendJson(pc.res, 200, pageOf(apps.map(appProjection), p));
}

async function createApp(pc: PlatformContext): Promise<void> {
  requireDeveloperSession(pc, 'create applications');
  const body = await readDeveloperBody(pc, CreateAppRequest);
  const store = pc.state.platform.developer;
  if (!DEVELOPER_PUBLISHERS.some((p) => p.publisherId === body.publisherId))
    throw new PlatformError(
      404,
      'PUBLISHER_NOT_FOUND',
      'No publisher with this id is available to the caller.',
    );
  const appId = body.app.id ?? newId('app');
  const taken = [...store.apps.values()].find((a) => a.appKey === body.app.appKey || a.appId === appId);
  if (taken)
    throw new PlatformError(409, 'APP_KEY_TAKEN', 'An application with this appKey or id already exists.');
  const now = store.now();
  const app: DevApp = {
    appId,
    appKey: body.app.appKey,
    name: body.app.name,
    description: body.app.description ?? '',
    publisherId: body.publisherId,
    status: 'active',
    activeVersionId: null,
    createdAt: now,
    updatedAt: now,
  };
  store.saveApp(app);
  store.saveRoles(app.appId, []);
  sendJson(pc.res, 200, appProjection(app));
}

async function getApp(pc: PlatformContext): Promise<void> {
  const { app } = ownedTarget(pc);
  sendJson(pc.res, 200, appProjection(app));
}

async function getRoles(pc: PlatformContext): Promise<void> {
  const { app } = ownedTarget(pc);
  sendJson(pc.res, 200, pc.state.platform.developer.roles.get(app.appId) ?? []);
}

/** Role codes the platform keeps for itself: an application role never grants a platform role. */
const isReservedRole = (code: string) =>
  code === ORGANIZATION_MANAGER_ROLE || /^(platform|system|super)_/.test(code) || code === 'admin';

/**
 * `PUT /roles`: the complete array. An existing `roleCode` is never removed or renamed (retire it
 * with `status: "retired"`); a changed definition needs a higher `definitionVersion`.
 */
async function putRoles(pc: PlatformContext): Promise<void> {
  const { app } = ownedTarget(pc, { developerOnly: 'change role definitions' });
  const next = await readDeveloperBody(pc, PutRolesRequest, { arrayAllowed: true });
  const store = pc.state.platform.developer;
  const current = store.roles.get(app.appId) ?? [];
  const codes = new Set<string>();
  for (const role of next) {
    if (codes.has(role.roleCode))
      throw new PlatformError(400, 'INVALID_REQUEST', `roleCode ${role.roleCode} appears twice.`);
    codes.add(role.roleCode);
    if (isReservedRole(role.roleCode))
      throw new PlatformError(
        400,
        'ROLE_CODE_RESERVED',
        `${role.roleCode} is a platform role code: application roles never grant platform roles.`,
      );
  }
  for (const old of current)
    if (!codes.has(old.roleCode))
      throw new PlatformError(
        400,
        'ROLE_CODE_IMMUTABLE',
        `roleCode ${old.roleCode} cannot be removed or renamed; retire it with status "retired".`,
        { details: { roleCode: old.roleCode } },
      );
  const result: RoleDefinition[] = next.map((role) => {
    const old = current.find((r) => r.roleCode === role.roleCode);
    if (!old) return { ...role };
    const same =
      old.displayName === role.displayName &&
      old.description === role.description &&
      old.status === role.status &&
      old.definitionVersion === role.definitionVersion;
    if (same) return old;
    if (role.definitionVersion <= old.definitionVersion)
      throw new PlatformError(
        409,
        'ROLE_DEFINITION_VERSION_NOT_INCREASED',
        `definitionVersion of ${role.roleCode} must increase (current ${old.definitionVersion}).`,
        { details: { roleCode: role.roleCode, currentDefinitionVersion: old.definitionVersion } },
      );
    return { ...role };
  });
  store.saveRoles(app.appId, result);
  sendJson(pc.res, 200, result);
}

async function listTestAccounts(pc: PlatformContext): Promise<void> {
  const { app } = ownedTarget(pc);
  const items = pc.state.platform.developer.testAccounts
    .filter((t) => t.appId === app.appId)
    .map(({ subject: _subject, ...record }) => record);
  sendJson(pc.res, 200, { items });
}

/** Errors every developer route may answer. */
export const DEVELOPER_COMMON = {
  400: errorDoc('INVALID_REQUEST: invalid JSON, unknown field or wrong type'),
  401: errorDoc('DEVELOPER_UNAUTHENTICATED: no developer session'),
  403: errorDoc(
    'CLI_TOKEN_NOT_PERMITTED: a CLI token permits runtime, jobs, temporary assets and app-to-app calls only',
  ),
  404: errorDoc('APP_NOT_FOUND / VERSION_NOT_FOUND: nonexistent or not owned (deliberately merged)'),
  429: errorDoc('Rate limited (Retry-After)'),
  503: errorDoc('DEVELOPER_SERVICE_UNAVAILABLE (Retry-After)'),
  504: errorDoc('Gateway timeout'),
};

const D = DEVELOPER_PATH;
const route = (
  method: PlatformRoute['method'],
  path: string,
  handler: PlatformRoute['handler'],
  doc: PlatformRoute['doc'],
): PlatformRoute => ({ method, path: D + path, surface: 'developer', auth: 'route', handler, doc });
export { route as developerRoute };

export const developerAppRoutes: PlatformRoute[] = [
  route('GET', '/publishers', listPublishers, {
    operationId: 'listDeveloperPublishers',
    summary: "The caller's publishers",
    tags: ['developer'],
    query: PageQuery,
    responses: { 200: { description: 'Publishers', schema: PublisherList }, ...DEVELOPER_COMMON },
  }),
  route('GET', '/apps', listApps, {
    operationId: 'listDeveloperApps',
    summary: "The caller's applications",
    tags: ['developer'],
    query: PageQuery,
    responses: { 200: { description: 'Applications', schema: ApplicationList }, ...DEVELOPER_COMMON },
  }),
  route('POST', '/apps', createApp, {
    operationId: 'createDeveloperApp',
    summary: 'Create an application from {publisherId, app}',
    tags: ['developer'],
    requestBody: { schema: CreateAppRequest, required: true },
    responses: {
      200: { description: 'Application projection', schema: ApplicationSchema },
      409: errorDoc('APP_KEY_TAKEN'),
      ...DEVELOPER_COMMON,
      404: errorDoc('PUBLISHER_NOT_FOUND'),
    },
  }),
  route('GET', '/apps/{appId}', getApp, {
    operationId: 'getDeveloperApp',
    summary: 'One owned application',
    tags: ['developer'],
    responses: {
      200: { description: 'Application projection', schema: ApplicationSchema },
      ...DEVELOPER_COMMON,
    },
  }),
  route('GET', '/apps/{appId}/roles', getRoles, {
    operationId: 'getDeveloperAppRoles',
    summary: "The application's role definitions",
    tags: ['developer'],
    responses: { 200: { description: 'Role array', schema: RoleArray }, ...DEVELOPER_COMMON },
  }),
  route('PUT', '/apps/{appId}/roles', putRoles, {
    operationId: 'putDeveloperAppRoles',
    summary: 'Replace the complete role array (roleCode immutable, definitionVersion increasing)',
    tags: ['developer'],
    requestBody: { schema: PutRolesRequest, required: true },
    responses: {
      200: { description: 'Latest definitions', schema: RoleArray },
      409: errorDoc('ROLE_DEFINITION_VERSION_NOT_INCREASED'),
      ...DEVELOPER_COMMON,
      400: errorDoc('INVALID_REQUEST, ROLE_CODE_IMMUTABLE or ROLE_CODE_RESERVED'),
    },
  }),
  route('GET', '/apps/{appId}/test-accounts', listTestAccounts, {
    operationId: 'listDeveloperTestAccounts',
    summary: "The application's test accounts (maintained by a super administrator)",
    tags: ['developer'],
    responses: { 200: { description: 'Test accounts', schema: TestAccountList }, ...DEVELOPER_COMMON },
  }),
];
