import type { RetryClock } from './retry-after.js';

/**
 * Bounded, jittered waiting: every loop in the job lifecycle waits through these. What a server
 * asks (`Retry-After`, hints) is applied by the one rule of platform/retry-after.ts.
 */

export interface BackoffPolicy {
  initialMs: number;
  maxMs: number;
  factor: number;
  /** 0..1: the delay is spread by ± this fraction so that many clients do not retry in step. */
  jitter: number;
}

/** Polling: from 2 s up to 10 s (the server's hints may ask for longer). */
export const DEFAULT_POLL_BACKOFF: BackoffPolicy = {
  initialMs: 2_000,
  maxMs: 10_000,
  factor: 1.5,
  jitter: 0.1,
};
/** Retrying a write after 429/503/504 or a lost connection, when the server gives no Retry-After. */
export const DEFAULT_RETRY_BACKOFF: BackoffPolicy = {
  initialMs: 1_000,
  maxMs: 30_000,
  factor: 2,
  jitter: 0.2,
};

export function backoffDelay(
  policy: BackoffPolicy,
  attempt: number,
  random: () => number = Math.random,
): number {
  const base = Math.min(policy.maxMs, policy.initialMs * policy.factor ** Math.max(0, attempt));
  const spread = base * policy.jitter * (random() * 2 - 1);
  return Math.max(0, Math.round(base + spread));
}

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** Waits `ms` unless `signal` is aborted first; says whether the full wait happened. */
export async function sleepUnlessStopped(
  ms: number,
  signal?: AbortSignal,
  clock: Pick<RetryClock, 'sleep'> = { sleep },
): Promise<boolean> {
  if (signal?.aborted) return false;
  try {
    await clock.sleep(ms, signal);
    return true;
  } catch (error) {
    if (signal?.aborted) return false;
    throw error;
  }
}
