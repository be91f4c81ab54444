import { AppError } from '../../errors.js';
import { sleep } from './backoff.js';

/**
 * The one rule for a server's "wait before trying again" (a `Retry-After` header, in seconds or as
 * an HTTP date, or a body hint such as `retryAfterSeconds`), used by creation, optimization, both
 * upload paths, synchronous calls, downloads and polling:
 *
 * - wait at least what the server says (never retry early);
 * - the wait is bounded by {@link MAX_RETRY_AFTER_SECONDS} and by the caller's remaining total
 *   wait limit; a server that asks for longer than that is not retried early: the caller stops
 *   with a {@link RetryAfterTooLongError} ("the service asked to wait N s");
 * - without a server value, the caller's own back-off step is used.
 */

/** The longest a server can make Framewright wait before one retry (5 minutes). */
export const MAX_RETRY_AFTER_SECONDS = 300;

/** Time as the retry loops see it: real by default, injectable so tests need not wait. */
export interface RetryClock {
  now(): number;
  /** Resolves after `ms`, or rejects with the signal's reason when it is aborted first. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export const systemClock: RetryClock = { now: () => Date.now(), sleep };

/** Seconds from a `Retry-After` header: delta-seconds or an HTTP date (past dates are 0). */
export function parseRetryAfter(
  header: string | null | undefined,
  now: number = Date.now(),
): number | undefined {
  if (!header) return undefined;
  const trimmed = header.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Number(trimmed);
  if (!/[a-z]/i.test(trimmed)) return undefined; // an HTTP date names its day and month
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : Math.max(0, (date - now) / 1000);
}

/** A numeric "retry after" hint of a JSON body (`retryAfterSeconds`, top level or in `details`). */
export function retryAfterHint(body: unknown): number | undefined {
  if (!body || typeof body !== 'object') return undefined;
  const record = body as { retryAfterSeconds?: unknown; details?: { retryAfterSeconds?: unknown } };
  const value = record.retryAfterSeconds ?? record.details?.retryAfterSeconds;
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined;
}

/** The server asked to wait longer than Framewright waits here: stop rather than retry early. */
export class RetryAfterTooLongError extends AppError {
  readonly seconds: number;
  readonly limitSeconds: number;
  constructor(operation: string, seconds: number, limitSeconds: number) {
    const asked = Math.ceil(seconds);
    const limit = Math.floor(limitSeconds);
    super(
      'api.retry_after_too_long',
      `${operation}: the service asked to wait ${asked} s before trying again, longer than Framewright waits here (${limit} s); it stopped instead of retrying early. Try again later.`,
      { retryAfterSeconds: asked, limitSeconds: limit },
    );
    this.name = 'RetryAfterTooLongError';
    this.seconds = seconds;
    this.limitSeconds = limitSeconds;
  }
}

export interface RetryWaitInput {
  /** What the server asked, in seconds (header first, else body hint); undefined when it said nothing. */
  serverSeconds: number | undefined;
  /** The caller's own back-off step for this attempt, used when the server said nothing. */
  ownDelayMs: number;
  /** What is left of the caller's total wait limit, in ms (none: only the documented maximum). */
  remainingMs?: number;
  /** Names the call in the error ("Upload asset", "Embeddings", …). */
  operation: string;
}

/**
 * The wait before the next try, by the one rule above. Throws {@link RetryAfterTooLongError} when
 * the server asks for more than the documented maximum or the caller's remaining limit.
 */
export function retryWaitMs(input: RetryWaitInput): number {
  if (input.serverSeconds === undefined) return input.ownDelayMs;
  const limitMs = Math.min(MAX_RETRY_AFTER_SECONDS * 1000, input.remainingMs ?? Infinity);
  const serverMs = Math.ceil(input.serverSeconds * 1000);
  if (serverMs > limitMs)
    throw new RetryAfterTooLongError(input.operation, input.serverSeconds, limitMs / 1000);
  return Math.min(limitMs, Math.max(serverMs, input.ownDelayMs));
}
