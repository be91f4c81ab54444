import { AsyncLocalStorage } from 'node:async_hooks';
import { availableParallelism } from 'node:os';
import { AppError } from '../errors.js';

/** How many ffmpeg runs at once in this process (the backend): a whole number ≥ 1. */
export const MEDIA_WORKERS_ENV = 'FRAMEWRIGHT_MEDIA_WORKERS';
/** How many of one person's media jobs may wait in the queue before the next is refused. */
export const MEDIA_QUEUE_PER_PERSON_ENV = 'FRAMEWRIGHT_MEDIA_QUEUE_PER_PERSON';
/** The default number of waiting jobs per person. */
export const DEFAULT_MEDIA_QUEUE_PER_PERSON = 20;

export interface MediaWorkLimits {
  /** Runs at once in all (every person, and work of no person). */
  workers: number;
  /**
   * Runs at once of one person: fewer than `workers` when there are two or more, so one person's
   * flood always leaves a slot to everyone else. Work of no person (desktop, CLI) is bounded by
   * `workers` only.
   */
  perPersonRunning: number;
  /** Jobs of one person waiting at once; the next is refused with `media.queue_full`. */
  perPersonWaiting: number;
}

function wholeNumber(raw: string | undefined): number | undefined {
  if (raw === undefined || raw.trim() === '') return undefined;
  const n = Number(raw);
  return Number.isInteger(n) && n >= 1 ? n : undefined;
}

/**
 * The limits from the environment: `FRAMEWRIGHT_MEDIA_WORKERS` (default: the machine's cores, at
 * most 4 — 2 on a 2-core machine) and `FRAMEWRIGHT_MEDIA_QUEUE_PER_PERSON` (default 20). One
 * person runs at most workers − 1 at once (at least 1).
 */
export function mediaWorkLimitsFromEnv(
  env: NodeJS.ProcessEnv = process.env,
  cores: number = availableParallelism(),
): MediaWorkLimits {
  const workers = wholeNumber(env[MEDIA_WORKERS_ENV]) ?? Math.max(1, Math.min(4, cores));
  return {
    workers,
    perPersonRunning: Math.max(1, workers - 1),
    perPersonWaiting: wholeNumber(env[MEDIA_QUEUE_PER_PERSON_ENV]) ?? DEFAULT_MEDIA_QUEUE_PER_PERSON,
  };
}

/** What a queued job was told when it was stopped while it still waited. */
export class MediaWorkAborted extends Error {
  constructor() {
    super('The media work was stopped while it waited in the queue.');
  }
}

export interface MediaWorkOptions {
  /** The person the work is for (undefined: desktop or CLI work, bounded by `workers` only). */
  owner?: string;
  /** While it waits: how many jobs are ahead of it (called again whenever that number changes). */
  onWaiting?: (ahead: number) => void;
  /** Stops a waiting job (it rejects with {@link MediaWorkAborted}; a running one is the work's own). */
  signal?: AbortSignal;
}

interface Waiting {
  owner: string | undefined;
  start: () => void;
  onWaiting?: (ahead: number) => void;
  told: number;
}

/**
 * The one queue every heavy ffmpeg run goes through (assembly, delivery, soundtrack mix, frames,
 * cuts): at most `workers` run at once, first come first served, except that a person already
 * running `perPersonRunning` jobs waits while others' jobs go ahead, and no person keeps more than
 * `perPersonWaiting` jobs waiting. A waiting job hears how many are ahead of it.
 */
export class MediaWorkQueue {
  private readonly waiting: Waiting[] = [];
  private readonly runningOf = new Map<string | undefined, number>();
  private runningCount = 0;

  constructor(readonly limits: MediaWorkLimits) {}

  /** Runs at once now. */
  get running(): number {
    return this.runningCount;
  }

  /** Jobs waiting now. */
  get queued(): number {
    return this.waiting.length;
  }

  /** Throws `media.queue_full` when `owner` already has their bound of jobs waiting. */
  checkRoom(owner: string | undefined): void {
    if (owner === undefined) return;
    const waitingOfOwner = this.waiting.filter((w) => w.owner === owner).length;
    if (waitingOfOwner >= this.limits.perPersonWaiting)
      throw new AppError(
        'media.queue_full',
        `You already have ${waitingOfOwner} media jobs waiting (renders, deliveries, mixes, frames): ` +
          `wait for them to finish, then try again.`,
      );
  }

  run<T>(work: () => Promise<T>, options: MediaWorkOptions = {}): Promise<T> {
    const { owner, signal } = options;
    if (signal?.aborted) return Promise.reject(new MediaWorkAborted());
    try {
      this.checkRoom(owner);
    } catch (error) {
      return Promise.reject(error);
    }
    return new Promise<T>((resolve, reject) => {
      const entry: Waiting = {
        owner,
        told: -1,
        ...(options.onWaiting ? { onWaiting: options.onWaiting } : {}),
        start: () => {
          signal?.removeEventListener('abort', onAbort);
          this.runningCount += 1;
          this.runningOf.set(owner, (this.runningOf.get(owner) ?? 0) + 1);
          let result: Promise<T>;
          try {
            result = work();
          } catch (error) {
            result = Promise.reject(error);
          }
          result.then(resolve, reject).finally(() => {
            this.runningCount -= 1;
            const left = (this.runningOf.get(owner) ?? 1) - 1;
            if (left > 0) this.runningOf.set(owner, left);
            else this.runningOf.delete(owner);
            this.pump();
          });
        },
      };
      const onAbort = () => {
        const at = this.waiting.indexOf(entry);
        if (at < 0) return;
        this.waiting.splice(at, 1);
        reject(new MediaWorkAborted());
        this.pump();
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiting.push(entry);
      this.pump();
    });
  }

  /** Starts what may start (FIFO, skipping a person at their bound), then tells the rest their place. */
  private pump(): void {
    while (this.runningCount < this.limits.workers) {
      const next = this.waiting.findIndex((w) => this.mayStart(w.owner));
      if (next < 0) break;
      const [entry] = this.waiting.splice(next, 1);
      entry!.start();
    }
    this.waiting.forEach((entry, ahead) => {
      if (entry.told === ahead) return;
      entry.told = ahead;
      entry.onWaiting?.(ahead);
    });
  }

  private mayStart(owner: string | undefined): boolean {
    if (owner === undefined) return true;
    return (this.runningOf.get(owner) ?? 0) < this.limits.perPersonRunning;
  }
}

const currentOwner = new AsyncLocalStorage<string>();

/**
 * Runs `fn` as `owner`'s: media work it starts (now or later, e.g. a render that goes on after the
 * call answered) is queued as that person's. The platform workspace wraps each call of its person.
 */
export function asMediaOwner<T>(owner: string, fn: () => T): T {
  return currentOwner.run(owner, fn);
}

let shared: MediaWorkQueue | undefined;

/** This process's queue (built from the environment on first use). */
export function mediaWorkQueue(): MediaWorkQueue {
  shared ??= new MediaWorkQueue(mediaWorkLimitsFromEnv());
  return shared;
}

/**
 * Refuses at once (`media.queue_full`) when the current person already has their bound of media
 * jobs waiting: for work that answers before it renders (an assembly, a delivery), so the refusal
 * is the call's answer and nothing is started or recorded.
 */
export function checkMediaRoom(): void {
  mediaWorkQueue().checkRoom(currentOwner.getStore());
}

/** Runs heavy media work through this process's queue, as the current person's (see {@link asMediaOwner}). */
export function runMediaWork<T>(
  work: () => Promise<T>,
  options: Omit<MediaWorkOptions, 'owner'> = {},
): Promise<T> {
  const owner = currentOwner.getStore();
  return mediaWorkQueue().run(work, { ...options, ...(owner !== undefined ? { owner } : {}) });
}
