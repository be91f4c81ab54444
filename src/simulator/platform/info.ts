import { FIXTURE_APPS, FIXTURE_USERS, type FixtureUser } from './fixtures.js';
import { DEBUG_PATH } from './debug/paths.js';
import {
  DEVELOPER_PORTAL_PATH,
  DEVELOPER_REVIEW_PATH,
  DEVELOPER_TOKEN,
  developerBaseUrlOf,
} from './developer/developer-fixtures.js';
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
    /** The developer control plane's id of the application. */
    appId: string;
    appKey: string;
    appCredential: string;
    appVersionId: string;
    resourceTypes: string[];
    dependencies: { calleeAppKey: string; apiVersion: string; scopes: string[] }[];
    /** What the application opens to callers (grants to it must match one). */
    capabilities: { apiVersion: string; scopes: string[]; onlineDebug: boolean }[];
    /** Where the simulator serves the application's own business interface (storyboard-helper only). */
    businessBaseUrl?: string;
  }[];
  users: FixtureUser[];
  /** `{developer_base_url}` (section E). */
  developerBaseUrl: string;
  /** The local developer's session (`Authorization: Bearer`), where the spec accepts a browser developer session. */
  developerToken: string;
  /** The local developer portal page (sign-in with the developer token, CLI pairing approval). */
  developerPortalUrl: string;
  /** `POST {requestId, decision}` with the simulator's token: a reviewer's decision on a version request. */
  reviewUrl: string;
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
      appId: app.appId,
      appKey: app.appKey,
      appCredential: app.appCredential,
      appVersionId: app.appVersionId,
      resourceTypes: [...app.resourceTypes],
      dependencies: app.dependencies.map((d) => ({ ...d, scopes: [...d.scopes] })),
      capabilities: app.capabilities.map((c) => ({
        apiVersion: c.apiVersion,
        scopes: [...c.scopes],
        onlineDebug: c.onlineDebug === true,
      })),
      ...(app.businessBasePath ? { businessBaseUrl: origin + app.businessBasePath } : {}),
    })),
    users: [...FIXTURE_USERS],
    developerBaseUrl: developerBaseUrlOf(origin),
    developerToken: DEVELOPER_TOKEN,
    developerPortalUrl: origin + DEVELOPER_PORTAL_PATH,
    reviewUrl: origin + DEVELOPER_REVIEW_PATH,
  };
}
