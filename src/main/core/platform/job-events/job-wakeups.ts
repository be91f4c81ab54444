import type { JobWake } from '../../jobs/poll-job.js';

/** How long an event's processing waits for the woken poll's read before it is taken as handed over. */
export const WOKEN_READ_WAIT_MS = 30_000;

/**
 * Between the job events consumer and the job engine's polls: an event naming a job ends that
 * job's back-off wait, and the event counts as processed once the woken poll has read the job and
 * recorded it (the truth always comes from the single-job read, never from the event).
 */
export class JobWakeups implements JobWake {
  private readonly waiting = new Map<string, Set<() => void>>();
  private readonly reads = new Map<string, Set<() => void>>();

  until(jobId: string, signal: AbortSignal): Promise<void> {
    return new Promise<void>((resolve) => {
      if (signal.aborted) return resolve();
      const set = this.waiting.get(jobId) ?? new Set<() => void>();
      this.waiting.set(jobId, set);
      const done = () => {
        set.delete(done);
        if (set.size === 0 && this.waiting.get(jobId) === set) this.waiting.delete(jobId);
        signal.removeEventListener('abort', done);
        resolve();
      };
      set.add(done);
      signal.addEventListener('abort', done, { once: true });
    });
  }

  read(jobId: string): void {
    const set = this.reads.get(jobId);
    if (!set) return;
    this.reads.delete(jobId);
    for (const done of set) done();
  }

  /**
   * An event named `jobId`: false when no poll is waiting for it (the caller reads it another
   * way); otherwise the poll is woken and this resolves once it recorded its read (or after
   * `WOKEN_READ_WAIT_MS`, when the poll is taken to have carried on).
   */
  async wake(jobId: string, readWaitMs = WOKEN_READ_WAIT_MS): Promise<boolean> {
    const waiters = this.waiting.get(jobId);
    if (!waiters || waiters.size === 0) return false;
    const recorded = new Promise<void>((resolve) => {
      const set = this.reads.get(jobId) ?? new Set<() => void>();
      this.reads.set(jobId, set);
      let timer: NodeJS.Timeout | undefined = undefined;
      const done = () => {
        if (timer) clearTimeout(timer);
        set.delete(done);
        resolve();
      };
      timer = setTimeout(done, readWaitMs);
      timer.unref?.();
      set.add(done);
    });
    for (const wakeUp of [...waiters]) wakeUp();
    await recorded;
    return true;
  }
}
