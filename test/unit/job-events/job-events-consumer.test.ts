import { describe, expect, it } from 'vitest';
import {
  JobEventsConsumer,
  RUNTIME_EVENTS_STREAM,
} from '../../../src/main/core/platform/job-events/job-events-consumer.js';
import type {
  EventCursorStore,
  JobEventsState,
  RuntimeEventsSource,
} from '../../../src/main/core/platform/job-events/job-events-consumer.js';

const FAST = { initialMs: 5, maxMs: 20, factor: 2, jitter: 0 };

function sse(...events: [event: string, id: string, data: unknown][]): string {
  return events
    .map(([event, id, data]) => `event: ${event}\nid: ${id}\ndata: ${JSON.stringify(data)}\n\n`)
    .join('');
}

/** An SSE answer: `close` ends it, `error` cuts it, `open` keeps it open until `signal` aborts. */
function streamResponse(
  text: string,
  end: 'close' | 'error' | 'open' = 'close',
  signal?: AbortSignal,
): Response {
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new TextEncoder().encode(text));
      if (end === 'close') controller.close();
      else if (end === 'error') controller.error(new Error('socket closed'));
      else signal?.addEventListener('abort', () => controller.error(signal.reason));
    },
  });
  return new Response(body, { status: 200, headers: { 'Content-Type': 'text/event-stream' } });
}

/** Answers each open with the next scripted answer; after the script, waits until aborted. */
function scriptedSource(script: (() => Response | Promise<Response>)[]) {
  const opens: { cursor: string | undefined; limit: number; sessionId: string }[] = [];
  const source: RuntimeEventsSource = {
    openEvents({ cursor, limit, signal, sessionId }) {
      opens.push({ cursor, limit, sessionId });
      const next = script.shift();
      if (next) return Promise.resolve(next());
      return new Promise((_, reject) => signal.addEventListener('abort', () => reject(signal.reason)));
    },
  };
  return { source, opens };
}

function memoryCursors(initial?: string): EventCursorStore & { writes: string[] } {
  let value = initial;
  const writes: string[] = [];
  return {
    writes,
    get: (stream) => (stream === RUNTIME_EVENTS_STREAM ? value : undefined),
    set: (_stream, cursor) => {
      writes.push(cursor);
      value = cursor;
    },
  };
}

async function until(check: () => boolean, ms = 3_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 5));
  }
}

describe('JobEventsConsumer', () => {
  it('processes each event before acknowledging it, skips repeats by id and reconnects from the acknowledged cursor', async () => {
    const processed: string[] = [];
    const cursors = memoryCursors();
    const job = (id: string, jobId: string): [string, string, unknown] => [
      'job',
      id,
      { platformJobId: jobId, status: 'running' },
    ];
    const { source, opens } = scriptedSource([
      () =>
        streamResponse(
          sse(['snapshot', '0', { jobs: [] }], job('1', 'a'), job('2', 'b'), job('2', 'b'), [
            'done',
            '2',
            { more: true },
          ]),
        ),
      () =>
        streamResponse(
          sse(['snapshot', '2', { jobs: [] }], job('1', 'a'), job('3', 'a'), ['done', '3', { more: false }]),
        ),
    ]);
    const consumer = new JobEventsConsumer({
      events: source,
      session: { current: () => 'sess-1' },
      cursors,
      limit: 200,
      handler: {
        jobMayHaveChanged: async (jobId) => {
          // the cursor of the event being processed is not acknowledged yet
          processed.push(`${jobId}@${cursors.get(RUNTIME_EVENTS_STREAM) ?? '-'}`);
        },
        unfinishedJobIds: () => [],
      },
      reconnectBackoff: FAST,
      pollBackoff: FAST,
    });
    const stop = new AbortController();
    const run = consumer.run(stop.signal);
    await until(() => opens.length === 3);
    stop.abort();
    expect(await run).toEqual({ reason: 'aborted' });
    expect(processed).toEqual(['a@0', 'b@1', 'a@2']);
    expect(opens.map((o) => o.cursor)).toEqual([undefined, '2', '3']);
    expect(opens.every((o) => o.limit === 200 && o.sessionId === 'sess-1')).toBe(true);
    expect(cursors.get(RUNTIME_EVENTS_STREAM)).toBe('3');
    expect(cursors.writes).toEqual(['0', '1', '2', '3']);
  });

  it('does not acknowledge an event whose processing failed: it is processed again after reconnecting', async () => {
    const cursors = memoryCursors('10');
    const seen: string[] = [];
    let fail = true;
    const { source, opens } = scriptedSource([
      () => streamResponse(sse(['job', '11', { platformJobId: 'x' }], ['done', '11', {}])),
      () => streamResponse(sse(['job', '11', { platformJobId: 'x' }], ['done', '11', {}])),
    ]);
    const consumer = new JobEventsConsumer({
      events: source,
      session: { current: () => 's' },
      cursors,
      handler: {
        jobMayHaveChanged: async (jobId) => {
          seen.push(jobId);
          if (fail) {
            fail = false;
            throw new Error('read failed');
          }
        },
        unfinishedJobIds: () => [],
      },
      reconnectBackoff: FAST,
      pollBackoff: { initialMs: 10_000, maxMs: 10_000, factor: 1, jitter: 0 },
      onError: () => undefined,
    });
    const stop = new AbortController();
    const run = consumer.run(stop.signal);
    await until(() => opens.length === 3);
    stop.abort();
    await run;
    expect(opens.map((o) => o.cursor)).toEqual(['10', '10', '11']);
    expect(seen).toEqual(['x', 'x']);
    expect(cursors.writes).toEqual(['11']);
  });

  it('never sends a job id as the cursor: a stored or received non-numeric id is ignored', async () => {
    const cursors = memoryCursors('pjob_1');
    const seen: string[] = [];
    const { source, opens } = scriptedSource([
      () => streamResponse(sse(['job', 'pjob_2', { platformJobId: 'pjob_2' }], ['done', '5', {}])),
    ]);
    const consumer = new JobEventsConsumer({
      events: source,
      session: { current: () => 's' },
      cursors,
      handler: { jobMayHaveChanged: async (id) => void seen.push(id), unfinishedJobIds: () => [] },
      reconnectBackoff: FAST,
    });
    const stop = new AbortController();
    const run = consumer.run(stop.signal);
    await until(() => opens.length === 2);
    stop.abort();
    await run;
    expect(opens.map((o) => o.cursor)).toEqual([undefined, '5']);
    expect(seen).toEqual([]);
  });

  it('polls the unfinished jobs while the stream is down and stops polling once it is back', async () => {
    const polled: string[] = [];
    const states: JobEventsState[] = [];
    let down = true;
    const source: RuntimeEventsSource = {
      openEvents: ({ signal }) =>
        down
          ? Promise.reject(new TypeError('fetch failed'))
          : Promise.resolve(streamResponse(sse(['snapshot', '0', { jobs: [] }]), 'open', signal)),
    };
    const consumer = new JobEventsConsumer({
      events: source,
      session: { current: () => 's' },
      cursors: memoryCursors(),
      handler: {
        jobMayHaveChanged: async (id) => void polled.push(id),
        unfinishedJobIds: () => ['j1', 'j2'],
      },
      reconnectBackoff: { initialMs: 30, maxMs: 30, factor: 1, jitter: 0 },
      pollBackoff: FAST,
      onState: (s) => states.push(s),
      onError: () => undefined,
    });
    const stop = new AbortController();
    const run = consumer.run(stop.signal);
    await until(() => polled.length >= 4);
    expect(consumer.currentState).toBe('polling');
    down = false;
    await until(() => consumer.currentState === 'streaming');
    const count = polled.length;
    await new Promise((r) => setTimeout(r, 100));
    expect(polled.length).toBe(count); // no more polling while streaming (the stream stays open)
    stop.abort();
    await run;
    expect(states.slice(0, 3)).toEqual(['connecting', 'polling', 'streaming']);
    expect(polled.slice(0, 2)).toEqual(['j1', 'j2']);
  });

  it('stops for good when the platform refuses the stream (401: reopen the application)', async () => {
    const { source, opens } = scriptedSource([
      () =>
        new Response(
          JSON.stringify({ code: 'unauthenticated', message: 'Session not valid', retryable: false }),
          {
            status: 401,
            headers: { 'Content-Type': 'application/json' },
          },
        ),
    ]);
    const consumer = new JobEventsConsumer({
      events: source,
      session: { current: () => 's' },
      cursors: memoryCursors(),
      handler: { jobMayHaveChanged: async () => undefined, unfinishedJobIds: () => [] },
    });
    const stop = await consumer.run(new AbortController().signal);
    expect(stop.reason).toBe('refused');
    expect(opens).toHaveLength(1);
  });

  it('stops without a session and refuses a limit outside 1..200', async () => {
    const base = {
      events: scriptedSource([]).source,
      cursors: memoryCursors(),
      handler: { jobMayHaveChanged: async () => undefined, unfinishedJobIds: () => [] },
    };
    expect(
      await new JobEventsConsumer({ ...base, session: { current: () => null } }).run(
        new AbortController().signal,
      ),
    ).toEqual({
      reason: 'no_session',
    });
    expect(() => new JobEventsConsumer({ ...base, session: { current: () => 's' }, limit: 0 })).toThrow(
      /1 to 200/,
    );
    expect(() => new JobEventsConsumer({ ...base, session: { current: () => 's' }, limit: 201 })).toThrow(
      /1 to 200/,
    );
  });
});

describe('JobEventsConsumer and a busy platform', () => {
  it('waits at least the Retry-After of a 503 before reopening the stream', async () => {
    const times: number[] = [];
    const { source, opens } = scriptedSource([
      () =>
        new Response(JSON.stringify({ code: 'unavailable', message: 'Busy', retryable: true }), {
          status: 503,
          headers: { 'Content-Type': 'application/json', 'Retry-After': '1' },
        }),
      () => streamResponse(sse(['done', '1', {}])),
    ]);
    const consumer = new JobEventsConsumer({
      events: {
        openEvents: (request) => {
          times.push(Date.now());
          return source.openEvents(request);
        },
      },
      session: { current: () => 's' },
      cursors: memoryCursors(),
      handler: { jobMayHaveChanged: async () => undefined, unfinishedJobIds: () => [] },
      reconnectBackoff: FAST,
      pollBackoff: FAST,
      onError: () => undefined,
    });
    const stop = new AbortController();
    const run = consumer.run(stop.signal);
    await until(() => opens.length >= 2);
    stop.abort();
    await run;
    expect(times[1]! - times[0]!).toBeGreaterThanOrEqual(990);
  });

  it('honours a Retry-After longer than 300 s in full: the stream is not reopened before the server asked', async () => {
    const waits: number[] = [];
    let release: (() => void) | undefined;
    const clock = {
      now: () => Date.now(),
      // records the wait; the test lets it end at once (no real 10-minute wait)
      sleep: (ms: number) => {
        waits.push(ms);
        return new Promise<void>((resolve) => (release = resolve));
      },
    };
    const { source, opens } = scriptedSource([
      () =>
        new Response(JSON.stringify({ code: 'unavailable', message: 'Busy', retryable: true }), {
          status: 503,
          headers: { 'Content-Type': 'application/json', 'Retry-After': '600' },
        }),
      () => streamResponse(sse(['done', '1', {}])),
    ]);
    const consumer = new JobEventsConsumer({
      events: source,
      session: { current: () => 's' },
      cursors: memoryCursors(),
      handler: { jobMayHaveChanged: async () => undefined, unfinishedJobIds: () => [] },
      reconnectBackoff: FAST,
      pollBackoff: FAST,
      onError: () => undefined,
      clock,
    });
    const stop = new AbortController();
    const run = consumer.run(stop.signal);
    await until(() => waits.length >= 1, 1_000);
    expect(waits[0]).toBe(600_000);
    expect(opens).toHaveLength(1);
    release!();
    await until(() => opens.length >= 2);
    stop.abort();
    release?.();
    await run;
  });

  it('stopped while it reads the session, it opens no stream and ends (a stream opened then would never close)', async () => {
    const { source, opens } = scriptedSource([() => streamResponse(sse(), 'open')]);
    const stop = new AbortController();
    let answerSession: (id: string) => void = () => undefined;
    const consumer = new JobEventsConsumer({
      events: source,
      session: { current: () => new Promise<string>((resolve) => (answerSession = resolve)) },
      cursors: memoryCursors(),
      handler: { jobMayHaveChanged: async () => undefined, unfinishedJobIds: () => [] },
      reconnectBackoff: FAST,
      pollBackoff: FAST,
    });
    const ended = consumer.run(stop.signal);
    stop.abort();
    answerSession('sess-1');
    expect(await ended).toEqual({ reason: 'aborted' });
    expect(opens).toHaveLength(0);
  });
});
