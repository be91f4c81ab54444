import {
  GATEWAY_TIMEOUT_DELAY_SECONDS,
  SCENARIO_RETRY_AFTER_SECONDS,
  type ScenarioName,
} from '../scenarios.js';
import { PlatformError } from './errors.js';

/**
 * Which platform surface a route is, deciding what each scenario means there (a status only
 * where it has a meaning for that surface) and which named code its 503 carries.
 */
export type PlatformSurface =
  | 'session' // exchange, resolve
  | 'session_renew'
  | 'directory'
  | 'grant'
  | 'grant_launch'
  | 'runtime_read'
  | 'runtime_write'
  | 'runtime_call' // synchronous inference: billed, not idempotent
  | 'runtime_dry_run' // job dry-run: a business refusal is a 200 `accepted: false` (dryRunScenarioBlocker)
  | 'developer' // developer control plane (section E)
  | 'debug_peer' // section D: debug receivers, peer grants, debug session exchange
  | 'relay'; // the online debugging relay

/** The named 503 code of each surface's dependency (the spec's where it names one). */
export const UNAVAILABLE_CODES: Record<PlatformSurface, string> = {
  session: 'RUNTIME_SESSION_SERVICE_UNAVAILABLE',
  session_renew: 'RUNTIME_SESSION_RENEWAL_UNAVAILABLE',
  directory: 'ORGANIZATION_DIRECTORY_UNAVAILABLE',
  grant: 'APP_GRANT_SERVICE_UNAVAILABLE',
  grant_launch: 'APP_HANDOFF_UNAVAILABLE',
  runtime_read: 'service_unavailable',
  runtime_write: 'service_unavailable',
  runtime_call: 'service_unavailable',
  runtime_dry_run: 'service_unavailable',
  developer: 'DEVELOPER_SERVICE_UNAVAILABLE',
  debug_peer: 'DEBUG_PEER_UNAVAILABLE',
  relay: 'DEBUG_RELAY_UNAVAILABLE',
};

const isRuntime = (surface: PlatformSurface) => surface.startsWith('runtime_');

export { GATEWAY_TIMEOUT_DELAY_SECONDS };

/** `Retry-After` of `job_recovery_unavailable`: the replay that answers the reference may come at once. */
export const JOB_RECOVERY_RETRY_AFTER_SECONDS = 1;

/**
 * The answer of a job creation under `job_recovery_unavailable` (the spec's named code "on job
 * creation"): the job was accepted and stored under its key, but its recovery reference could not
 * be returned. 503 and retryable: the client replays the same `clientTaskId`, key and body, which
 * answers the job with its `jobRecoveryRef`.
 */
export function jobRecoveryUnavailable(clientTaskId: string): PlatformError {
  return new PlatformError(
    503,
    'job_recovery_unavailable',
    'The job may have been accepted, but its recovery reference could not be returned (simulated). ' +
      'Replay the same clientTaskId, Idempotency-Key and body to get it; do not create a new job.',
    {
      phase: 'job_recovery',
      retryable: true,
      headers: { 'Retry-After': String(JOB_RECOVERY_RETRY_AFTER_SECONDS) },
      details: { clientTaskId, scenario: 'job_recovery_unavailable' },
    },
  );
}

/**
 * The error a scenario answers on a platform route before it runs, or undefined (the route
 * runs; job scenarios act inside job creation).
 *
 * - `rate_limited` 429 and `unavailable` 503 (with `Retry-After`), `gateway_timeout` 504: every surface.
 * - `invalid_request` 400: every POST.
 * - `insufficient_balance` 402: runtime writes and synchronous calls (the session service bills nothing).
 * - `idempotency_conflict` 409: runtime writes and grant issue (the idempotent writes).
 * - `job_recovery_unavailable`, `dropped_connection` and `job_failed*` act inside runtime job
 *   creation, once the job is accepted.
 */
export function platformScenarioError(
  scenario: ScenarioName,
  surface: PlatformSurface,
  method: string,
): PlatformError | undefined {
  // a dry-run reports these as blockers of its 200 answer instead (dryRunScenarioBlocker)
  if (surface === 'runtime_dry_run' && dryRunScenarioBlocker(scenario)) return undefined;
  const runtime = isRuntime(surface);
  const details = { scenario };
  switch (scenario) {
    case 'rate_limited':
      return new PlatformError(
        429,
        runtime ? 'rate_limited' : 'RATE_LIMITED',
        'Too many requests (simulated).',
        {
          retryable: true,
          headers: { 'Retry-After': String(SCENARIO_RETRY_AFTER_SECONDS.rate_limited) },
          details,
        },
      );
    case 'unavailable':
      return new PlatformError(
        503,
        UNAVAILABLE_CODES[surface],
        'A dependency is temporarily unavailable (simulated).',
        {
          retryable: true,
          headers: { 'Retry-After': String(SCENARIO_RETRY_AFTER_SECONDS.unavailable) },
          details,
        },
      );
    case 'gateway_timeout':
      return new PlatformError(
        504,
        runtime ? 'gateway_timeout' : 'GATEWAY_TIMEOUT',
        'The gateway timed out (simulated).',
        {
          retryable: true,
          details,
        },
      );
    case 'invalid_request':
      if (method !== 'POST') return undefined;
      return new PlatformError(
        400,
        runtime ? 'invalid_request' : 'INVALID_REQUEST',
        'The request was rejected as invalid (simulated).',
        {
          details,
        },
      );
    case 'insufficient_balance':
      if (surface !== 'runtime_write' && surface !== 'runtime_call') return undefined;
      return new PlatformError(
        402,
        'insufficient_balance',
        'The account balance is insufficient (simulated).',
        {
          details,
        },
      );
    case 'idempotency_conflict':
      if (surface === 'runtime_write')
        return new PlatformError(
          409,
          'idempotency_conflict',
          'This idempotency key was used with another body (simulated).',
          {
            details,
          },
        );
      if (surface === 'grant')
        return new PlatformError(
          409,
          'APP_GRANT_IDEMPOTENCY_CONFLICT',
          'This idempotency key was used with another request (simulated).',
          {
            details,
          },
        );
      return undefined;
    default:
      return undefined;
  }
}

/**
 * A dry-run's refusals are a 200 `accepted: false` (the spec's "dry-run rejections are 200"):
 * under `insufficient_balance`, `idempotency_conflict` or `invalid_request` the dry-run runs and
 * reports this error as a blocker (with its `httpStatus` and phase) instead of answering it.
 * The other scenarios (429, 503, 504) are not refusals of the body and stay errors.
 */
export function dryRunScenarioBlocker(scenario: ScenarioName): PlatformError | undefined {
  const details = { scenario };
  switch (scenario) {
    case 'insufficient_balance':
      return new PlatformError(
        402,
        'insufficient_balance',
        'The account balance is insufficient (simulated).',
        {
          phase: 'admission',
          details,
        },
      );
    case 'idempotency_conflict':
      return new PlatformError(
        409,
        'idempotency_conflict',
        'This idempotency key was used with another body (simulated).',
        { phase: 'idempotency', details },
      );
    case 'invalid_request':
      return new PlatformError(400, 'invalid_request', 'The request was rejected as invalid (simulated).', {
        phase: 'input_validation',
        details,
      });
    default:
      return undefined;
  }
}
