import { Readable } from 'node:stream';
import { JobEventsConsumer, type JobEventsState } from './job-events/job-events-consumer.js';
import type { JobWakeups } from './job-events/job-wakeups.js';
import type { JobEngine } from '../jobs/job-engine.js';
import { isTerminalStatus } from '../journal/jobs-repository.js';
import type { Journal } from '../journal/open-journal.js';
import type { Logger } from '../logging/logger.js';
import type { RuntimeApiClient } from '../api-clients/runtime/runtime-api-client.js';
import { sessionAuth } from '../api-clients/runtime/runtime-auth.js';
import { RUNTIME_PROFILE_ID } from '../backends/platform-runtime/runtime-create.js';
import type { PersonSessions } from './person-sessions.js';

type Backoff = ConstructorParameters<typeof JobEventsConsumer>[0]['pollBackoff'];
export interface JobEventsTiming {
  reconnectBackoff?: Backoff;
  pollBackoff?: Backoff;
}

/**
 * One person's job events (`GET /media/events` with their session): an event wakes the poll that
 * waits for its job, or continues a job no poll waits for; a 401 ends the session. Started once
 * (again after it stopped for want of a session), stopped with the workspace.
 */
export class PersonJobEvents {
  private consumer: { stop: AbortController; done: Promise<void> } | undefined;
  private current: JobEventsState = 'stopped';

  constructor(
    private readonly d: {
      runtime: Pick<RuntimeApiClient, 'openEvents'>;
      sessions: Pick<PersonSessions, 'latest' | 'endLatest'>;
      journal: Pick<Journal, 'jobs' | 'eventCursors'>;
      engine: Pick<JobEngine, 'continueIntent'>;
      wakeups: Pick<JobWakeups, 'wake'>;
      waitSeconds(): number;
      logger: Logger;
      timing?: JobEventsTiming;
    },
  ) {}

  get state(): JobEventsState {
    return this.current;
  }

  private unfinishedJobIds(): string[] {
    return this.d.journal.jobs
      .listUnfinished()
      .jobsToPoll.filter((job) => job.profileId === RUNTIME_PROFILE_ID)
      .map((job) => job.jobId);
  }

  private async jobMayHaveChanged(platformJobId: string): Promise<void> {
    // the woken poll reads the job; a job no poll waits for is continued by the engine, which reads it
    if (await this.d.wakeups.wake(platformJobId)) return;
    const { jobs } = this.d.journal;
    const job = jobs.getJobByJobId(RUNTIME_PROFILE_ID, platformJobId);
    if (!job || isTerminalStatus(job.status)) return;
    const intent = jobs.getIntentById(job.intentId);
    if (intent)
      void this.d.engine
        .continueIntent(intent, { waitSeconds: this.d.waitSeconds() })
        .catch((error: unknown) =>
          this.d.logger.warn('job continued after an event ended with an error', { error }),
        );
  }

  start(): void {
    if (this.consumer) return;
    const { runtime, timing, logger } = this.d;
    const stop = new AbortController();
    const consumer = new JobEventsConsumer({
      events: {
        openEvents: async ({ sessionId, cursor, limit, signal }) => {
          const stream = await runtime.openEvents(sessionAuth(sessionId), {
            ...(cursor ? { lastEventId: cursor } : {}),
            limit,
          });
          // stopped while the stream was being opened: an abort listener added now would never fire
          if (signal.aborted) stream.body.destroy();
          else signal.addEventListener('abort', () => stream.body.destroy(), { once: true });
          const headers = new Headers();
          if (stream.contentType) headers.set('content-type', stream.contentType);
          return new Response(Readable.toWeb(stream.body) as ReadableStream<Uint8Array>, {
            status: stream.status,
            headers,
          });
        },
      },
      session: { current: async () => (await this.d.sessions.latest())?.sessionId ?? null },
      cursors: this.d.journal.eventCursors,
      handler: {
        jobMayHaveChanged: (id) => this.jobMayHaveChanged(id),
        unfinishedJobIds: () => this.unfinishedJobIds(),
      },
      ...(timing?.pollBackoff ? { pollBackoff: timing.pollBackoff } : {}),
      ...(timing?.reconnectBackoff ? { reconnectBackoff: timing.reconnectBackoff } : {}),
      onState: (state) => {
        this.current = state;
      },
      onError: (error) => logger.warn('job events', { error }),
    });
    const done = consumer.run(stop.signal).then(
      async (end) => {
        if (end.reason === 'refused' && end.error.status === 401) await this.d.sessions.endLatest();
      },
      (error: unknown) => logger.error('job events consumer failed', { error }),
    );
    this.consumer = { stop, done: done.finally(() => (this.consumer = undefined)) };
  }

  async stop(): Promise<void> {
    this.consumer?.stop.abort();
    await this.consumer?.done;
  }
}
