import { AppError } from '../errors.js';
import type { Journal } from '../journal/open-journal.js';
import { isTerminalStatus, type JobWithOutputs } from '../journal/jobs-repository.js';
import { ApiError } from '../api-clients/api-errors.js';
import { RetryAfterTooLongError, retryWaitMs } from '../api-clients/retry/retry-after.js';
import {
  DEFAULT_POLL_BACKOFF,
  backoffDelay,
  sleepUnlessStopped,
  type BackoffPolicy,
} from '../api-clients/retry/backoff.js';
import { classify } from '../api-clients/retry/retry.js';
import { snapshotOf } from './job-snapshot.js';
import type { MediaJobTransport } from './media-job-transport.js';

export interface PollOptions {
  /** The total wait limit (epoch ms). Past it the job stays pending in the journal, to be resumed. */
  deadline: number;
  backoff?: BackoffPolicy;
  /** The engine is stopping: the job stays pending in the journal, to be resumed. */
  signal?: AbortSignal;
  onUpdate?: (job: JobWithOutputs) => void;
  /** Test seam: called after each recorded poll. */
  afterPoll?: (job: JobWithOutputs) => void;
  /**
   * Pushed word that a job may have changed (the runtime's job events): a back-off wait ends early
   * and the job is read at once. A wait the server asked for (`Retry-After`) is never cut short.
   */
  wake?: JobWake;
}

/** Wakes a job's poll wait when an event names the job; told after each recorded read. */
export interface JobWake {
  /** Resolves when an event names `jobId` (or when `signal` aborts). */
  until(jobId: string, signal: AbortSignal): Promise<void>;
  /** The job was read and the read recorded. */
  read(jobId: string): void;
}

export type PollOutcome =
  { state: 'terminal'; job: JobWithOutputs } | { state: 'pending'; job: JobWithOutputs };

/**
 * Polls one accepted job by its `jobUrl` until `status` is terminal or the wait limit passes.
 * Decides by `status` only (never HTTP status or `stage`), honours `Retry-After` (header first,
 * else `refreshAfterSeconds` / `retryAfterSeconds`) by the one rule of platform/retry/retry-after.ts,
 * backs off from 2 s up to 10 s, and never resubmits. A wait the server asks for beyond the wait
 * limit is not shortened: the job stays pending, its next poll scheduled when the server said.
 */
export async function pollJob(
  journal: Journal,
  transport: MediaJobTransport,
  start: JobWithOutputs,
  options: PollOptions,
): Promise<PollOutcome> {
  const backoff = options.backoff ?? DEFAULT_POLL_BACKOFF;
  const clock = transport.clock;
  /** The wait before the next poll, or undefined when the server asked for longer than the limit. */
  const waitBefore = (attempt: number, serverSeconds: number | undefined): number | undefined => {
    try {
      return retryWaitMs({
        serverSeconds,
        ownDelayMs: backoffDelay(backoff, attempt),
        remainingMs: options.deadline - clock.now(),
        operation: 'Poll job',
      });
    } catch (error) {
      if (error instanceof RetryAfterTooLongError) return undefined;
      throw error;
    }
  };
  const stayPending = (serverSeconds: number | undefined): PollOutcome => {
    if (serverSeconds !== undefined) journal.jobs.schedulePoll(job.id, clock.now() + serverSeconds * 1000);
    return { state: 'pending', job: journal.jobs.getJob(job.id)! };
  };
  /** A back-off wait, ended early by an event naming the job (never a wait the server asked for). */
  const pause = async (ms: number, serverAsked: boolean): Promise<boolean> => {
    const wake = options.wake;
    if (!wake || serverAsked) return sleepUnlessStopped(ms, options.signal, clock);
    const local = new AbortController();
    const stop = () => local.abort();
    options.signal?.addEventListener('abort', stop, { once: true });
    try {
      await Promise.race([sleepUnlessStopped(ms, local.signal, clock), wake.until(job.jobId, local.signal)]);
      return !options.signal?.aborted;
    } finally {
      options.signal?.removeEventListener('abort', stop);
      local.abort();
    }
  };
  let job = start;
  let attempt = 0;
  while (!isTerminalStatus(job.status)) {
    let serverSeconds = job.retryAfterSeconds ?? job.refreshAfterSeconds;
    if (attempt === 0 && job.pollCount === 0) {
      const wait = waitBefore(0, serverSeconds);
      if (wait === undefined) return stayPending(serverSeconds);
      if (clock.now() + wait > options.deadline) return { state: 'pending', job };
      if (!(await pause(wait, serverSeconds !== undefined))) return { state: 'pending', job };
    }
    let recorded = false;
    try {
      const polled = await transport.getJob({ jobId: job.jobId, model: job.model, jobUrl: job.jobUrl });
      const read = polled.job;
      if (read.jobId !== job.jobId) {
        throw new AppError('job.mismatch', `Polling ${job.jobId} answered job ${read.jobId}.`);
      }
      job = journal.jobs.recordPoll(job.id, snapshotOf(read, polled.retryAfterSeconds));
      recorded = true;
      options.wake?.read(job.jobId);
      serverSeconds = polled.retryAfterSeconds ?? read.refreshAfterSeconds ?? read.retryAfterSeconds;
      options.afterPoll?.(job);
    } catch (error) {
      // 401/403/404…: the caller says what to do; a read is safe to repeat whatever its outcome
      if (classify(error).kind === 'final') throw error;
      if (error instanceof ApiError) serverSeconds = error.retryAfterSeconds;
    }
    // a recorded read is told once, with its next poll already planned (the Queue and CLI show it)
    const told = (outcome: PollOutcome): PollOutcome => {
      if (recorded) options.onUpdate?.(outcome.job);
      return outcome;
    };
    if (isTerminalStatus(job.status)) {
      told({ state: 'terminal', job });
      break;
    }
    attempt += 1;
    const delay = waitBefore(attempt, serverSeconds);
    if (delay === undefined) return told(stayPending(serverSeconds));
    const nextPollAt = clock.now() + delay;
    journal.jobs.schedulePoll(job.id, nextPollAt);
    job = journal.jobs.getJob(job.id)!;
    told({ state: 'pending', job });
    if (nextPollAt > options.deadline) return { state: 'pending', job };
    if (!(await pause(delay, serverSeconds !== undefined))) return { state: 'pending', job };
  }
  return { state: 'terminal', job };
}
