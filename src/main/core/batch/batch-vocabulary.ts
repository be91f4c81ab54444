/**
 * What a batch may hold, in a module of its own with no imports, so that the CLI's `batch --help`
 * (declared at every start) names it without loading the batch service.
 */

/** The per-row settings a CSV may set; every one falls back to the command line. */
export const CSV_COLUMNS = [
  'prompt',
  'seconds',
  'orientation',
  'seed',
  'mode',
  'model',
  'resolution_tier',
  'first_frame',
  'last_frame',
] as const;

/** The most rows `framewright batch` and the studio's import send at once. */
export const MAX_BATCH_CONCURRENCY = 8;
