import { AppError } from '../errors.js';
import type { PublicApiClient } from '../api-clients/public-api-client.js';
import { RUNTIME_JOB_PATHS, type MediaJobTransport } from './media-job-transport.js';

/** The Public Model and Media API client as the job engine's transport (its first implementation). */
export function publicApiTransport(client: PublicApiClient): MediaJobTransport {
  return {
    clock: client.clock,
    createJob: (path, body, idempotencyKey) => {
      // a runtime-only kind (a document parse job): the public interface has no job for it
      if (path === RUNTIME_JOB_PATHS.document_parse)
        throw new AppError('job.unknown_service_kind', 'This job is created only on the platform runtime.');
      return client.createJob(path, body, idempotencyKey);
    },
    getJob: (ref) => client.getJob(ref),
    openContentStream: (ref) => client.openContentStream(ref),
  };
}
