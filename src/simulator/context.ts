import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AssetStore } from './assets/asset-store.js';
import type { SimClock } from './clock.js';
import type { IdempotencyStore } from './idempotency.js';
import type { Identity, IdentityRegistry } from './identities.js';
import type { JobRunner } from './jobs/job-runner.js';
import type { JobStore } from './jobs/job-store.js';
import type { RenderCache } from './media/render-cache.js';
import type { StateLog } from './persistence.js';
import type { PlatformState } from './platform/state.js';
import type { PromptOptimizationResponse } from '../shared/api/prompt-optimization.js';
import type { RouteClass, ScenarioName } from './scenarios.js';
import type { z } from 'zod';

/** Everything the routes share: configuration, stores and the clock. */
export interface SimulatorState {
  /** `http://host:port/v1` */
  baseUrl: string;
  timeScale: number;
  clock: SimClock;
  identities: IdentityRegistry;
  assets: AssetStore;
  jobs: JobStore;
  idempotency: IdempotencyStore;
  /** Stored optimization responses by optimization id. */
  optimizations: Map<string, PromptOptimizationResponse>;
  runner: JobRunner;
  renders: RenderCache;
  dirs: { root: string; uploads: string; outputs: string; tmp: string };
  /** Append-only state log when started with a data folder (survives restarts). */
  log?: StateLog;
  /** Scenario set at start or through the admin route; a request header overrides it. */
  scenario: ScenarioName | null;
  /** The Application Platform surfaces (runtime, session service), see platform/README section. */
  platform: PlatformState;
}

export interface RequestContext {
  req: IncomingMessage;
  res: ServerResponse;
  state: SimulatorState;
  identity: Identity;
  requestId: string;
  params: Record<string, string>;
  query: URLSearchParams;
  /** Scenario in effect for this request. */
  scenario: ScenarioName | null;
}

export interface RouteDoc {
  operationId: string;
  summary: string;
  tags: string[];
  query?: z.ZodObject;
  pathParams?: string[];
  headers?: { name: string; required: boolean; description: string }[];
  requestBody?: { schema: z.ZodType; contentType: 'application/json' | 'multipart/form-data' };
  /** status -> response description; schema undefined means binary/no JSON body. */
  responses: Record<
    number,
    { description: string; schema?: z.ZodType; contentType?: string; headers?: string[] }
  >;
}

export interface RouteDef {
  method: 'GET' | 'POST' | 'HEAD';
  /** OpenAPI-style path relative to /v1, e.g. `/jobs/{jobId}`. */
  path: string;
  routeClass: RouteClass | 'admin';
  handler: (rc: RequestContext) => Promise<void>;
  /** Absent for simulator-only admin routes (documented under a separate tag when present). */
  doc?: RouteDoc;
}
