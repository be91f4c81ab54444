import type { PublicApiClient } from '../platform/public-api-client.js';
import type { MediaJobTransport } from './media-job-transport.js';

/** The Public Model and Media API client as the job engine's transport (its first implementation). */
export function publicApiTransport(client: PublicApiClient): MediaJobTransport {
  return {
    clock: client.clock,
    createJob: (path, body, idempotencyKey) => client.createJob(path, body, idempotencyKey),
    getJob: (ref) => client.getJob(ref),
    openContentStream: (ref) => client.openContentStream(ref),
  };
}
