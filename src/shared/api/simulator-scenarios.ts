/**
 * The local simulator's fault scenarios, by their public names (application-platform spec,
 * "Local simulation": 400, 402, 409, 429, 503, 504 and asynchronous failures). Shared by the
 * simulator, which plays them, and the studio's scenario switch. `job_recovery_unavailable`
 * acts on the platform runtime's job creation only.
 */
export const SIMULATOR_SCENARIOS = [
  'invalid_request',
  'insufficient_balance',
  'idempotency_conflict',
  'rate_limited',
  'unavailable',
  'gateway_timeout',
  'dropped_connection',
  'job_failed',
  'job_failed_retryable',
  'job_recovery_unavailable',
] as const;
export type SimulatorScenario = (typeof SIMULATOR_SCENARIOS)[number];
