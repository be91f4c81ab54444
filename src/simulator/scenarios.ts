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

/**
 * The error a scenario answers before the route runs, or undefined when the route runs (the job
 * scenarios and `dropped_connection` act inside job-creating routes).
 *
 * - `rate_limited`, `unavailable`, `gateway_timeout` apply to every API route (reads and writes).
 * - `invalid_request`, `insufficient_balance`, `idempotency_conflict` apply to writes (POST).
 */
export function scenarioError(scenario: ScenarioName, routeClass: RouteClass): ApiError | undefined {
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
      if (routeClass === 'read') return undefined;
      return new ApiError(400, 'invalid_request', 'The request was rejected as invalid (simulated).', {
        details: { scenario },
      });
    case 'insufficient_balance':
      if (routeClass === 'read') return undefined;
      return new ApiError(
        402,
        'insufficient_balance',
        'The account balance is insufficient for this request (simulated).',
        {
          details: { scenario },
        },
      );
    case 'idempotency_conflict':
      if (routeClass === 'read') return undefined;
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
