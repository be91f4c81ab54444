/**
 * The statuses of an asynchronous media job (the public API's MediaJob `status`), in a module with no
 * imports: the API schemas, the bridge, the journal and the CLI's `--help` all name them from here.
 */
export const JOB_STATUSES = [
  'queued',
  'running',
  'succeeded',
  'failed',
  'cancel_requested',
  'canceled',
] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

/** A job in one of these will not change again. */
export const TERMINAL_JOB_STATUSES: readonly JobStatus[] = ['succeeded', 'failed', 'canceled'];

/** Whether a job's status will not change again (any string: a status read from an event or a row). */
export function isTerminalJobStatus(status: string): boolean {
  return (TERMINAL_JOB_STATUSES as readonly string[]).includes(status);
}

/**
 * The states of a job intent in the journal: committed before the create request leaves
 * (`pending_create`), sent without an answer read (`unknown`), answered with a job (`accepted`),
 * refused (`rejected`), or given up by the user (`abandoned`).
 */
export const INTENT_STATES = ['pending_create', 'unknown', 'accepted', 'rejected', 'abandoned'] as const;
export type IntentState = (typeof INTENT_STATES)[number];
