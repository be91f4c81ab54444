import type { StoredAsset } from '../assets/asset-store.js';
import type { SimClock } from '../clock.js';
import type { JobFailure, StoredJob } from './job-store.js';

/** Pacing of one job at time scale 1 (demo pacing: several seconds per job). */
export interface JobPacing {
  queuedSeconds: number;
  /** Minimum time spent running, even when the render is faster. */
  runningSeconds: number;
}

export const PACING: Record<StoredJob['pacing'], JobPacing> = {
  video: { queuedSeconds: 2, runningSeconds: 6 },
  image: { queuedSeconds: 1, runningSeconds: 3 },
  audio: { queuedSeconds: 1, runningSeconds: 3 },
};

const DEFAULT_STAGES = [
  { stage: 'preparing_inputs', message: 'Preparing inputs' },
  { stage: 'generating', message: 'Generating' },
  { stage: 'encoding', message: 'Encoding the result' },
];

const RENDER_FAILURE: JobFailure = {
  errorCode: 'generation_failed',
  errorMessage: 'The generation failed while rendering. You may create it again.',
  statusCode: 500,
  retryable: true,
};

export interface JobRunnerHooks {
  /** Renders the job's outputs (rejecting fails the job as retryable). */
  execute(job: StoredJob): Promise<StoredAsset[]>;
  /** Called after every change of a job's status or stage. */
  changed(job: StoredJob): void;
}

/** Moves jobs queued → running → succeeded | failed on timers scaled by the time scale. */
export class JobRunner {
  private readonly timers = new Set<NodeJS.Timeout>();
  private closed = false;

  constructor(
    private readonly clock: SimClock,
    private readonly timeScale: number,
    private readonly hooks: JobRunnerHooks,
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
  pollSeconds(pacingKind: StoredJob['pacing']): number {
    const pacing = PACING[pacingKind];
    return Math.max(0, Math.round(Math.min(5, pacing.runningSeconds / 3) * this.timeScale));
  }

  /** Runs a queued job (or resumes a job that was in progress when the simulator stopped). */
  run(job: StoredJob): void {
    const pacing = PACING[job.pacing];
    const stages = job.stages ?? DEFAULT_STAGES;
    const queuedFor = job.status === 'queued' ? pacing.queuedSeconds : 0;
    this.later(queuedFor, () => {
      job.status = 'running';
      job.startedAtMs ??= this.clock.nowMs();
      const first = stages[0]!;
      job.stage = first.stage;
      job.stageMessage = first.message;
      this.hooks.changed(job);
      const perStage = pacing.runningSeconds / stages.length;
      stages.slice(1).forEach((next, i) =>
        this.later(perStage * (i + 1), () => {
          if (job.status !== 'running') return;
          job.stage = next.stage;
          job.stageMessage = next.message;
          this.hooks.changed(job);
        }),
      );
      let minimumElapsed = false;
      let result: { outputs?: StoredAsset[]; failed?: boolean } | undefined = job.scriptedFailure
        ? {}
        : undefined;
      const settle = () => {
        if (!minimumElapsed || !result || job.status !== 'running' || this.closed) return;
        if (job.scriptedFailure) this.fail(job, job.scriptedFailure);
        else if (result.failed) this.fail(job, RENDER_FAILURE);
        else {
          job.outputs = result.outputs ?? [];
          job.status = 'succeeded';
          job.stage = 'succeeded';
          job.stageMessage = 'Completed';
          job.completedAtMs = this.clock.nowMs();
          this.hooks.changed(job);
        }
      };
      this.later(pacing.runningSeconds, () => {
        minimumElapsed = true;
        settle();
      });
      if (job.scriptedFailure) return;
      this.hooks.execute(job).then(
        (outputs) => {
          result = { outputs };
          settle();
        },
        (error: unknown) => {
          if (!this.closed)
            process.stderr.write(`[simulator] render of ${job.jobId} failed: ${String(error)}\n`);
          result = { failed: true };
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
    this.hooks.changed(job);
  }

  close(): void {
    this.closed = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }
}
