/**
 * The journal's closed vocabularies, in a module of their own that imports nothing but the API's
 * import-free job statuses, so that the CLI's command declarations (loaded at every start, for
 * `--help`) can name them without opening SQLite.
 */

export { JOB_STATUSES, type JobStatus } from '../../../shared/api/job-statuses.js';

export type ServiceCallOperation = 'embeddings' | 'rerank' | 'ocr' | 'transcription';
export const SERVICE_CALL_OPERATIONS: readonly ServiceCallOperation[] = [
  'embeddings',
  'rerank',
  'ocr',
  'transcription',
];
