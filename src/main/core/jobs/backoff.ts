/** Bounded, jittered waiting: every loop in the job lifecycle waits through these. */

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
/** A Retry-After larger than this is capped: the client stays bounded whatever the server says. */
export const MAX_HONOURED_RETRY_AFTER_MS = 5 * 60_000;

export function backoffDelay(
  policy: BackoffPolicy,
  attempt: number,
  random: () => number = Math.random,
): number {
  const base = Math.min(policy.maxMs, policy.initialMs * policy.factor ** Math.max(0, attempt));
  const spread = base * policy.jitter * (random() * 2 - 1);
  return Math.max(0, Math.round(base + spread));
}

/**
 * The wait before the next try: at least what the server asked (`Retry-After` or a hint, in
 * seconds), at least our own back-off step, never more than the cap. A server's Retry-After is
 * honoured exactly (jitter only ever adds).
 */
export function nextDelay(
  policy: BackoffPolicy,
  attempt: number,
  serverSeconds: number | undefined,
  random: () => number = Math.random,
): number {
  const own = backoffDelay(policy, attempt, random);
  if (serverSeconds === undefined) return own;
  const server = Math.min(MAX_HONOURED_RETRY_AFTER_MS, serverSeconds * 1000);
  return Math.max(own, Math.round(server + server * policy.jitter * random()));
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
export async function sleepUnlessStopped(ms: number, signal?: AbortSignal): Promise<boolean> {
  if (signal?.aborted) return false;
  try {
    await sleep(ms, signal);
    return true;
  } catch (error) {
    if (signal?.aborted) return false;
    throw error;
  }
}
