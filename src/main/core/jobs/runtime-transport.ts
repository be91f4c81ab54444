import type { MediaJobAnswer as MediaJob } from '../../../shared/api/media-jobs.js';
import { AppError } from '../errors.js';
import { ApiError, OutcomeUnknownError } from '../api-clients/api-errors.js';
import { BATCH_GET_MAX_IDS, type RuntimeApiClient } from '../api-clients/runtime/runtime-api-client.js';
import { recoveryAuth, sessionAuth, type RuntimeAuth } from '../api-clients/runtime/runtime-auth.js';
import type { RuntimeJob } from '../api-clients/runtime/runtime-schemas.js';
import type { RecoveryRefs } from '../secrets/recovery-refs.js';
import type { MediaJobTransport, ReadJob } from './media-job-transport.js';

/**
 * The user's current RuntimeSession as the backend holds it (the platform-host lane owns the
 * session table): `null` when the user has none any more (expired, revoked, backend restarted
 * without it). Only the opaque id crosses this seam.
 */
export interface RuntimeSessionSource {
  current(): Promise<{ sessionId: string } | null>;
}

/** The spec's RuntimeJob as the job engine reads a job (the public job's field names). */
export function engineViewOf(job: RuntimeJob): MediaJob {
  return {
    jobId: job.platformJobId,
    requestId: job.platformJobId,
    status: job.status,
    stage: job.stage,
    model: job.model,
    serviceKind: job.serviceKind,
    errorCode: job.errorCode,
    errorMessage: job.errorMessage,
    retryable: job.retryable,
    ...(job.results !== undefined
      ? {
          outputs: job.results.map((result) => ({
            assetId: result.resultId,
            contentUrl: result.resultDownloadUrl,
            mimeType: result.mimeType,
            byteSize: result.byteSize,
            sha256: result.sha256,
            kind: result.mimeType?.split('/')[0],
          })),
        }
      : {}),
  };
}

/**
 * 401 of a session read: the session is gone; a job with a recovery reference goes on (spec,
 * Errors: "401 … existing tasks use their recovery reference"). A 403 is not this: "no
 * permission — stop; no other-user workaround", so it is reported, never worked around.
 */
const sessionRefused = (error: unknown) => error instanceof ApiError && error.status === 401;

/**
 * The deployed runtime as the job engine's transport (the second {@link MediaJobTransport}):
 * - create: `POST /media/jobs` with the user's session under the intent's key and canonical body
 *   (the body is the runtime body of runtime-job-body.ts, stored and replayed as is); the answer's
 *   `jobRecoveryRef` is stored in the secret store at once, keyed by the job's `platformJobId`
 *   (the journal's `job_id`); `job_recovery_unavailable` is an unknown outcome, replayed under the
 *   same key and body;
 * - read and download: with the session when there is one; without one (or when it is refused
 *   with 401), with the job's own recovery reference — never both headers; a 403 stops;
 * - `getJobs`: batch-get in chunks of 100 when a session exists (a resume's first read).
 */
export function runtimeTransport(deps: {
  client: RuntimeApiClient;
  sessions: RuntimeSessionSource;
  recoveryRefs: RecoveryRefs;
}): MediaJobTransport {
  const { client, sessions, recoveryRefs } = deps;

  const recoveryFor = async (platformJobId: string): Promise<RuntimeAuth> => {
    const ref = await recoveryRefs.recall(platformJobId);
    if (!ref)
      throw new AppError(
        'runtime.no_recovery_ref',
        `No session and no recovery reference for job ${platformJobId}: reopen the application to read it.`,
      );
    return recoveryAuth(ref);
  };

  /** Runs a single-job read with the session, else (or on 401) with the job's recovery reference; 403 stops. */
  const asUserOrRecovery = async <T>(platformJobId: string, read: (auth: RuntimeAuth) => Promise<T>) => {
    const session = await sessions.current();
    if (!session) return read(await recoveryFor(platformJobId));
    try {
      return await read(sessionAuth(session.sessionId));
    } catch (error) {
      if (!sessionRefused(error) || !(await recoveryRefs.recall(platformJobId))) throw error;
      return read(await recoveryFor(platformJobId));
    }
  };

  const remember = async (job: RuntimeJob) => {
    if (job.jobRecoveryRef) await recoveryRefs.remember(job.platformJobId, job.jobRecoveryRef);
  };

  return {
    clock: client.clock,
    async createJob(_path, body, idempotencyKey) {
      const session = await sessions.current();
      if (!session)
        throw new AppError(
          'runtime.no_session',
          'This person has no platform session: reopen the application to create the job (a recovery reference never creates one).',
        );
      let answer;
      try {
        answer = await client.createJob(sessionAuth(session.sessionId), body, idempotencyKey);
      } catch (error) {
        // the job may be accepted: the same key and body are replayed to get its recovery reference
        if (error instanceof ApiError && error.apiCode === 'job_recovery_unavailable')
          throw new OutcomeUnknownError('Create job', 'job_recovery_unavailable');
        throw error;
      }
      await remember(answer.body);
      return {
        httpStatus: answer.httpStatus,
        job: engineViewOf(answer.body),
        retryAfterSeconds: answer.retryAfterSeconds,
      };
    },
    async getJob(ref) {
      const answer = await asUserOrRecovery(ref.jobId, (auth) => client.getJob(auth, ref.jobId));
      await remember(answer.body);
      return { job: engineViewOf(answer.body), retryAfterSeconds: answer.retryAfterSeconds };
    },
    async getJobs(platformJobIds) {
      const session = await sessions.current();
      if (!session) return null;
      const read: ReadJob[] = [];
      for (let i = 0; i < platformJobIds.length; i += BATCH_GET_MAX_IDS) {
        const chunk = platformJobIds.slice(i, i + BATCH_GET_MAX_IDS);
        const answer = await client.batchGet(sessionAuth(session.sessionId), chunk);
        for (const job of answer.items) {
          await remember(job);
          read.push({ job: engineViewOf(job), retryAfterSeconds: undefined });
        }
      }
      return read;
    },
    async openContentStream(ref) {
      if (!ref.contentUrl)
        throw new AppError('runtime.invalid_job_body', 'A runtime result has no download URL.');
      const url = ref.contentUrl;
      const ids = ref.jobId && ref.assetId ? { jobId: ref.jobId, resultId: ref.assetId } : undefined;
      const open = (auth: RuntimeAuth) => client.openResult(auth, url, ids);
      const stream = ref.jobId ? await asUserOrRecovery(ref.jobId, open) : await sessionOnly(sessions, open);
      return {
        status: stream.status,
        contentType: stream.contentType,
        contentLength: stream.contentLength,
        body: stream.body,
      };
    },
  };
}

async function sessionOnly<T>(
  sessions: RuntimeSessionSource,
  read: (auth: RuntimeAuth) => Promise<T>,
): Promise<T> {
  const session = await sessions.current();
  if (!session) throw new AppError('runtime.no_session', 'No platform session to download this result.');
  return read(sessionAuth(session.sessionId));
}
