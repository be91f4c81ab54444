import type { IncomingMessage, ServerResponse } from 'node:http';
import type { z } from 'zod';
import type { SimulatorState } from '../context.js';
import { ApiError } from '../errors.js';
import { sendJson, sleep } from '../http.js';
import { parseScenario, SCENARIO_HEADER, type ScenarioName } from '../scenarios.js';
import { PlatformError, sendPlatformError } from './errors.js';
import { appByCredential, type FixtureApp } from './fixtures.js';
import { GATEWAY_TIMEOUT_DELAY_SECONDS, platformScenarioError, type PlatformSurface } from './scenarios.js';

/** Every platform surface is under this path of the simulator's port. */
export const PLATFORM_PREFIX = '/platform';
/** `{runtime_base_url}` relative to the origin (already contains its platform prefix). */
export const RUNTIME_PATH = `${PLATFORM_PREFIX}/runtime`;
/** `{session_base_url}` relative to the origin. */
export const SESSION_PATH = `${PLATFORM_PREFIX}/session`;
/** The platform OpenAPI document (linked from `/v1/openapi.json`). */
export const PLATFORM_OPENAPI_PATH = `${PLATFORM_PREFIX}/openapi.json`;

export interface PlatformContext {
  req: IncomingMessage;
  res: ServerResponse;
  state: SimulatorState;
  requestId: string;
  params: Record<string, string>;
  query: URLSearchParams;
  scenario: ScenarioName | null;
  /**
   * The application whose credential authenticated the call (every `auth: 'application'` route).
   * A route with `auth: 'route'` authenticates its caller itself and must not read this.
   */
  app: FixtureApp;
  /** The `Authorization: Bearer` token as sent, if any. */
  bearer: string | undefined;
}

export interface PlatformRouteDoc {
  operationId: string;
  summary: string;
  tags: string[];
  headers?: { name: string; required: boolean; description: string }[];
  query?: z.ZodObject;
  requestBody?: { schema: z.ZodType; required: boolean };
  responses: Record<
    number,
    { description: string; schema?: z.ZodType; contentType?: string; headers?: string[] }
  >;
}

/** The methods a platform route may serve (`ALL`: any method, e.g. a relay). */
export type PlatformMethod = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'ALL';

/**
 * How a route's caller is authenticated before its handler runs:
 * - `application` (the default): the platform-managed application credential (`Authorization: Bearer`),
 *   matching `appParam` where the route names one; the handler gets `pc.app`.
 * - `route`: the handler authenticates the caller itself (a developer session, a CLI session, a
 *   signed upload URL, …) from `pc.bearer` and the request; `pc.app` is absent.
 */
export type PlatformAuth = 'application' | 'route';

export interface PlatformRoute {
  method: PlatformMethod;
  auth?: PlatformAuth;
  /** Path relative to PLATFORM_PREFIX, e.g. `/session/apps/{appKey}/runtime-sessions:exchange`. */
  path: string;
  surface: PlatformSurface;
  /** The path parameter naming the application the credential must match (session service). */
  appParam?: string;
  /** The path's last parameter takes the rest of the path, slashes included (the relay's `{businessPath}`). */
  greedyTail?: boolean;
  /** `pc.app` is set for `auth: 'application'` routes (the default) and absent for `auth: 'route'`. */
  handler: (pc: PlatformContext) => Promise<void>;
  doc: PlatformRouteDoc;
}

interface CompiledRoute {
  route: PlatformRoute;
  pattern: RegExp;
  paramNames: string[];
}

/** `{name}` anywhere in a segment (paths such as `/runtime-sessions/{sessionId}:resolve`). */
function compile(route: PlatformRoute): CompiledRoute {
  const paramNames: string[] = [];
  const source = route.path.replace(/\{(\w+)\}|[.*+?^${}()|[\]\\]/g, (match, name?: string) => {
    if (!name) return '\\' + match;
    paramNames.push(name);
    return '([^/]+?)';
  });
  const tail = route.greedyTail ? source.lastIndexOf('([^/]+?)') : -1;
  const pattern = tail < 0 ? source : source.slice(0, tail) + '(.+)' + source.slice(tail + '([^/]+?)'.length);
  return { route, pattern: new RegExp(`^${pattern}$`), paramNames };
}

function bearer(req: IncomingMessage): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
  return match?.[1];
}

function scenarioOf(req: IncomingMessage, state: SimulatorState): ScenarioName | null {
  const header = req.headers[SCENARIO_HEADER];
  const text = Array.isArray(header) ? header[0] : header;
  return text !== undefined && text !== '' ? parseScenario(text) : state.scenario;
}

/**
 * Serves the platform surfaces: the credential (matching the application in the path where
 * the route names one), the scenario switch, then the route. Errors are platform error bodies.
 */
export function createPlatformHandler(
  state: SimulatorState,
  routes: readonly PlatformRoute[],
  openApi: () => Record<string, unknown>,
): (req: IncomingMessage, res: ServerResponse, requestId: string) => Promise<void> {
  const compiled = routes.map(compile);
  return async (req, res, requestId) => {
    try {
      const url = new URL(req.url ?? '/', 'http://simulator.local');
      const relative = url.pathname.slice(PLATFORM_PREFIX.length) || '/';
      const method = (req.method ?? 'GET').toUpperCase();
      if (url.pathname === PLATFORM_OPENAPI_PATH && method === 'GET') {
        sendJson(res, 200, openApi());
        return;
      }
      const matches = compiled.map((c) => ({ c, m: c.pattern.exec(relative) })).filter((x) => x.m);
      if (matches.length === 0)
        throw new PlatformError(404, 'route_not_found', `No platform route ${relative}.`);
      const hit =
        matches.find((x) => x.c.route.method === method) ??
        (method === 'HEAD' ? matches.find((x) => x.c.route.method === 'GET') : undefined) ??
        matches.find((x) => x.c.route.method === 'ALL');
      if (!hit) {
        const allow = matches.map((x) => x.c.route.method).join(', ');
        throw new PlatformError(405, 'method_not_allowed', `Use ${allow}.`, { headers: { Allow: allow } });
      }
      const params: Record<string, string> = {};
      hit.c.paramNames.forEach((name, i) => {
        params[name] = decodeURIComponent(hit.m![i + 1] ?? '');
      });
      const { route } = hit.c;
      const credential = bearer(req);
      const app = route.auth === 'route' ? undefined : credential ? appByCredential(credential) : undefined;
      if (!app && route.auth !== 'route')
        throw new PlatformError(
          401,
          'UNAUTHENTICATED',
          'A platform-managed application credential is required (Authorization: Bearer).',
          {
            headers: { 'WWW-Authenticate': 'Bearer' },
          },
        );
      if (app && route.appParam && params[route.appParam] !== app.appKey)
        throw new PlatformError(
          403,
          'APP_CREDENTIAL_MISMATCH',
          'The application credential does not match the application in the path.',
        );
      const scenario = scenarioOf(req, state);
      if (scenario) {
        const error = platformScenarioError(scenario, route.surface, method);
        if (error) {
          req.resume();
          if (scenario === 'gateway_timeout')
            await sleep(GATEWAY_TIMEOUT_DELAY_SECONDS * state.timeScale * 1000);
          throw error;
        }
      }
      await route.handler({
        req,
        res,
        state,
        requestId,
        params,
        query: url.searchParams,
        scenario,
        // absent only on `auth: 'route'` routes, which authenticate their caller themselves
        app: app as FixtureApp,
        bearer: credential,
      });
    } catch (error) {
      const apiError =
        error instanceof ApiError
          ? error
          : new PlatformError(500, 'internal_error', 'The simulator failed to handle this request.', {
              retryable: true,
            });
      if (!(error instanceof ApiError))
        process.stderr.write(
          `[simulator] platform ${req.method}: ${String(error instanceof Error ? error.stack : error)}\n`,
        );
      req.resume();
      sendPlatformError(res, apiError, requestId);
    }
  };
}
