import type { StoredAsset } from '../assets/asset-store.js';
import type { SimClock } from '../clock.js';
import type { JobFailure, StoredJob } from './job-store.js';

/** Pacing of one job at time scale 1 (demo pacing: several seconds per job). */
export interface JobPacing {
  queuedSeconds: number;
  /** Minimum time spent running, even when the render is faster. */
  runningSeconds: number;
}

export const PACING: Record<'video' | 'image' | 'audio', JobPacing> = {
  video: { queuedSeconds: 2, runningSeconds: 6 },
  image: { queuedSeconds: 1, runningSeconds: 3 },
  audio: { queuedSeconds: 1, runningSeconds: 3 },
};

/** What a job produces; throwing fails the job (retryable). */
export type JobWork = () => Promise<StoredAsset[]>;

export interface JobRunOptions {
  pacing: JobPacing;
  work: JobWork;
  /** A scripted failure (scenarios `job_failed`, `job_failed_retryable`). */
  failure?: JobFailure;
  /** Stage names shown while running, in order. */
  stages?: { stage: string; message: string }[];
}

const DEFAULT_STAGES = [
  { stage: 'preparing_inputs', message: 'Preparing inputs' },
  { stage: 'generating', message: 'Generating' },
  { stage: 'encoding', message: 'Encoding the result' },
];

/** Moves jobs queued → running → succeeded | failed on timers scaled by the time scale. */
export class JobRunner {
  private readonly timers = new Set<NodeJS.Timeout>();
  private closed = false;

  constructor(
    private readonly clock: SimClock,
    private readonly timeScale: number,
  ) {}

  private later(seconds: number, fn: () => void): void {
    if (this.closed) return;
    const timer = setTimeout(
      () => {
        this.timers.delete(timer);
        if (!this.closed) fn();
      },
      Math.max(0, seconds * this.timeScale * 1000),
    );
    this.timers.add(timer);
  }

  /** Suggested poll interval (whole seconds, may be 0 at small time scales). */
  pollSeconds(pacing: JobPacing): number {
    return Math.max(0, Math.round(Math.min(5, pacing.runningSeconds / 3) * this.timeScale));
  }

  run(job: StoredJob, options: JobRunOptions): void {
    const stages = options.stages ?? DEFAULT_STAGES;
    this.later(options.pacing.queuedSeconds, () => {
      job.status = 'running';
      job.startedAtMs = this.clock.nowMs();
      const first = stages[0]!;
      job.stage = first.stage;
      job.stageMessage = first.message;
      const perStage = options.pacing.runningSeconds / stages.length;
      stages.slice(1).forEach((next, i) =>
        this.later(perStage * (i + 1), () => {
          if (job.status !== 'running') return;
          job.stage = next.stage;
          job.stageMessage = next.message;
        }),
      );
      let minimumElapsed = false;
      let result: { outputs?: StoredAsset[]; error?: unknown } | undefined;
      const settle = () => {
        if (!minimumElapsed || !result || job.status !== 'running') return;
        if (options.failure) this.fail(job, options.failure);
        else if (result.error !== undefined) {
          this.fail(job, {
            errorCode: 'generation_failed',
            errorMessage: 'The generation failed while rendering. You may create it again.',
            statusCode: 500,
            retryable: true,
          });
        } else {
          job.outputs = result.outputs ?? [];
          job.status = 'succeeded';
          job.stage = 'succeeded';
          job.stageMessage = 'Completed';
          job.completedAtMs = this.clock.nowMs();
        }
      };
      this.later(options.pacing.runningSeconds, () => {
        minimumElapsed = true;
        settle();
      });
      if (options.failure) {
        result = {};
        settle();
        return;
      }
      options.work().then(
        (outputs) => {
          result = { outputs };
          settle();
        },
        (error: unknown) => {
          result = { error };
          settle();
        },
      );
    });
  }

  private fail(job: StoredJob, failure: JobFailure): void {
    job.status = 'failed';
    job.stage = 'failed';
    job.stageMessage = failure.errorMessage;
    job.failure = failure;
    job.completedAtMs = this.clock.nowMs();
  }

  close(): void {
    this.closed = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }
}
