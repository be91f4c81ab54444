import type { IncomingMessage, ServerResponse } from 'node:http';
import type { z } from 'zod';
import type { SimulatorState } from '../../context.js';
import { ApiError } from '../../errors.js';
import { sendJson } from '../../http.js';
import type { ImageSigner } from './images.js';
import type { PanelWriteStore } from './store.js';

/** Where the simulator serves storyboard-helper's business interface (its `businessBaseUrl`). */
export const STORYBOARD_BASE_PATH = '/apps/storyboard-helper';

export interface AppContext {
  req: IncomingMessage;
  res: ServerResponse;
  state: SimulatorState;
  requestId: string;
  params: Record<string, string>;
  /** The path relative to the business base address, as received (percent-encoding kept). */
  path: string;
  /** `path` plus its query string when there is one (what a read's digest covers). */
  pathWithQuery: string;
  query: URLSearchParams;
  /** `http://host:port/apps/storyboard-helper` */
  baseUrl: string;
  store: PanelWriteStore;
  images: ImageSigner;
}

export interface AppRouteDoc {
  operationId: string;
  summary: string;
  tags: string[];
  /** How a caller is authenticated: a grant, the signed address, the simulator token, or nothing. */
  security: 'grant' | 'signed_url' | 'simulator_token' | 'none';
  /** The grant scope the operation needs (security `grant`). */
  scope?: string;
  query?: { name: string; description: string }[];
  requestBody?: z.ZodType;
  /** By status; `default`: any other status the operation may answer (the echo's `?status=`). */
  responses: Partial<
    Record<number | 'default', { description: string; schema?: z.ZodType; contentType?: string }>
  >;
}

export interface AppRoute {
  /** `ALL`: any method. */
  method: 'GET' | 'POST' | 'ALL';
  /** Relative to the business base; `{name}` anywhere in a segment; a trailing `{name*}` takes the rest. */
  path: string;
  handler: (ctx: AppContext) => Promise<void>;
  doc: AppRouteDoc;
}

interface Compiled {
  route: AppRoute;
  pattern: RegExp;
  names: string[];
}

function compile(route: AppRoute): Compiled {
  const names: string[] = [];
  const source = route.path.replace(
    /\{(\w+)(\*?)\}|[.*+?^${}()|[\]\\]/g,
    (match, name?: string, rest?: string) => {
      if (!name) return '\\' + match;
      names.push(name);
      return rest ? '(.*)' : '([^/]+?)';
    },
  );
  return { route, pattern: new RegExp(`^${source}$`), names };
}

/** The app's error body: `code`, `message`, the request id and, where useful, `details`. */
export function sendAppError(res: ServerResponse, error: ApiError, requestId: string): void {
  const body: Record<string, unknown> = { code: error.code, message: error.message, requestId };
  if (error.details !== undefined) body.details = error.details;
  sendJson(res, error.status, body, error.headers);
}

/** Serves the business routes below STORYBOARD_BASE_PATH; errors are the app's error bodies. */
export function createAppHandler(
  state: SimulatorState,
  routes: readonly AppRoute[],
  store: PanelWriteStore,
  images: ImageSigner,
): (req: IncomingMessage, res: ServerResponse, requestId: string) => Promise<void> {
  const compiled = routes.map(compile);
  return async (req, res, requestId) => {
    try {
      const raw = req.url ?? '/';
      const url = new URL(raw, 'http://simulator.local');
      const path = url.pathname.slice(STORYBOARD_BASE_PATH.length) || '/';
      const method = (req.method ?? 'GET').toUpperCase();
      const matches = compiled.map((c) => ({ c, m: c.pattern.exec(path) })).filter((x) => x.m);
      if (matches.length === 0)
        throw new ApiError(404, 'route_not_found', `storyboard-helper has no route ${path}.`);
      const hit =
        matches.find((x) => x.c.route.method === method) ??
        (method === 'HEAD' ? matches.find((x) => x.c.route.method === 'GET') : undefined) ??
        matches.find((x) => x.c.route.method === 'ALL');
      if (!hit) {
        const allow = matches.map((x) => x.c.route.method).join(', ');
        throw new ApiError(405, 'method_not_allowed', `Use ${allow}.`, { headers: { Allow: allow } });
      }
      const params: Record<string, string> = {};
      hit.c.names.forEach((name, i) => {
        params[name] = decodeURIComponent(hit.m![i + 1] ?? '');
      });
      await hit.c.route.handler({
        req,
        res,
        state,
        requestId,
        params,
        path,
        pathWithQuery: path + url.search,
        query: url.searchParams,
        baseUrl: new URL(state.baseUrl).origin + STORYBOARD_BASE_PATH,
        store,
        images,
      });
    } catch (error) {
      const apiError =
        error instanceof ApiError
          ? error
          : new ApiError(500, 'internal_error', 'storyboard-helper failed to handle this request.', {
              retryable: true,
            });
      if (!(error instanceof ApiError))
        process.stderr.write(
          `[simulator] storyboard-helper ${req.method}: ${String(error instanceof Error ? error.stack : error)}\n`,
        );
      req.resume();
      sendAppError(res, apiError, requestId);
    }
  };
}
