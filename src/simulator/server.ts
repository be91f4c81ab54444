import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestContext, RouteDef, SimulatorState } from './context.js';
import type { Identity } from './identities.js';
import { ApiError } from './errors.js';
import { newRequestId, sendError, sendJson, sleep } from './http.js';
import { buildOpenApiDocument } from './openapi.js';
import { mountStoryboardHelper } from './apps/storyboard-helper/mount.js';
import {
  debugDocument,
  debugIdentity,
  debugRuntimeRelative,
  DEBUG_RUNTIME_PATH,
} from './platform/debug/debug-runtime.js';
import { mountPlatform } from './platform/mount.js';
import { ROUTES } from './routes/index.js';
import {
  GATEWAY_TIMEOUT_DELAY_SECONDS,
  parseScenario,
  SCENARIO_HEADER,
  scenarioError,
  type ScenarioName,
} from './scenarios.js';

interface CompiledRoute {
  route: RouteDef;
  pattern: RegExp;
  paramNames: string[];
}

function compile(route: RouteDef): CompiledRoute {
  const paramNames: string[] = [];
  const source = route.path
    .split('/')
    .map((segment) => {
      const match = /^\{(\w+)\}$/.exec(segment);
      if (!match) return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      paramNames.push(match[1]!);
      return '([^/]+)';
    })
    .join('/');
  return { route, pattern: new RegExp(`^${source}$`), paramNames };
}

const COMPILED = ROUTES.map(compile);

/** Routes requests under /v1: bearer identity, scenario switch, PublicError bodies. */
export function createRequestHandler(
  state: SimulatorState,
): (req: IncomingMessage, res: ServerResponse) => void {
  let openApi: Record<string, unknown> | undefined;
  let debugOpenApi: Record<string, unknown> | undefined;
  const platform = mountPlatform(state);
  // the second fixture application's own backend (its business interface, not the platform's)
  const storyboardHelper = mountStoryboardHelper(state);
  return (req, res) => {
    const requestId = newRequestId();
    res.setHeader('X-Request-Id', requestId);
    handle(req, res, requestId).catch((error: unknown) => {
      const apiError =
        error instanceof ApiError
          ? error
          : new ApiError(500, 'internal_error', 'The simulator failed to handle this request.', {
              retryable: true,
            });
      if (!(error instanceof ApiError))
        process.stderr.write(
          `[simulator] ${req.method} ${req.url}: ${String(error instanceof Error ? error.stack : error)}\n`,
        );
      req.resume();
      sendError(res, apiError, requestId);
    });
  };

  async function handle(req: IncomingMessage, res: ServerResponse, requestId: string): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://simulator.local');
    const pathname = url.pathname;
    // {debug_base_url} (section B): the public routes, authenticated only by a live CLI session
    const debugRelative = debugRuntimeRelative(pathname);
    if (debugRelative === undefined && platform.owns(pathname)) return platform.handle(req, res, requestId);
    if (debugRelative === undefined && storyboardHelper.owns(pathname))
      return storyboardHelper.handle(req, res, requestId);
    if (debugRelative === undefined && pathname !== '/v1' && !pathname.startsWith('/v1/')) {
      throw new ApiError(404, 'route_not_found', 'Every path is under /v1.');
    }
    if (debugRelative !== undefined) {
      const identity = debugIdentity(state, req.headers.authorization);
      if (!identity)
        throw new ApiError(
          401,
          'unauthorized',
          'A live CLI session Bearer (1 hour, bound to application and version) is required; application credentials and personal keys are not accepted here.',
          { headers: { 'WWW-Authenticate': 'Bearer' } },
        );
      const debugBase = new URL(state.baseUrl).origin + DEBUG_RUNTIME_PATH;
      if (debugRelative === '/openapi.json' && (req.method ?? 'GET').toUpperCase() === 'GET') {
        debugOpenApi ??= debugDocument(buildOpenApiDocument(ROUTES, debugBase));
        sendJson(res, 200, debugOpenApi);
        return;
      }
      return runPublicRoute(
        req,
        res,
        requestId,
        url,
        debugRelative,
        identity,
        { ...state, baseUrl: debugBase },
        true,
      );
    }
    const identity = state.identities.resolve(req.headers.authorization);
    if (!identity) {
      throw new ApiError(
        401,
        'unauthorized',
        'A valid bearer API key is required (Authorization: Bearer <key>).',
        {
          headers: { 'WWW-Authenticate': 'Bearer' },
        },
      );
    }
    const relative = pathname.slice(3) || '/';
    const method = (req.method ?? 'GET').toUpperCase();
    if (relative === '/openapi.json') {
      if (method !== 'GET')
        throw new ApiError(405, 'method_not_allowed', 'Use GET.', { headers: { Allow: 'GET' } });
      openApi ??= { ...buildOpenApiDocument(ROUTES, state.baseUrl), ...platform.openApiLink() };
      sendJson(res, 200, openApi);
      return;
    }
    return runPublicRoute(req, res, requestId, url, relative, identity, state, false);
  }

  /** Runs the public route `relative` names for `identity` (under /v1, or under {debug_base_url} with `debug`). */
  async function runPublicRoute(
    req: IncomingMessage,
    res: ServerResponse,
    requestId: string,
    url: URL,
    relative: string,
    identity: Identity,
    state: SimulatorState,
    debug: boolean,
  ): Promise<void> {
    const method = (req.method ?? 'GET').toUpperCase();
    const matches = COMPILED.filter((c) => !debug || c.route.routeClass !== 'admin')
      .map((c) => ({ c, m: c.pattern.exec(relative) }))
      .filter((x) => x.m);
    if (matches.length === 0) throw new ApiError(404, 'route_not_found', `No route ${relative}.`);
    const hit = matches.find((x) => x.c.route.method === method);
    if (!hit) {
      const allow = matches.map((x) => x.c.route.method).join(', ');
      throw new ApiError(405, 'method_not_allowed', `Method ${method} is not allowed here; use ${allow}.`, {
        headers: { Allow: allow },
      });
    }
    const params: Record<string, string> = {};
    hit.c.paramNames.forEach((name, i) => {
      params[name] = decodeURIComponent(hit.m![i + 1] ?? '');
    });
    const header = req.headers[SCENARIO_HEADER];
    const headerText = Array.isArray(header) ? header[0] : header;
    let scenario: ScenarioName | null = state.scenario;
    if (headerText !== undefined && headerText !== '') scenario = parseScenario(headerText);
    const { route } = hit.c;
    if (route.routeClass !== 'admin' && scenario) {
      const error = scenarioError(scenario, route);
      if (error) {
        req.resume();
        if (scenario === 'gateway_timeout')
          await sleep(GATEWAY_TIMEOUT_DELAY_SECONDS * state.timeScale * 1000);
        throw error;
      }
    }
    const rc: RequestContext = {
      req,
      res,
      state,
      identity,
      requestId,
      params,
      query: url.searchParams,
      scenario,
    };
    await route.handler(rc);
  }
}
