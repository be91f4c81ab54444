import { ApiError, OutcomeUnknownError } from '../api-errors.js';
import { DEFAULT_RETRY_BACKOFF, backoffDelay, type BackoffPolicy } from './backoff.js';
import { retryWaitMs, systemClock, type RetryClock } from './retry-after.js';

/**
 * What a failed call means for trying it again (spec, "Errors"):
 * - `retry`: the request was not processed (429, 503 and other 5xx, 408): send it again after
 *   `afterSeconds` when the server said (`Retry-After`, or a body hint), else after the caller's
 *   own back-off;
 * - `unknown_outcome`: no answer was read (a timeout, a broken connection) or the gateway gave up
 *   (504): the service may have done the work. A write is sent again only under the same
 *   idempotency key and body, or the outcome is reported as unknown;
 * - `final`: any other answer (400/422, 401/403, 402, 404, 409, 413, 415, a body that breaks the
 *   contract, a local error): never sent again as it is.
 */
export type RetryVerdict =
  | { kind: 'retry'; afterSeconds: number | undefined }
  | { kind: 'unknown_outcome'; afterSeconds: number | undefined }
  | { kind: 'final' };

export function classify(error: unknown): RetryVerdict {
  if (error instanceof OutcomeUnknownError) return { kind: 'unknown_outcome', afterSeconds: undefined };
  if (!(error instanceof ApiError)) return { kind: 'final' };
  if (error.kind === 'gateway_timeout')
    return { kind: 'unknown_outcome', afterSeconds: error.retryAfterSeconds };
  if (error.kind === 'rate_limited' || error.kind === 'unavailable' || error.status === 408)
    return { kind: 'retry', afterSeconds: error.retryAfterSeconds };
  return { kind: 'final' };
}

/**
 * A billed synchronous call (chat, embeddings, rerank, OCR, transcription, document parse): it has
 * no idempotency key, so it is sent again only where a repeat cannot bill twice — a 429 or 503 that
 * says when to come back (`Retry-After`: the request was refused, not processed), or a connection
 * that failed before any byte left. A 500, 502, 408, a 503 without `Retry-After`, a 504 or a lost
 * answer after the request was sent is reported, not repeated (spec: "5xx: exponential back-off
 * for idempotent requests only"; "a lost response is not replayed unconditionally").
 */
export function billedCallVerdict(error: unknown): RetryVerdict {
  if (error instanceof OutcomeUnknownError)
    return error.notSent ? { kind: 'retry', afterSeconds: undefined } : { kind: 'final' };
  if (
    error instanceof ApiError &&
    (error.status === 429 || error.status === 503) &&
    error.retryAfterSeconds !== undefined
  )
    return { kind: 'retry', afterSeconds: error.retryAfterSeconds };
  return { kind: 'final' };
}

/**
 * A read of a result's bytes (spec, "Errors": "download broken or checksum mismatch → re-read the
 * same result"): a refusal of the service stays final, anything else — a broken stream, a
 * mismatching length or checksum, a 429/503/504 — is read again. Reads are safe to repeat.
 */
export function rereadVerdict(error: unknown): RetryVerdict {
  const verdict = classify(error);
  if (error instanceof ApiError && verdict.kind === 'final') return verdict;
  return { kind: 'retry', afterSeconds: verdict.kind === 'final' ? undefined : verdict.afterSeconds };
}

export interface RetryPolicy {
  /** Sends per call, counting the first. */
  attempts: number;
  /** The caller's own wait between sends when the server says nothing. */
  backoff: BackoffPolicy;
  /** Whether an unknown outcome is sent again (only writes under an idempotency key, or safe repeats). */
  resendUnknown: boolean;
  /** The most this call waits in all between its sends, in ms (none: only the Retry-After cap). */
  maxTotalWaitMs?: number;
  /** Names the call in "the service asked to wait N s". */
  label: string;
}

/** A fixed wait without jitter (synchronous calls: the user is waiting for the answer). */
const ONE_SECOND: BackoffPolicy = { initialMs: 1_000, maxMs: 1_000, factor: 1, jitter: 0 };

/**
 * The one policy table: every call Framewright repeats, by operation. A server's `Retry-After`
 * always wins over the back-off and is capped by {@link MAX_RETRY_AFTER_SECONDS} and by what is
 * left of the caller's wait limit (see retry-after.ts).
 */
export const RETRY_POLICIES = {
  /** POST of a media job under its idempotency key (replayed with the same key and body). */
  create: { attempts: 6, backoff: DEFAULT_RETRY_BACKOFF, resendUnknown: true, label: 'Create job' },
  /** Prompt optimization under `Idempotency-Key` = `clientRequestId`. */
  optimization: {
    attempts: 4,
    backoff: DEFAULT_RETRY_BACKOFF,
    resendUnknown: true,
    label: 'Optimize prompt',
  },
  /** `/assets/input` for media jobs: an upload of the same bytes is safe to repeat. */
  upload: { attempts: 4, backoff: DEFAULT_RETRY_BACKOFF, resendUnknown: true, label: 'Upload' },
  /** `/assets/input` for a Playground call: only 429/503 are sent again (the user is waiting). */
  playgroundUpload: {
    attempts: 3,
    backoff: ONE_SECOND,
    resendUnknown: false,
    maxTotalWaitMs: 120_000,
    label: 'Upload',
  },
  /**
   * Synchronous billed calls (chat, embeddings, …), judged by {@link billedCallVerdict}: sent
   * again only after a 429/503 with `Retry-After` or when no byte was sent.
   */
  syncCall: {
    attempts: 3,
    backoff: ONE_SECOND,
    resendUnknown: false,
    maxTotalWaitMs: 120_000,
    label: 'Call',
  },
  /** Re-reading one result (the same read, never a new generation). */
  download: { attempts: 4, backoff: DEFAULT_RETRY_BACKOFF, resendUnknown: true, label: 'Download result' },
} as const satisfies Record<string, RetryPolicy>;

export type RetryOperation = keyof typeof RETRY_POLICIES;

export interface RetryOptions {
  /** Aborted: no further send; a wait under way ends at once (with the signal's reason). */
  signal?: AbortSignal;
  clock?: RetryClock;
  /** No wait past this time (epoch ms): the last error is thrown instead. */
  deadline?: number;
  /** Overrides of the operation's row (tests, a resume's remaining sends). */
  policy?: Partial<RetryPolicy>;
  onRetry?: (info: { attempt: number; delayMs: number; error: unknown }) => void;
  /** How an error is judged (default {@link classify}; result reads use {@link rereadVerdict}). */
  classify?: (error: unknown) => RetryVerdict;
}

/**
 * Runs `send` under the policy of `operation`: a `final` error is thrown at once; a `retry` (and an
 * `unknown_outcome` where the policy resends it) is sent again after the wait of retry-after.ts,
 * until the attempts are used up, the deadline or the total wait would pass (the last error is
 * thrown), the server asks for longer than Framewright waits ({@link RetryAfterTooLongError}), or
 * the signal aborts. `send` gets the 0-based attempt number; what it records per attempt (the
 * journal's intent, optimization or output row) is its own business.
 */
export async function withRetry<T>(
  operation: RetryOperation,
  send: (attempt: number) => Promise<T>,
  options: RetryOptions = {},
): Promise<T> {
  const policy: RetryPolicy = { ...RETRY_POLICIES[operation], ...options.policy };
  const clock = options.clock ?? systemClock;
  let waited = 0;
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await send(attempt);
    } catch (error) {
      const verdict = (options.classify ?? classify)(error);
      if (verdict.kind === 'final') throw error;
      if (verdict.kind === 'unknown_outcome' && !policy.resendUnknown) throw error;
      if (attempt + 1 >= policy.attempts || options.signal?.aborted) throw error;
      const limits = [
        options.deadline !== undefined ? options.deadline - clock.now() : Infinity,
        policy.maxTotalWaitMs !== undefined ? policy.maxTotalWaitMs - waited : Infinity,
      ];
      const remainingMs = Math.min(...limits);
      const delayMs = retryWaitMs({
        serverSeconds: verdict.afterSeconds,
        ownDelayMs: backoffDelay(policy.backoff, attempt),
        remainingMs: Number.isFinite(remainingMs) ? remainingMs : undefined,
        operation: policy.label,
      });
      if (options.deadline !== undefined && clock.now() + delayMs > options.deadline) throw error;
      options.onRetry?.({ attempt: attempt + 1, delayMs, error });
      await clock.sleep(delayMs, options.signal);
      waited += delayMs;
    }
  }
}
