import { PlatformError } from './errors.js';
import type { JobEvent } from './event-store.js';
import type { PlatformContext, PlatformRoute } from './router.js';
import { sessionCaller } from './runtime-auth.js';
import { errorDoc } from './schemas.js';
import { z } from 'zod';

export const EVENTS_DEFAULT_LIMIT = 50;
export const EVENTS_MAX_LIMIT = 200;
/** Jobs in the opening snapshot (bounded: not every historical job). */
export const SNAPSHOT_MAX_JOBS = 20;
/** A live stream looks for new events this often, sends a heartbeat this often, and ends (with `done`) after this long. */
export const LIVE_POLL_MS = 100;
export const HEARTBEAT_MS = 10_000;
export const LIVE_STREAM_MAX_MS = 5 * 60_000;

export const EventsQuery = z
  .object({
    cursor: z.string().regex(/^\d+$/, 'a non-negative integer cursor').optional(),
    once: z.enum(['true', 'false']).optional(),
    limit: z.coerce.number().int().min(1).max(EVENTS_MAX_LIMIT).optional(),
  })
  .strict();

const invalid = (message: string, field: string) =>
  new PlatformError(400, 'invalid_request', message, { phase: 'input_validation', details: { field } });

/** The cursor to resume after: `Last-Event-ID` (reconnect) wins over `cursor`; a job id is refused. */
function startCursor(pc: PlatformContext, query: z.infer<typeof EventsQuery>): number {
  const header = pc.req.headers['last-event-id'];
  const lastEventId = Array.isArray(header) ? header[0] : header;
  if (lastEventId !== undefined && lastEventId !== '') {
    if (!/^\d+$/.test(lastEventId))
      throw invalid(
        'Last-Event-ID must be a numeric event cursor (a job id is not a cursor).',
        'Last-Event-ID',
      );
    return Number(lastEventId);
  }
  return query.cursor === undefined ? 0 : Number(query.cursor);
}

/**
 * `GET /media/events`: `snapshot` (the person's latest jobs, bounded), then job events after the
 * cursor (`limit` per round), `heartbeat`, and `done`. Each `id:` is the numeric cursor, also in
 * the JSON; the snapshot's and heartbeat's id is the cursor already reached, so acknowledging them
 * skips nothing. `once=true` makes one scan; otherwise the stream goes on until the client leaves
 * (or 5 minutes pass).
 */
async function streamEvents(pc: PlatformContext): Promise<void> {
  const session = sessionCaller(pc);
  const parsed = EventsQuery.safeParse(Object.fromEntries(pc.query));
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw invalid(`${issue.path.join('.') || 'query'}: ${issue.message}`, issue.path.join('.') || 'query');
  }
  const query = parsed.data;
  let cursor = startCursor(pc, query);
  const limit = query.limit ?? EVENTS_DEFAULT_LIMIT;
  const { appKey } = pc.app;
  const { userId } = session.subject;
  const { events, runtimeJobs } = pc.state.platform;
  const res = pc.res;
  res.writeHead(200, {
    'Content-Type': 'text/event-stream; charset=utf-8',
    'Cache-Control': 'no-store',
    Connection: 'keep-alive',
    'X-Accel-Buffering': 'no',
  });
  const send = (event: string, id: number, data: Record<string, unknown>) =>
    res.write(`event: ${event}\nid: ${id}\ndata: ${JSON.stringify({ ...data, cursor: id })}\n\n`);

  const mine = runtimeJobs
    .all()
    .filter((r) => r.appKey === appKey && r.userId === userId)
    .sort((a, b) => b.createdAtMs - a.createdAtMs)
    .slice(0, SNAPSHOT_MAX_JOBS);
  send('snapshot', cursor, {
    jobs: mine.flatMap((r) => {
      const job = pc.state.jobs.get(r.platformJobId);
      return job
        ? [
            {
              platformJobId: r.platformJobId,
              clientTaskId: r.clientTaskId,
              status: job.status,
              stage: job.stage,
            },
          ]
        : [];
    }),
  });
  const round = (): boolean => {
    const batch = events.after(appKey, userId, cursor, limit);
    for (const event of batch.events) {
      send('job', event.cursor, toPayload(event));
      cursor = event.cursor;
    }
    return batch.more;
  };
  if (query.once === 'true') {
    const more = round();
    send('heartbeat', cursor, {});
    send('done', cursor, { more });
    res.end();
    return;
  }
  const started = Date.now();
  let lastBeat = Date.now();
  let closed = false;
  res.on('close', () => (closed = true));
  while (!closed && !res.destroyed && Date.now() - started < LIVE_STREAM_MAX_MS) {
    round();
    if (Date.now() - lastBeat >= HEARTBEAT_MS) {
      send('heartbeat', cursor, {});
      lastBeat = Date.now();
    }
    await new Promise((resolve) => setTimeout(resolve, LIVE_POLL_MS));
  }
  if (!res.destroyed) {
    send('done', cursor, { more: false });
    res.end();
  }
}

function toPayload(event: JobEvent): Record<string, unknown> {
  return {
    platformJobId: event.platformJobId,
    clientTaskId: event.clientTaskId,
    status: event.status,
    stage: event.stage,
    occurredAt: event.occurredAt,
  };
}

export const eventsRoutes: PlatformRoute[] = [
  {
    method: 'GET',
    path: '/runtime/media/events',
    surface: 'runtime_read',
    handler: streamEvents,
    doc: {
      operationId: 'streamRuntimeJobEvents',
      summary: "Server-sent events of the person's jobs: snapshot, job, heartbeat, done",
      tags: ['runtime'],
      headers: [
        { name: 'X-Platform-Runtime-Session-Id', required: true, description: "the person's RuntimeSession" },
        {
          name: 'Last-Event-ID',
          required: false,
          description: 'reconnect cursor (numeric; wins over cursor)',
        },
      ],
      query: EventsQuery,
      responses: {
        200: {
          description: 'text/event-stream; each data line is JSON carrying its numeric cursor',
          contentType: 'text/event-stream',
        },
        400: errorDoc('Invalid cursor, Last-Event-ID (e.g. a job id), once or limit (1..200)'),
        401: errorDoc('Credential or session missing or invalid'),
        403: errorDoc('A recovery reference cannot read events'),
        429: errorDoc('Rate limited (Retry-After)'),
        503: errorDoc('Unavailable (Retry-After)'),
        504: errorDoc('Gateway timeout'),
      },
    },
  },
];
