import { AppError } from '../errors.js';
import type { Journal } from '../journal/open-journal.js';
import type { JobIntent, JobWithOutputs } from '../journal/jobs-repository.js';
import { ApiError } from '../api-clients/api-errors.js';
import type { BackoffPolicy } from '../api-clients/retry/backoff.js';
import { RetryAfterTooLongError } from '../api-clients/retry/retry-after.js';
import { classify, withRetry, type RetryVerdict } from '../api-clients/retry/retry.js';
import { acceptanceOf } from './job-snapshot.js';
import {
  CREATE_PATHS,
  RUNTIME_JOB_PATHS,
  type CreatePath,
  type MediaJobTransport,
} from './media-job-transport.js';

/** Where a kind's job is created: its public path, or the runtime's for a runtime-only kind. */
export function createPathFor(serviceKind: string): CreatePath {
  const paths: Record<string, CreatePath | undefined> = { ...CREATE_PATHS, ...RUNTIME_JOB_PATHS };
  const path = paths[serviceKind];
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

/**
 * Sends a committed intent through the transport under the `create` row of the retry module's
 * table: one stable idempotency key, the same canonical body every time.
 * - accepted (202, or 200 on an idempotent replay): the job is committed the moment it is read;
 * - 429/503: waits as `Retry-After` says (bounded, jittered) and tries again with the same key;
 * - timeout, 504 or a broken connection: the outcome is unknown, so the same key and body are
 *   replayed (bounded) — never a new key, never a query for an unknown id;
 * - 400/422, 401/403, 402, 404, 409, 413, 415: the intent is rejected with the service's reason,
 *   and nothing is retried — except a 409 answering a replay, which is not final (a job may exist
 *   under the key): the latest state is read, else the replay is retried, see {@link conflictOnReplay}.
 */
export async function sendIntent(
  journal: Journal,
  transport: MediaJobTransport,
  intent: JobIntent,
  options: CreateOptions = {},
): Promise<CreateOutcome> {
  const maxLifetime = options.maxLifetimeAttempts ?? 30;
  const body = JSON.parse(intent.canonicalBodyJson) as Record<string, unknown>;
  const path = createPathFor(intent.serviceKind);
  let lastError: AppError | undefined;
  /** A refusal (or a body we cannot read) of this call: thrown as it is, never deferred. */
  let finalError: unknown;
  const attemptOnce = async (): Promise<CreateOutcome> => {
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
    try {
      // the intent is on disk before its create leaves (a power cut cannot forget a billed job)
      await journal.durable();
      const accepted = await transport.createJob(path, body, intent.idempotencyKey);
      const job = journal.jobs.markAccepted(
        intent.idempotencyKey,
        acceptanceOf(accepted.job, accepted.retryAfterSeconds),
      );
      return { state: 'accepted', job };
    } catch (error) {
      const verdict = classify(error);
      if (verdict.kind !== 'final') {
        lastError = error as AppError;
        if (verdict.kind === 'unknown_outcome')
          journal.jobs.markUnknown(intent.idempotencyKey, (error as Error).message);
      } else if (error instanceof ApiError && error.status === 409 && replay) {
        try {
          return await conflictOnReplay(journal, transport, current, error);
        } catch (retry) {
          lastError = retry as AppError;
          throw retry;
        }
      } else if (error instanceof ApiError) {
        journal.jobs.markRejected(intent.idempotencyKey, {
          statusCode: error.status,
          errorCode: error.apiCode,
          errorMessage: error.serviceMessage,
          requestId: error.requestId,
          retryable: error.retryable,
        });
      } else {
        // a 2xx whose body we cannot read, or no answer at all: the job may exist; keep the
        // intent for a replay under the same key
        journal.jobs.markUnknown(
          intent.idempotencyKey,
          error instanceof Error ? error.message : String(error),
        );
      }
      throw error;
    }
  };
  const sendOnce = async (): Promise<CreateOutcome> => {
    try {
      return await attemptOnce();
    } catch (error) {
      if (classifyCreate(error).kind === 'final') finalError = error;
      throw error;
    }
  };
  try {
    return await withRetry('create', sendOnce, {
      clock: transport.clock,
      signal: options.signal,
      deadline: options.deadline,
      policy: {
        ...(options.maxAttempts !== undefined ? { attempts: options.maxAttempts } : {}),
        ...(options.backoff ? { backoff: options.backoff } : {}),
      },
      classify: classifyCreate,
      onRetry: ({ attempt, delayMs, error }) =>
        options.onRetry?.({ attempt, delayMs, reason: error instanceof Error ? error.message : '' }),
    });
  } catch (error) {
    if (error === finalError) throw error;
    // the service asked for longer than we wait: stop, the intent stays for resume
    if (error instanceof RetryAfterTooLongError) lastError = error;
    // past the bound, the deadline or the engine's stop (its wait ended): the intent stays for resume
    return { state: 'deferred', intent: journal.jobs.getIntent(intent.idempotencyKey)!, error: lastError! };
  }
}

/**
 * A 409 that answered a replay after an unknown outcome: not a refusal but "read the latest
 * state" (spec, "Errors"; the platform's table: "idempotency conflict or state changed → read the
 * latest state"). The first send may have created a job under this key that the service is still
 * processing. Retried like a 503 (after its `Retry-After`, else the create back-off), with the same
 * key and body, within this run's bound and then at every later resume (the intent stays
 * `unknown`), until the service answers the job or refuses for good — or the lifetime bound of
 * attempts sets the intent aside. Never a new key.
 */
export class ReplayConflictError extends AppError {
  readonly retryAfterSeconds: number | undefined;
  constructor(readonly conflict: ApiError) {
    super(
      'job.conflict_after_unknown',
      `The service answered 409 ${conflict.apiCode} (request ${conflict.requestId ?? 'unknown'}) to a replay after an unknown outcome: a job may already exist under this key. The same request is sent again under the same key until the service answers the job; it is never sent under a new key.`,
    );
    this.name = 'ReplayConflictError';
    this.retryAfterSeconds = conflict.retryAfterSeconds;
  }
}

/** The create retry's verdicts, with a replay's 409 retried under the same key (see {@link ReplayConflictError}). */
function classifyCreate(error: unknown): RetryVerdict {
  if (error instanceof ReplayConflictError) return { kind: 'retry', afterSeconds: error.retryAfterSeconds };
  return classify(error);
}

/** The job a 409 names (the runtime's `details.platformJobId`, or a `jobId`), if it names one. */
function jobNamedBy(error: ApiError): string | undefined {
  const details = error.details as { platformJobId?: unknown; jobId?: unknown } | undefined;
  const named = details?.platformJobId ?? details?.jobId;
  return typeof named === 'string' && named !== '' ? named : undefined;
}

/**
 * Reads the latest state after a 409 to a replay: a job the journal recorded is the answer; a job
 * the 409 names is read and recorded as this intent's (the key is this intent's, in its identity);
 * otherwise the intent stays `unknown` and the replay is retried ({@link ReplayConflictError}).
 */
async function conflictOnReplay(
  journal: Journal,
  transport: MediaJobTransport,
  intent: JobIntent,
  error: ApiError,
): Promise<CreateOutcome> {
  const recorded = journal.jobs.getJobForIntent(intent.id);
  if (recorded) return { state: 'accepted', job: recorded };
  const named = jobNamedBy(error);
  if (named) {
    try {
      const read = await transport.getJob({ jobId: named, model: intent.model });
      if (read.job.jobId === named) {
        const job = journal.jobs.markAccepted(
          intent.idempotencyKey,
          acceptanceOf(read.job, read.retryAfterSeconds),
        );
        return { state: 'accepted', job };
      }
    } catch {
      // not readable now: the replay below tries again
    }
  }
  const retry = new ReplayConflictError(error);
  journal.jobs.markUnknown(intent.idempotencyKey, retry.message);
  throw retry;
}
