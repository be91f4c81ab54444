import type { RequestContext, RouteDef } from '../context.js';
import { ApiError } from '../errors.js';
import { iso } from '../clock.js';
import { parseWith, readJsonObject, sendJson } from '../http.js';
import {
  FIXTURE_APPS,
  FIXTURE_USERS,
  findApp,
  isFixtureUser,
  type FixtureApp,
  type FixtureUser,
} from './fixtures.js';
import { ACCESS_ROUTE_PATH, LAUNCH_ROUTE_PATH } from './info.js';
import { AccessBody, LaunchBody } from './schemas.js';

function appAndUser(appKey: string, user: string): { app: FixtureApp; user: FixtureUser } {
  const app = findApp(appKey);
  if (!app)
    throw new ApiError(400, 'unknown_app', `Unknown appKey "${appKey}".`, {
      details: { field: 'appKey', known: FIXTURE_APPS.map((a) => a.appKey) },
    });
  if (!isFixtureUser(user))
    throw new ApiError(400, 'unknown_user', `Unknown user "${user}".`, {
      details: { field: 'user', known: [...FIXTURE_USERS] },
    });
  return { app, user };
}

/**
 * What the platform's application center does when a person opens an application: a one-time
 * launch code, answered as the spec's launch information `{runtime: {...}}`.
 */
async function launch(rc: RequestContext): Promise<void> {
  const body = parseWith(LaunchBody, await readJsonObject(rc.req));
  const { app, user } = appAndUser(body.appKey, body.user);
  if (rc.state.platform.sessions.accessOf(user, app.appKey) === 'revoked')
    throw new ApiError(403, 'access_revoked', `The ${user} fixture person has no access to ${app.appKey}.`);
  const code = rc.state.platform.sessions.issueLaunchCode(app, user);
  sendJson(rc.res, 200, {
    runtime: {
      launchCode: code.launchCode,
      appKey: code.appKey,
      appVersionId: code.appVersionId,
      expiresAt: iso(code.expiresAtMs),
    },
  });
}

/** An administrator's change of a person's access (revoked: sessions stop resolving; renewal_blocked). */
async function setAccess(rc: RequestContext): Promise<void> {
  const body = parseWith(AccessBody, await readJsonObject(rc.req));
  const { app, user } = appAndUser(body.appKey, body.user);
  rc.state.platform.sessions.setAccess(user, app.appKey, body.access);
  sendJson(rc.res, 200, { appKey: app.appKey, user, access: body.access });
}

export const platformAdminRoutes: RouteDef[] = [
  { method: 'POST', path: LAUNCH_ROUTE_PATH, routeClass: 'admin', handler: launch },
  { method: 'POST', path: ACCESS_ROUTE_PATH, routeClass: 'admin', handler: setAccess },
];
