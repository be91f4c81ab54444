import { iso } from '../clock.js';
import type { StoredJob } from '../jobs/job-store.js';
import type { PlatformLog, PlatformLogRecord } from './platform-log.js';
import type { RuntimeJobRecord } from './runtime-job-store.js';

/** How many events are kept (older ones are no longer replayed from a cursor; the snapshot covers them). */
export const EVENTS_KEPT = 10_000;

/** One job stage event; `cursor` is the numeric SSE id (global, increasing). */
export interface JobEvent {
  cursor: number;
  appKey: string;
  userId: string;
  platformJobId: string;
  clientTaskId: string;
  status: string;
  stage: string;
  occurredAt: string;
}

/** Job events of the runtime, numbered by one increasing cursor that survives restarts. */
export class EventStore {
  private events: JobEvent[] = [];
  private last = 0;

  constructor(private readonly log?: PlatformLog) {}

  get head(): number {
    return this.last;
  }

  /** Records a job's current status and stage (once per distinct change). */
  record(runtime: RuntimeJobRecord, job: StoredJob, nowMs: number): void {
    const previous = this.events.findLast((e) => e.platformJobId === runtime.platformJobId);
    if (previous && previous.status === job.status && previous.stage === job.stage) return;
    this.last += 1;
    const event: JobEvent = {
      cursor: this.last,
      appKey: runtime.appKey,
      userId: runtime.userId,
      platformJobId: runtime.platformJobId,
      clientTaskId: runtime.clientTaskId,
      status: job.status,
      stage: job.stage,
      occurredAt: iso(nowMs),
    };
    this.events.push(event);
    if (this.events.length > EVENTS_KEPT) this.events.splice(0, this.events.length - EVENTS_KEPT);
    this.log?.append('event', String(event.cursor), event);
  }

  /** A person's events after `cursor`, at most `limit`, and whether more are waiting. */
  after(
    appKey: string,
    userId: string,
    cursor: number,
    limit: number,
  ): { events: JobEvent[]; more: boolean } {
    const mine = this.events.filter((e) => e.cursor > cursor && e.appKey === appKey && e.userId === userId);
    return { events: mine.slice(0, limit), more: mine.length > limit };
  }

  restore(records: readonly PlatformLogRecord[]): void {
    for (const record of records)
      if (record.t === 'event') {
        const event = record.v as JobEvent;
        this.events.push(event);
        this.last = Math.max(this.last, event.cursor);
      }
    this.events.sort((a, b) => a.cursor - b.cursor);
    if (this.events.length > EVENTS_KEPT) this.events.splice(0, this.events.length - EVENTS_KEPT);
  }

  snapshot(): PlatformLogRecord[] {
    return this.events.map((v) => ({ t: 'event', id: String(v.cursor), v }));
  }
}
