import { describe, expect, it } from 'vitest';
import {
  ApiError,
  OutcomeUnknownError,
  ResponseShapeError,
} from '../../../src/main/core/api-clients/api-errors.js';
import { RetryAfterTooLongError } from '../../../src/main/core/api-clients/retry/retry-after.js';
import { RETRY_POLICIES, classify, withRetry } from '../../../src/main/core/api-clients/retry/retry.js';

const apiError = (status: number, retryAfterSeconds?: number) =>
  new ApiError({
    status,
    apiCode: `code_${status}`,
    message: 'refused',
    retryable: status >= 429,
    retryAfterSeconds,
  });

/** A clock that records each wait instead of waiting. */
function recordingClock() {
  const waits: number[] = [];
  let now = 1_000_000;
  return {
    waits,
    clock: {
      now: () => now,
      sleep: async (ms: number, signal?: AbortSignal) => {
        if (signal?.aborted) throw signal.reason;
        waits.push(ms);
        now += ms;
      },
    },
  };
}

/** A send that fails with `errors` in turn, then answers 'ok'. */
function failing(...errors: unknown[]) {
  const sends: number[] = [];
  return {
    sends,
    send: async (attempt: number) => {
      sends.push(attempt);
      const error = errors[sends.length - 1];
      if (error) throw error;
      return 'ok';
    },
  };
}

const noJitter = { backoff: { initialMs: 100, maxMs: 1_000, factor: 2, jitter: 0 } };

describe('classify', () => {
  it('retries 429, 503 (and other 5xx) and 408 with the server’s wait; never another 4xx', () => {
    expect(classify(apiError(429, 12))).toEqual({ kind: 'retry', afterSeconds: 12 });
    expect(classify(apiError(503))).toEqual({ kind: 'retry', afterSeconds: undefined });
    expect(classify(apiError(500, 3))).toEqual({ kind: 'retry', afterSeconds: 3 });
    expect(classify(apiError(408))).toEqual({ kind: 'retry', afterSeconds: undefined });
    for (const status of [400, 401, 402, 403, 404, 409, 413, 415, 422])
      expect(classify(apiError(status, 5))).toEqual({ kind: 'final' });
  });

  it('a 504 or no answer is an unknown outcome; a body that breaks the contract or a local error is final', () => {
    expect(classify(apiError(504, 2))).toEqual({ kind: 'unknown_outcome', afterSeconds: 2 });
    expect(classify(new OutcomeUnknownError('Create job', 'reset'))).toEqual({
      kind: 'unknown_outcome',
      afterSeconds: undefined,
    });
    expect(classify(new ResponseShapeError('Create job', 'not a job'))).toEqual({ kind: 'final' });
    expect(classify(new Error('disk'))).toEqual({ kind: 'final' });
  });
});

describe('the policy table', () => {
  it('names every repeated call once: writes under a key resend unknown outcomes, synchronous calls never', () => {
    expect(Object.keys(RETRY_POLICIES).sort()).toEqual(
      ['create', 'download', 'optimization', 'playgroundUpload', 'syncCall', 'upload'].sort(),
    );
    expect(RETRY_POLICIES.create).toMatchObject({ attempts: 6, resendUnknown: true });
    expect(RETRY_POLICIES.optimization).toMatchObject({ attempts: 4, resendUnknown: true });
    expect(RETRY_POLICIES.upload).toMatchObject({ attempts: 4, resendUnknown: true });
    expect(RETRY_POLICIES.syncCall).toMatchObject({
      attempts: 3,
      resendUnknown: false,
      maxTotalWaitMs: 120_000,
    });
    expect(RETRY_POLICIES.playgroundUpload).toMatchObject({
      attempts: 3,
      resendUnknown: false,
      maxTotalWaitMs: 120_000,
    });
  });
});

describe('withRetry', () => {
  it('waits what Retry-After says (never less), then sends again', async () => {
    const { clock, waits } = recordingClock();
    const call = failing(apiError(429, 12), apiError(503));
    await expect(withRetry('create', call.send, { clock, policy: noJitter })).resolves.toBe('ok');
    expect(call.sends).toEqual([0, 1, 2]);
    expect(waits).toEqual([12_000, 200]);
  });

  it('never sends a final refusal again', async () => {
    const { clock, waits } = recordingClock();
    const call = failing(apiError(422));
    await expect(withRetry('create', call.send, { clock })).rejects.toMatchObject({ status: 422 });
    expect(call.sends).toHaveLength(1);
    expect(waits).toEqual([]);
  });

  it('resends an unknown outcome only where the row allows it', async () => {
    const write = failing(new OutcomeUnknownError('Create job', 'reset'));
    await expect(withRetry('create', write.send, { clock: recordingClock().clock })).resolves.toBe('ok');
    expect(write.sends).toHaveLength(2);

    const sync = failing(apiError(504));
    await expect(withRetry('syncCall', sync.send, { clock: recordingClock().clock })).rejects.toMatchObject({
      status: 504,
    });
    expect(sync.sends).toHaveLength(1);
  });

  it('stops after the row’s attempts with the last error', async () => {
    const call = failing(...Array.from({ length: 10 }, () => apiError(503)));
    await expect(withRetry('syncCall', call.send, { clock: recordingClock().clock })).rejects.toMatchObject({
      status: 503,
    });
    expect(call.sends).toHaveLength(RETRY_POLICIES.syncCall.attempts);
  });

  it('a server asking for longer than the total wait left stops with "the service asked to wait N s"', async () => {
    const { clock } = recordingClock();
    const call = failing(apiError(429, 100), apiError(429, 100));
    const error = await withRetry('syncCall', call.send, { clock }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RetryAfterTooLongError);
    expect((error as Error).message).toContain('asked to wait 100 s');
    expect(call.sends).toHaveLength(2);
  });

  it('does not wait past the deadline: the last error is thrown instead', async () => {
    const { clock, waits } = recordingClock();
    const call = failing(apiError(429, 10));
    await expect(
      withRetry('create', call.send, { clock, deadline: clock.now() + 5_000 }),
    ).rejects.toBeInstanceOf(RetryAfterTooLongError);
    expect(waits).toEqual([]);
    const later = failing(apiError(503));
    await expect(
      withRetry('create', later.send, { clock, deadline: clock.now() + 50, policy: noJitter }),
    ).rejects.toMatchObject({ status: 503 });
    expect(later.sends).toHaveLength(1);
  });

  it('a stop ends a wait under way at once, with the stop’s reason', async () => {
    const stop = new AbortController();
    const call = failing(apiError(503, 60));
    const run = withRetry('create', call.send, { signal: stop.signal });
    setTimeout(() => stop.abort(new Error('closing')), 20);
    const started = Date.now();
    await expect(run).rejects.toThrow('closing');
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(call.sends).toHaveLength(1);
  });
});
