import { createServer, request as httpRequest } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  JobEventsConsumer,
  RUNTIME_EVENTS_STREAM,
} from '../../../src/main/core/platform/job-events/job-events-consumer.js';
import type {
  JobChangeHandler,
  RuntimeEventsSource,
} from '../../../src/main/core/platform/job-events/job-events-consumer.js';
import { openJournal } from '../../../src/main/core/journal/index.js';
import type { Json } from '../simulator/client.js';
import { runtimeCall, type PlatformApp, type PlatformClient } from '../simulator/platform/platform-client.js';
import { usePlatformWorld } from '../simulator/platform/platform-fixture.js';
import { tempFolder } from '../../support/worlds/temp-folder.js';

let client: PlatformClient;
let studio: PlatformApp;
let sessionId: string;
let dataDir: string;

usePlatformWorld({ sessions: ['member'] }, (world) => {
  client = world.client;
  studio = world.studio;
  sessionId = world.sessions.member!.sessionId as string;
});

beforeAll(() => {
  dataDir = tempFolder('fw-job-events-');
});

const T2V = {
  model: 'h3-video',
  params: { prompt: 'Lanterns drifting on a river', seed: 5 },
  mediaSpec: { generationMode: 't2v', resolutionTier: '768p', orientation: 'landscape', seconds: 5 },
};

async function createJob(clientTaskId: string): Promise<string> {
  const res = await runtimeCall(client, studio, 'POST', '/media/jobs', {
    sessionId,
    json: { ...T2V, clientTaskId },
    headers: { 'Idempotency-Key': `key-${clientTaskId}` },
  });
  expect(res.status, res.text).toBe(202);
  return res.data.platformJobId as string;
}

/** `GET /media/events` with the credential and session header; the cursor goes out as `Last-Event-ID`. */
function eventsSource(baseUrl: () => string, opened: (string | undefined)[]): RuntimeEventsSource {
  return {
    openEvents: ({ sessionId: session, cursor, limit, signal }) => {
      opened.push(cursor);
      const headers: Record<string, string> = {
        Authorization: `Bearer ${studio.appCredential}`,
        'X-Platform-Runtime-Session-Id': session,
      };
      if (cursor !== undefined) headers['Last-Event-ID'] = cursor;
      return fetch(`${baseUrl()}/media/events?limit=${limit}`, { headers, signal });
    },
  };
}

/** The job truth as the handler reads it: the single-job read, never the event payload. */
function jobReader(unfinished: Set<string>) {
  const reads: string[] = [];
  const statuses = new Map<string, string>();
  const handler: JobChangeHandler = {
    async jobMayHaveChanged(jobId) {
      reads.push(jobId);
      const res = await runtimeCall(client, studio, 'GET', `/media/jobs/${jobId}`, { sessionId });
      expect(res.status, res.text).toBe(200);
      const job = res.data as Json;
      statuses.set(jobId, job.status);
      if (['succeeded', 'failed', 'canceled'].includes(job.status)) unfinished.delete(jobId);
    },
    unfinishedJobIds: () => [...unfinished],
  };
  return { handler, reads, statuses };
}

/** Every job event of the member after `cursor` (a `once` scan): what the platform has to tell. */
async function jobEventIds(after = '0'): Promise<string[]> {
  const res = await fetch(
    `${client.platform.runtimeBaseUrl}/media/events?once=true&limit=200&cursor=${after}`,
    {
      headers: {
        Authorization: `Bearer ${studio.appCredential}`,
        'X-Platform-Runtime-Session-Id': sessionId,
      },
    },
  );
  const text = await res.text();
  return [...text.matchAll(/event: job\nid: (\d+)/g)].map((m) => m[1]!);
}

async function until(check: () => boolean, what: string, ms = 60_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** A loopback proxy in front of the runtime that can cut its open streams and refuse connections. */
class CuttingProxy {
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();
  down = false;
  port = 0;

  constructor(private readonly target: URL) {}

  async start(): Promise<void> {
    this.server = createServer((req: IncomingMessage, res: ServerResponse) => {
      if (this.down) return void req.socket.destroy();
      const upstream = httpRequest(
        {
          host: this.target.hostname,
          port: this.target.port,
          method: req.method,
          path: req.url!.replace(/^\/runtime/, this.target.pathname),
          headers: { ...req.headers, host: this.target.host },
        },
        (answer) => {
          res.writeHead(answer.statusCode!, answer.headers);
          answer.pipe(res);
        },
      );
      upstream.on('error', () => req.socket.destroy());
      res.on('close', () => upstream.destroy());
      req.pipe(upstream);
    });
    this.server.on('connection', (socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as { port: number }).port;
  }

  get baseUrl(): string {
    return `http://127.0.0.1:${this.port}/runtime`;
  }

  /** Closes every open socket (the stream breaks mid-way) and refuses new ones until `restore`. */
  cut(): void {
    this.down = true;
    for (const socket of this.sockets) socket.destroy();
  }

  restore(): void {
    this.down = false;
  }

  async stop(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()) ?? resolve());
  }
}

const FAST_RECONNECT = { initialMs: 50, maxMs: 200, factor: 2, jitter: 0 };
const FAST_POLL = { initialMs: 40, maxMs: 200, factor: 1.5, jitter: 0 };

describe('job events consumer against the simulated platform', () => {
  it('sees a job finish through its events, persists the last processed cursor, and resumes from it after a restart', async () => {
    const journalPath = path.join(dataDir, 'subject-a.sqlite');
    const unfinished = new Set<string>();
    const { handler, reads, statuses } = jobReader(unfinished);
    const opened: (string | undefined)[] = [];
    let journal = openJournal({ path: journalPath });
    const consumer = new JobEventsConsumer({
      events: eventsSource(() => client.platform.runtimeBaseUrl, opened),
      session: { current: () => sessionId },
      cursors: journal.eventCursors,
      handler,
      reconnectBackoff: FAST_RECONNECT,
      pollBackoff: { initialMs: 60_000, maxMs: 60_000, factor: 1, jitter: 0 },
    });
    const stop = new AbortController();
    const run = consumer.run(stop.signal);
    await until(() => consumer.currentState === 'streaming', 'the stream');
    const jobId = await createJob('events-finish');
    unfinished.add(jobId);
    await until(() => statuses.get(jobId) === 'succeeded', 'the job to succeed via events');
    const events = await jobEventIds();
    await until(() => consumer.cursor === events.at(-1), 'the last event to be acknowledged');
    stop.abort();
    expect(await run).toEqual({ reason: 'aborted' });
    expect(journal.eventCursors.get(RUNTIME_EVENTS_STREAM)).toBe(events.at(-1));
    expect(opened[0]).toBeUndefined();
    expect(reads.every((id) => id === jobId)).toBe(true);
    journal.close();

    // restart: a new consumer on the reopened journal resumes from the persisted cursor
    journal = openJournal({ path: journalPath });
    const readsBefore = reads.length;
    const reopened: (string | undefined)[] = [];
    const restarted = new JobEventsConsumer({
      events: eventsSource(() => client.platform.runtimeBaseUrl, reopened),
      session: { current: () => sessionId },
      cursors: journal.eventCursors,
      handler,
      reconnectBackoff: FAST_RECONNECT,
    });
    const stop2 = new AbortController();
    const run2 = restarted.run(stop2.signal);
    await until(() => restarted.currentState === 'streaming', 'the stream after restart');
    await new Promise((r) => setTimeout(r, 300));
    stop2.abort();
    await run2;
    expect(reopened[0]).toBe(events.at(-1));
    expect(reads.length).toBe(readsBefore); // no event processed twice
    journal.close();
    // the session is a secret: never in the journal (only digits go into event_cursors)
    for (const file of readdirSync(dataDir).filter((f) => f.startsWith('subject-a.sqlite')))
      expect(readFileSync(path.join(dataDir, file)).includes(sessionId)).toBe(false);
  });

  it('falls back to polling when the stream is cut, and the stream takes over again', async () => {
    const proxy = new CuttingProxy(new URL(client.platform.runtimeBaseUrl));
    await proxy.start();
    const journal = openJournal({ path: path.join(dataDir, 'subject-b.sqlite') });
    const unfinished = new Set<string>();
    const { handler, statuses } = jobReader(unfinished);
    const states: string[] = [];
    const opened: (string | undefined)[] = [];
    const consumer = new JobEventsConsumer({
      events: eventsSource(() => proxy.baseUrl, opened),
      session: { current: () => sessionId },
      cursors: journal.eventCursors,
      handler,
      reconnectBackoff: FAST_RECONNECT,
      pollBackoff: FAST_POLL,
      onState: (s) => states.push(s),
      onError: (error) => errors.push(error),
    });
    const errors: unknown[] = [];
    const stop = new AbortController();
    const run = consumer.run(stop.signal);
    try {
      await until(() => consumer.currentState === 'streaming', 'the stream');
      const earlier = await jobEventIds();
      await until(() => consumer.cursor === (earlier.at(-1) ?? '0'), 'the earlier events to be acknowledged');
      const cursorBeforeCut = consumer.cursor!;
      proxy.cut();
      await until(() => consumer.currentState === 'polling', 'polling');
      const jobId = await createJob('events-cut');
      unfinished.add(jobId);
      // only polling can see it finish: the stream is down
      await until(() => statuses.get(jobId) === 'succeeded', 'the job to succeed via polling');
      expect(consumer.currentState).toBe('polling');
      expect(consumer.cursor).toBe(cursorBeforeCut);
      proxy.restore();
      await until(() => consumer.currentState === 'streaming', 'the stream to be back');
      // the stream reopened from the acknowledged cursor and catches up on the missed events
      const events = await jobEventIds(cursorBeforeCut);
      await until(() => consumer.cursor === events.at(-1), 'the missed events to be acknowledged');
      expect(opened.at(-1)).toBe(cursorBeforeCut);
      expect(states).toEqual(['connecting', 'streaming', 'polling', 'streaming']);
      expect(errors.length).toBeGreaterThan(0);
      expect(errors.some((e) => String(e).includes(sessionId) || JSON.stringify(e).includes(sessionId))).toBe(
        false,
      );
    } finally {
      stop.abort();
      await run;
      journal.close();
      await proxy.stop();
    }
  });
});
