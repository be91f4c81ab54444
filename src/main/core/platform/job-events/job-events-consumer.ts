import { EventSourceParserStream } from 'eventsource-parser/stream';
import type { EventSourceMessage } from 'eventsource-parser/stream';
import { compareEventCursors, isEventCursor } from '../../journal/event-cursors-repository.js';
import { ApiError, apiErrorFromResponse } from '../../api-clients/api-errors.js';
import {
  DEFAULT_POLL_BACKOFF,
  DEFAULT_RETRY_BACKOFF,
  backoffDelay,
  sleep,
} from '../../api-clients/retry/backoff.js';
import type { BackoffPolicy } from '../../api-clients/retry/backoff.js';
import {
  RetryAfterTooLongError,
  retryWaitMs,
  systemClock,
  type RetryClock,
} from '../../api-clients/retry/retry-after.js';

/** Spec, Limits: `GET /media/events` takes 1..200 events per round (default 50). */
export const EVENTS_LIMIT_MIN = 1;
export const EVENTS_LIMIT_MAX = 200;
export const EVENTS_LIMIT_DEFAULT = 50;
/** The stream's key in the subject journal's `event_cursors`. */
export const RUNTIME_EVENTS_STREAM = 'runtime.media-events';
/** No byte for this long (the platform sends a heartbeat every 10 s): the connection is taken as dead. */
export const EVENTS_IDLE_TIMEOUT_MS = 35_000;

/** The one HTTP call: `GET {runtime}/media/events` as the session's person (lane runtime-jobs' client). */
export interface RuntimeEventsSource {
  /** `cursor` goes out as `Last-Event-ID`; it is always a numeric acknowledged cursor, never a job id. */
  openEvents(request: {
    sessionId: string;
    cursor: string | undefined;
    limit: number;
    signal: AbortSignal;
  }): Promise<Response>;
}

/** The person's runtime session right now (null: none, e.g. until the application is reopened). */
export interface RuntimeSessionSource {
  current(): Promise<string | null> | string | null;
}

/** Where the acknowledged cursor lives (the subject journal's `eventCursors`). */
export interface EventCursorStore {
  get(stream: string): string | undefined;
  set(stream: string, cursor: string): void;
}

/**
 * What the consumer tells: a job whose state may have changed. The handler reads the truth with the
 * single-job read `GET /media/jobs/{id}` (and downloads results); the event payload is never trusted.
 */
export interface JobChangeHandler {
  jobMayHaveChanged(platformJobId: string): Promise<void>;
  /** The platform job ids not yet finished (the polling fallback reads each while the stream is down). */
  unfinishedJobIds(): Promise<readonly string[]> | readonly string[];
}

export type JobEventsState = 'connecting' | 'streaming' | 'polling' | 'stopped';

export interface JobEventsConsumerOptions {
  events: RuntimeEventsSource;
  session: RuntimeSessionSource;
  cursors: EventCursorStore;
  handler: JobChangeHandler;
  /** Events per round, 1..200 (default 50). */
  limit?: number;
  /** Reconnect waits after a failed connection (bounded; default 1 s → 30 s). */
  reconnectBackoff?: BackoffPolicy;
  /** Polling while the stream is down (default 2 s → 10 s, the spec's polling limit). */
  pollBackoff?: BackoffPolicy;
  idleTimeoutMs?: number;
  /** Called on each state change (tests, the host's status line). */
  onState?: (state: JobEventsState) => void;
  /** Called with an error that did not stop the consumer (a failed connection, a handler failure). */
  onError?: (error: unknown) => void;
  /** The reconnect waits' clock (tests: no real waiting). */
  clock?: RetryClock;
}

/** Why the consumer stopped for good: the session is gone or refused (reopen the application). */
export type JobEventsStop =
  { reason: 'aborted' } | { reason: 'no_session' } | { reason: 'refused'; error: ApiError };

class StreamFailed extends Error {}

/**
 * One consumer per user session of the runtime's job events (spec "Events"): each `job` event is
 * processed (the handler re-reads the job) and only then acknowledged, its cursor persisted; an
 * event whose cursor is not after the acknowledged one is a repeat and skipped; a stream that ends
 * (`done`: a round cut by `limit`, or the platform's 5-minute end of a live stream) is reopened at
 * once with `Last-Event-ID` = the acknowledged cursor; one that fails is reopened after a bounded
 * back-off, and while it is down the unfinished jobs are polled (2 s → 10 s) until it is back.
 */
export class JobEventsConsumer {
  private readonly limit: number;
  private state: JobEventsState = 'stopped';
  private acknowledged: string | undefined;

  constructor(private readonly options: JobEventsConsumerOptions) {
    const limit = options.limit ?? EVENTS_LIMIT_DEFAULT;
    if (!Number.isInteger(limit) || limit < EVENTS_LIMIT_MIN || limit > EVENTS_LIMIT_MAX)
      throw new RangeError(
        `The events limit must be an integer from ${EVENTS_LIMIT_MIN} to ${EVENTS_LIMIT_MAX}.`,
      );
    this.limit = limit;
  }

  /** The last acknowledged cursor (persisted). */
  get cursor(): string | undefined {
    return this.acknowledged;
  }

  get currentState(): JobEventsState {
    return this.state;
  }

  /** Runs until `signal` aborts, the session is gone, or the platform refuses the stream (401/402/403/404). */
  async run(signal: AbortSignal): Promise<JobEventsStop> {
    const stored = this.options.cursors.get(RUNTIME_EVENTS_STREAM);
    this.acknowledged = isEventCursor(stored) ? stored : undefined;
    let failures = 0;
    let lastError: unknown;
    let polling: { stop: AbortController; done: Promise<void> } | undefined;
    const stopPolling = async () => {
      if (!polling) return;
      const running = polling;
      polling = undefined; // a failure right after this starts a new polling loop
      running.stop.abort();
      await running.done;
    };
    try {
      while (!signal.aborted) {
        const sessionId = await this.options.session.current();
        // stopped while the session was read: a stream opened now would never be closed
        if (signal.aborted) break;
        if (!sessionId) return { reason: 'no_session' };
        if (!polling) this.setState('connecting');
        try {
          await this.streamOnce(sessionId, signal, () => {
            failures = 0;
            lastError = undefined;
            void stopPolling();
            this.setState('streaming');
          });
          continue; // ended with `done`: reopen at once from the acknowledged cursor
        } catch (error) {
          if (signal.aborted) break;
          if (error instanceof ApiError && isFinalRefusal(error)) return { reason: 'refused', error };
          lastError = error;
          this.options.onError?.(error);
        }
        if (!polling) {
          const stop = new AbortController();
          polling = { stop, done: this.pollWhileDown(stop.signal, signal) };
          this.setState('polling');
        }
        const ownWait = backoffDelay(this.options.reconnectBackoff ?? DEFAULT_RETRY_BACKOFF, failures);
        const wait = reconnectWaitMs(lastError, ownWait);
        failures += 1;
        await (this.options.clock ?? systemClock).sleep(wait, signal).catch(() => undefined);
      }
      return { reason: 'aborted' };
    } finally {
      await stopPolling();
      this.setState('stopped');
    }
  }

  private setState(state: JobEventsState): void {
    if (state === this.state) return;
    this.state = state;
    this.options.onState?.(state);
  }

  /** Opens the stream once and processes it to its end; throws when it fails before `done`. */
  private async streamOnce(sessionId: string, outer: AbortSignal, onOpen: () => void): Promise<void> {
    const connection = new AbortController();
    const abort = () => connection.abort(outer.reason);
    if (outer.aborted) abort();
    else outer.addEventListener('abort', abort, { once: true });
    const idleMs = this.options.idleTimeoutMs ?? EVENTS_IDLE_TIMEOUT_MS;
    let idle: ReturnType<typeof setTimeout> | undefined;
    const touch = () => {
      clearTimeout(idle);
      idle = setTimeout(() => connection.abort(new StreamFailed('no data from the events stream')), idleMs);
    };
    try {
      touch();
      const response = await this.options.events.openEvents({
        sessionId,
        cursor: this.acknowledged,
        limit: this.limit,
        signal: connection.signal,
      });
      if (!response.ok) throw await apiErrorFromResponse(response);
      if (!/^text\/event-stream\b/i.test(response.headers.get('content-type') ?? ''))
        throw new StreamFailed('the events answer is not text/event-stream');
      if (!response.body) throw new StreamFailed('the events answer has no body');
      onOpen();
      const messages = response.body
        .pipeThrough(new TextDecoderStream())
        .pipeThrough(new EventSourceParserStream());
      for await (const message of messages) {
        touch();
        if (await this.process(message)) return;
      }
      throw new StreamFailed('the events stream ended without done');
    } finally {
      clearTimeout(idle);
      outer.removeEventListener('abort', abort);
      connection.abort();
    }
  }

  /** Handles one message; true when it is `done` (the round is over). */
  private async process(message: EventSourceMessage): Promise<boolean> {
    const id = isEventCursor(message.id) ? message.id : undefined;
    switch (message.event) {
      case 'job': {
        if (!id) return false; // no numeric cursor: cannot be acknowledged, so not trusted either
        if (this.acknowledged !== undefined && compareEventCursors(id, this.acknowledged) <= 0) return false;
        const jobId = jobIdOf(message.data);
        if (jobId) await this.options.handler.jobMayHaveChanged(jobId);
        this.acknowledge(id);
        return false;
      }
      case 'snapshot': {
        // the snapshot is bounded (absence is not a loss); its unfinished jobs are re-read once
        const unfinished = new Set(await this.options.handler.unfinishedJobIds());
        for (const jobId of snapshotJobIds(message.data))
          if (unfinished.has(jobId)) await this.options.handler.jobMayHaveChanged(jobId);
        if (id) this.acknowledge(id);
        return false;
      }
      case 'heartbeat':
        if (id) this.acknowledge(id);
        return false;
      case 'done':
        if (id) this.acknowledge(id);
        return true;
      default:
        return false;
    }
  }

  /** Persists `cursor` after its event was processed; never moves backwards. */
  private acknowledge(cursor: string): void {
    if (this.acknowledged !== undefined && compareEventCursors(cursor, this.acknowledged) <= 0) return;
    this.options.cursors.set(RUNTIME_EVENTS_STREAM, cursor);
    this.acknowledged = cursor;
  }

  /** While the stream is down: each unfinished job is read, 2 s → 10 s apart, until stopped. */
  private async pollWhileDown(stop: AbortSignal, outer: AbortSignal): Promise<void> {
    const policy = this.options.pollBackoff ?? DEFAULT_POLL_BACKOFF;
    for (let round = 0; !stop.aborted && !outer.aborted; round += 1) {
      const waited = await sleep(backoffDelay(policy, round), AbortSignal.any([stop, outer])).then(
        () => true,
        () => false,
      );
      if (!waited) return;
      try {
        for (const jobId of await this.options.handler.unfinishedJobIds()) {
          if (stop.aborted || outer.aborted) return;
          await this.options.handler.jobMayHaveChanged(jobId);
        }
      } catch (error) {
        this.options.onError?.(error);
      }
    }
  }
}

/**
 * The wait before reopening the stream, by the one rule of retry-after.ts: what a 429/503 asked
 * (`Retry-After`, never less), else the own back-off. The consumer is background work with no
 * caller waiting for it, so an ask beyond `MAX_RETRY_AFTER_SECONDS` (which stops a caller that
 * waits) is waited in full rather than cut short; the unfinished jobs are polled meanwhile.
 */
function reconnectWaitMs(error: unknown, ownDelayMs: number): number {
  const serverSeconds = error instanceof ApiError ? error.retryAfterSeconds : undefined;
  try {
    return retryWaitMs({ serverSeconds, ownDelayMs, operation: 'Job events' });
  } catch (tooLong) {
    if (tooLong instanceof RetryAfterTooLongError) return Math.ceil(tooLong.seconds * 1000);
    throw tooLong;
  }
}

/** 401 (reopen the application), 402/403 (stop), 404 (do not probe): reconnecting would not help. */
function isFinalRefusal(error: ApiError): boolean {
  return [400, 401, 402, 403, 404].includes(error.status);
}

function parseJson(data: string): unknown {
  try {
    return JSON.parse(data) as unknown;
  } catch {
    return undefined;
  }
}

function jobIdOf(data: string): string | undefined {
  const value = parseJson(data);
  if (typeof value !== 'object' || value === null) return undefined;
  const id = (value as { platformJobId?: unknown }).platformJobId;
  return typeof id === 'string' && id !== '' ? id : undefined;
}

function snapshotJobIds(data: string): string[] {
  const value = parseJson(data);
  const jobs = typeof value === 'object' && value !== null ? (value as { jobs?: unknown }).jobs : undefined;
  if (!Array.isArray(jobs)) return [];
  return jobs.flatMap((job: unknown) => {
    const id =
      typeof job === 'object' && job !== null
        ? (job as { platformJobId?: unknown }).platformJobId
        : undefined;
    return typeof id === 'string' && id !== '' ? [id] : [];
  });
}
