import { conflictMeaning } from '../../../shared/api/contract-vocabulary.js';
import { AppError } from '../errors.js';
import type { Journal } from '../journal/open-journal.js';
import type { JobIntent, JobWithOutputs } from '../journal/jobs-repository.js';
import { ApiError, OutcomeUnknownError, ResponseShapeError } from '../platform/api-errors.js';
import type { PublicApiClient } from '../platform/public-api-client.js';
import { RetryAfterTooLongError, retryWaitMs } from '../platform/retry-after.js';
import { DEFAULT_RETRY_BACKOFF, backoffDelay, sleepUnlessStopped, type BackoffPolicy } from './backoff.js';
import { acceptanceOf } from './job-snapshot.js';

/** Where each asynchronous service kind is created. */
export const CREATE_PATHS = {
  video_generation: '/media/generations',
  image_generation: '/images/generations',
  audio_generation: '/audio/generations',
} as const;
export type AsyncServiceKind = keyof typeof CREATE_PATHS;

export function createPathFor(serviceKind: string): (typeof CREATE_PATHS)[AsyncServiceKind] {
  const path = (CREATE_PATHS as Record<string, (typeof CREATE_PATHS)[AsyncServiceKind] | undefined>)[
    serviceKind
  ];
  if (!path)
    throw new AppError('job.unknown_service_kind', `"${serviceKind}" is not an asynchronous job kind.`);
  return path;
}

export interface CreateOptions {
  /** Tries per call, counting the first (429/503 and unknown outcomes each use one). */
  maxAttempts?: number;
  /** Total create attempts across restarts after which an unknown intent is abandoned. */
  maxLifetimeAttempts?: number;
  backoff?: BackoffPolicy;
  /** Stop waiting for a retry past this time (epoch ms); the intent stays resumable. */
  deadline?: number;
  /** Test seam: called after the intent is committed and before the request leaves. */
  beforeSend?: (intent: JobIntent) => void;
  /** The engine is stopping: no further try; the intent stays in the journal for resume. */
  signal?: AbortSignal;
  onRetry?: (info: { attempt: number; delayMs: number; reason: string }) => void;
}

export type CreateOutcome =
  | { state: 'accepted'; job: JobWithOutputs }
  /** 429/503/unknown outcomes went past the bound: the intent stays in the journal for resume. */
  | { state: 'deferred'; intent: JobIntent; error: AppError };

const RETRY_LATER = new Set(['rate_limited', 'unavailable']);

/**
 * Sends a committed intent: one stable idempotency key, the same canonical body every time.
 * - accepted (202, or 200 on an idempotent replay): the job is committed the moment it is read;
 * - 429/503: waits as `Retry-After` says (bounded, jittered) and tries again with the same key;
 * - timeout, 504 or a broken connection: the outcome is unknown, so the same key and body are
 *   replayed (bounded) — never a new key, never a query for an unknown id;
 * - 400/422, 401/403, 402, 404, 409, 413, 415: the intent is rejected with the service's reason,
 *   and nothing is retried — except a 409 answering a replay, which is not final (a job may exist
 *   under the key): see {@link conflictOnReplay}.
 */
export async function sendIntent(
  journal: Journal,
  client: PublicApiClient,
  intent: JobIntent,
  options: CreateOptions = {},
): Promise<CreateOutcome> {
  const maxAttempts = options.maxAttempts ?? 6;
  const maxLifetime = options.maxLifetimeAttempts ?? 30;
  const backoff = options.backoff ?? DEFAULT_RETRY_BACKOFF;
  const body = JSON.parse(intent.canonicalBodyJson) as Record<string, unknown>;
  const path = createPathFor(intent.serviceKind);
  let lastError: AppError | undefined;
  for (let attempt = 0; attempt < maxAttempts; attempt += 1) {
    const current = journal.jobs.getIntent(intent.idempotencyKey)!;
    if (current.state === 'accepted') {
      return { state: 'accepted', job: journal.jobs.getJobForIntent(current.id)! };
    }
    if (current.attemptCount >= maxLifetime) {
      const abandoned = journal.jobs.markAbandoned(
        intent.idempotencyKey,
        `Gave up after ${current.attemptCount} attempts without a known outcome.`,
      );
      return {
        state: 'deferred',
        intent: abandoned,
        error: lastError ?? new AppError('job.abandoned', abandoned.errorMessage ?? 'Abandoned.'),
      };
    }
    // a send after one whose answer was never read (a dropped connection, a crash): a replay
    const replay = current.state === 'unknown' || current.attemptCount > 0;
    journal.jobs.markAttempt(intent.idempotencyKey);
    options.beforeSend?.(current);
    let serverSeconds: number | undefined;
    try {
      const accepted = await client.createJob(path, body, intent.idempotencyKey);
      const job = journal.jobs.markAccepted(
        intent.idempotencyKey,
        acceptanceOf(accepted.job, accepted.retryAfterSeconds),
      );
      return { state: 'accepted', job };
    } catch (error) {
      if (error instanceof ApiError && RETRY_LATER.has(error.kind)) {
        lastError = error;
        serverSeconds = error.retryAfterSeconds;
      } else if (
        error instanceof OutcomeUnknownError ||
        (error instanceof ApiError && error.kind === 'gateway_timeout')
      ) {
        lastError = error;
        serverSeconds = error instanceof ApiError ? error.retryAfterSeconds : undefined;
        journal.jobs.markUnknown(intent.idempotencyKey, error.message);
      } else if (error instanceof ApiError && error.status === 409 && replay) {
        return conflictOnReplay(journal, current, error);
      } else if (error instanceof ApiError) {
        journal.jobs.markRejected(intent.idempotencyKey, {
          statusCode: error.status,
          errorCode: error.apiCode,
          errorMessage: error.serviceMessage,
          requestId: error.requestId,
          retryable: error.retryable,
        });
        throw error;
      } else if (error instanceof ResponseShapeError) {
        // A 2xx whose body we cannot read: the job may exist. Keep the intent for a replay.
        journal.jobs.markUnknown(intent.idempotencyKey, error.message);
        throw error;
      } else {
        journal.jobs.markUnknown(
          intent.idempotencyKey,
          error instanceof Error ? error.message : String(error),
        );
        throw error;
      }
    }
    if (attempt + 1 >= maxAttempts) break;
    let delayMs: number;
    try {
      delayMs = retryWaitMs({
        serverSeconds,
        ownDelayMs: backoffDelay(backoff, attempt),
        remainingMs: options.deadline !== undefined ? options.deadline - client.clock.now() : undefined,
        operation: 'Create job',
      });
    } catch (error) {
      if (!(error instanceof RetryAfterTooLongError)) throw error;
      lastError = error; // the service asked for longer than we wait: stop, the intent stays for resume
      break;
    }
    if (options.deadline !== undefined && client.clock.now() + delayMs > options.deadline) break;
    options.onRetry?.({ attempt: attempt + 1, delayMs, reason: lastError?.message ?? '' });
    if (!(await sleepUnlessStopped(delayMs, options.signal, client.clock))) break;
  }
  return { state: 'deferred', intent: journal.jobs.getIntent(intent.idempotencyKey)!, error: lastError! };
}

/**
 * A 409 answering a replay after an unknown outcome is not a final rejection: the first send may
 * have created a job under this key (spec, "Errors": inspect `code`). The journal decides first —
 * a job it recorded is the answer. Otherwise the spec forbids asking the service for an unknown id,
 * so the intent is set aside (abandoned, not rejected) with the service's code and request id: it
 * leaves the resume list, and its key is never replaced by a new one, so a draft is not reopened
 * to create a second job.
 */
function conflictOnReplay(journal: Journal, intent: JobIntent, error: ApiError): CreateOutcome {
  const recorded = journal.jobs.getJobForIntent(intent.id);
  if (recorded) return { state: 'accepted', job: recorded };
  const meaning = conflictMeaning(error.apiCode);
  const reason =
    meaning === 'service_not_available'
      ? `The service answered that it is not available (409 ${error.apiCode}, request ${error.requestId ?? 'unknown'}) to a replay after an unknown outcome; a job may already exist under this key, so it is not sent under a new one.`
      : `The service answered 409 ${error.apiCode} (request ${error.requestId ?? 'unknown'}) to a replay after an unknown outcome: a job may already exist under this key. It is not sent again under a new key; check the queue before generating this again.`;
  journal.jobs.markAbandoned(intent.idempotencyKey, reason);
  throw new AppError('job.conflict_after_unknown', reason);
}
