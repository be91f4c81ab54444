/**
 * The journal's closed vocabularies, in a module of their own with no imports, so that the CLI's
 * command declarations (loaded at every start, for `--help`) can name them without opening SQLite.
 */

export type JobStatus = 'queued' | 'running' | 'succeeded' | 'failed' | 'cancel_requested' | 'canceled';
export const JOB_STATUSES: readonly JobStatus[] = [
  'queued',
  'running',
  'succeeded',
  'failed',
  'cancel_requested',
  'canceled',
];

export type ServiceCallOperation = 'embeddings' | 'rerank' | 'ocr' | 'transcription';
export const SERVICE_CALL_OPERATIONS: readonly ServiceCallOperation[] = [
  'embeddings',
  'rerank',
  'ocr',
  'transcription',
];
