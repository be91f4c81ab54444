import { SIMULATOR_SCENARIOS } from '../shared/api/simulator-scenarios.js';
import { ApiError } from './errors.js';

/** Every fault scenario the simulator can play, by its public name. */
export const SCENARIO_NAMES = SIMULATOR_SCENARIOS;
export type ScenarioName = (typeof SCENARIO_NAMES)[number];

export const SCENARIO_HEADER = 'x-simulator-scenario';

export function isScenarioName(value: string): value is ScenarioName {
  return (SCENARIO_NAMES as readonly string[]).includes(value);
}

/** Parses a scenario name; an unknown name is a 400 that lists the known ones. */
export function parseScenario(value: string): ScenarioName {
  if (isScenarioName(value)) return value;
  throw new ApiError(
    400,
    'unknown_scenario',
    `Unknown simulator scenario "${value}". Known: ${SCENARIO_NAMES.join(', ')}.`,
    {
      details: { known: [...SCENARIO_NAMES] },
    },
  );
}

/** What kind of operation a route is, which decides the scenarios that apply to it. */
export type RouteClass = 'read' | 'write' | 'create_job';

/** Base delay of `gateway_timeout` before its 504, multiplied by the time scale. */
export const GATEWAY_TIMEOUT_DELAY_SECONDS = 30;
/** `Retry-After` of `rate_limited` and `unavailable`. */
export const SCENARIO_RETRY_AFTER_SECONDS = { rate_limited: 2, unavailable: 5 } as const;

/** The scenarios that answer only on the routes where the spec gives their status a meaning. */
export const ROUTE_SCOPED_SCENARIOS = [
  'invalid_request',
  'insufficient_balance',
  'idempotency_conflict',
] as const;
export type RouteScopedScenario = (typeof ROUTE_SCOPED_SCENARIOS)[number];

/** The scenarios that answer on every API route (reads and writes; never the admin routes). */
export const EVERY_ROUTE_SCENARIOS = ['rate_limited', 'unavailable', 'gateway_timeout'] as const;

const ALL_SCOPED = ROUTE_SCOPED_SCENARIOS;
const BILLED_CALL = ['invalid_request', 'insufficient_balance'] as const;

/**
 * Which route-scoped scenario each route answers, by `"METHOD /path"` as the routes declare it.
 * The spec's meaning decides:
 * - `idempotency_conflict` (409 `idempotency_conflict`): only where an `Idempotency-Key` applies —
 *   job creation and prompt optimization.
 * - `insufficient_balance` (402): only on billed calls — inference, generation and optimization;
 *   never discovery, uploads, admission preview, polling or downloads.
 * - `invalid_request` (400): where the request's fields are checked against a contract — the billed
 *   calls and the admission preview (which names a model); not uploads (413/415/422 there).
 * A route that is not listed answers none of them. Add a line here for each new write route.
 */
export const SCOPED_SCENARIOS_BY_ROUTE: Readonly<Record<string, readonly RouteScopedScenario[]>> = {
  'POST /media/generations': ALL_SCOPED,
  'POST /images/generations': ALL_SCOPED,
  'POST /audio/generations': ALL_SCOPED,
  'POST /media/prompt-optimizations': ALL_SCOPED,
  'POST /chat/completions': BILLED_CALL,
  'POST /embeddings': BILLED_CALL,
  'POST /rerank': BILLED_CALL,
  'POST /ocr': BILLED_CALL,
  'POST /audio/transcriptions': BILLED_CALL,
  'POST /documents/parse': BILLED_CALL,
  'POST /admission/preview': ['invalid_request'],
};

/** A route as the scenario table names it. */
export interface ScenarioRoute {
  method: string;
  path: string;
}

export const routeKey = (route: ScenarioRoute): string => `${route.method} ${route.path}`;

/** The fault scenarios that answer before `route` runs (the admin routes answer none). */
export function scenariosBeforeRoute(route: ScenarioRoute): ScenarioName[] {
  return [...(SCOPED_SCENARIOS_BY_ROUTE[routeKey(route)] ?? []), ...EVERY_ROUTE_SCENARIOS];
}

const JOB_SCENARIOS = ['dropped_connection', 'job_failed', 'job_failed_retryable'] as const;

/**
 * The scenarios that act inside a route once the work is accepted: `dropped_connection` stores the
 * work under its idempotency key, then closes the socket before answering; `job_failed*` script
 * the job's end. Documented with the others in `/openapi.json` (`x-simulator-scenarios`).
 */
export const IN_ROUTE_SCENARIOS_BY_ROUTE: Readonly<Record<string, readonly ScenarioName[]>> = {
  'POST /media/generations': JOB_SCENARIOS,
  'POST /images/generations': JOB_SCENARIOS,
  'POST /audio/generations': JOB_SCENARIOS,
  'POST /media/prompt-optimizations': ['dropped_connection'],
};

/** Every scenario that changes what `route` answers, in the order of SCENARIO_NAMES. */
export function scenariosOnRoute(route: ScenarioRoute): ScenarioName[] {
  const on = new Set<ScenarioName>([
    ...scenariosBeforeRoute(route),
    ...(IN_ROUTE_SCENARIOS_BY_ROUTE[routeKey(route)] ?? []),
  ]);
  return SCENARIO_NAMES.filter((name) => on.has(name));
}

/**
 * The error a scenario answers before `route` runs, or undefined when the route runs (the job
 * scenarios and `dropped_connection` act inside job-creating routes; a route-scoped scenario
 * does not touch a route the table above does not name for it).
 */
export function scenarioError(scenario: ScenarioName, route: ScenarioRoute): ApiError | undefined {
  if (!scenariosBeforeRoute(route).includes(scenario)) return undefined;
  switch (scenario) {
    case 'rate_limited':
      return new ApiError(
        429,
        'rate_limited',
        'Too many requests (simulated). Retry after the indicated delay.',
        {
          retryable: true,
          headers: { 'Retry-After': String(SCENARIO_RETRY_AFTER_SECONDS.rate_limited) },
          details: { scenario },
        },
      );
    case 'unavailable':
      return new ApiError(503, 'service_unavailable', 'The service is temporarily unavailable (simulated).', {
        retryable: true,
        headers: { 'Retry-After': String(SCENARIO_RETRY_AFTER_SECONDS.unavailable) },
        details: { scenario },
      });
    case 'gateway_timeout':
      return new ApiError(
        504,
        'gateway_timeout',
        'The gateway timed out waiting for the service (simulated).',
        {
          retryable: true,
          details: { scenario },
        },
      );
    case 'invalid_request':
      return new ApiError(400, 'invalid_request', 'The request was rejected as invalid (simulated).', {
        details: { scenario },
      });
    case 'insufficient_balance':
      return new ApiError(
        402,
        'insufficient_balance',
        'The account balance is insufficient for this request (simulated).',
        {
          details: { scenario },
        },
      );
    case 'idempotency_conflict':
      return new ApiError(
        409,
        'idempotency_conflict',
        'This idempotency key was already used with a different body (simulated).',
        {
          details: { scenario },
        },
      );
    default:
      return undefined;
  }
}
