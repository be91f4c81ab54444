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
