import { FIXTURE_APPS, FIXTURE_USERS, type FixtureUser } from './fixtures.js';
import { DEBUG_PATH } from './debug/paths.js';
import { PLATFORM_PREFIX, RUNTIME_PATH, SESSION_PATH } from './router.js';

/** Simulator-only route (under /v1, with the public token) that opens an application for a person. */
export const LAUNCH_ROUTE_PATH = '/_simulator/platform/launch';
/** Simulator-only route that changes a person's access to an application. */
export const ACCESS_ROUTE_PATH = '/_simulator/platform/access';

/** The `platform` object of `framewright simulator --json` (names fixed: other tools depend on them). */
export interface PlatformInfo {
  runtimeBaseUrl: string;
  sessionBaseUrl: string;
  launchUrl: string;
  /** `{debug_base_url}`: the online debugging runtime (section B) and the relay; ends with `/v1`. */
  debugBaseUrl: string;
  apps: {
    appKey: string;
    appCredential: string;
    appVersionId: string;
    resourceTypes: string[];
    dependencies: { calleeAppKey: string; apiVersion: string; scopes: string[] }[];
  }[];
  users: FixtureUser[];
}

/** The platform object for a simulator whose public base URL is `baseUrl` (`http://host:port/v1`). */
export function platformInfo(baseUrl: string): PlatformInfo {
  const origin = new URL(baseUrl).origin;
  return {
    runtimeBaseUrl: origin + RUNTIME_PATH,
    sessionBaseUrl: origin + SESSION_PATH,
    launchUrl: baseUrl + LAUNCH_ROUTE_PATH,
    debugBaseUrl: origin + PLATFORM_PREFIX + DEBUG_PATH,
    apps: FIXTURE_APPS.map((app) => ({
      appKey: app.appKey,
      appCredential: app.appCredential,
      appVersionId: app.appVersionId,
      resourceTypes: [...app.resourceTypes],
      dependencies: app.dependencies.map((d) => ({ ...d, scopes: [...d.scopes] })),
    })),
    users: [...FIXTURE_USERS],
  };
}
