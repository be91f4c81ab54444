import { readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { AppError } from '../errors.js';
import type { Journal } from '../journal/open-journal.js';
import { IdempotencyConflictError } from '../journal/errors.js';
import type { JobIntent, JobWithOutputs } from '../journal/jobs-repository.js';
import type { PublicApiClient } from '../platform/public-api-client.js';
import type { BackoffPolicy } from './backoff.js';
import { sendIntent, type CreateOptions } from './create-job.js';
import { ENGINE_STOPPED_MESSAGE, engineStoppedError } from './engine-stopped.js';
import { downloadOutputs, type DownloadOptions, type DownloadProgress } from './download-outputs.js';
import { INCOMING_DIR } from './library-layout.js';
import { pollJob } from './poll-job.js';
import { resumeOptimizations, type ResumedOptimization } from '../video/resume-optimizations.js';

export interface SubmitRequest {
  profileId: string;
  model: string;
  /** video_generation, image_generation or audio_generation */
  serviceKind: string;
  /** The exact creation body; replays send the same canonical bytes. */
  body: Record<string, unknown>;
  /** One stable key per business intent (e.g. per draft), never regenerated on retry. */
  idempotencyKey: string;
  draftId?: string;
  optimizationClientRequestId?: string;
}

export interface WaitOptions {
  /** Total wait limit for this call, in seconds. Past it, work stays pending and resumable. */
  waitSeconds?: number;
  /** Return right after acceptance (the job continues on the next resume). */
  noWait?: boolean;
}

export type RunResult =
  | { state: 'succeeded'; intent: JobIntent; job: JobWithOutputs }
  | { state: 'failed'; intent: JobIntent; job: JobWithOutputs }
  /** Accepted and still running when the wait limit passed, or not yet known to be accepted. */
  | { state: 'pending'; intent: JobIntent; job?: JobWithOutputs; reason: string };

export type EngineChange =
  | { type: 'intent'; intent: JobIntent }
  | { type: 'job'; job: JobWithOutputs }
  | { type: 'download'; progress: DownloadProgress };

export interface JobEngineOptions {
  journal: Journal;
  /** The client of a profile (identity); the engine never mixes them. */
  clientFor(profileId: string): Promise<PublicApiClient>;
  /** Where verified results go; a function is read at each download (the folder is a setting). */
  libraryDir: string | (() => string);
  create?: Omit<CreateOptions, 'deadline'>;
  pollBackoff?: BackoffPolicy;
  download?: Omit<DownloadOptions, 'onProgress'>;
  /** Default total wait limit in seconds (the caller's setting). */
  defaultWaitSeconds?: number;
  onChange?: (change: EngineChange) => void;
  /** Test seams for crash tests; never set in production. */
  hooks?: { afterPoll?: (job: JobWithOutputs) => void };
}

/**
 * The job lifecycle over the journal: an accepted job is never lost, never created twice, and a
 * result is never stored unverified. Used alike by the Electron app, the browser host and the CLI.
 */
export class JobEngine {
  private readonly inFlight = new Map<string, Promise<RunResult>>();
  /** Aborted by `stop()`: every wait ends and every running read is dropped, never half-recorded. */
  private readonly stopping = new AbortController();

  constructor(private readonly options: JobEngineOptions) {}

  private get journal(): Journal {
    return this.options.journal;
  }

  private get libraryDir(): string {
    const dir = this.options.libraryDir;
    return typeof dir === 'function' ? dir() : dir;
  }

  private deadline(wait: WaitOptions): number {
    const seconds = wait.waitSeconds ?? this.options.defaultWaitSeconds ?? 30 * 60;
    return Date.now() + seconds * 1000;
  }

  /** Commits the intent, then creates, polls, downloads and verifies. */
  async submit(request: SubmitRequest, wait: WaitOptions = {}): Promise<RunResult> {
    if (this.stopping.signal.aborted) throw engineStoppedError();
    let intent: JobIntent;
    try {
      intent = this.journal.jobs.recordIntent({
        idempotencyKey: request.idempotencyKey,
        profileId: request.profileId,
        model: request.model,
        serviceKind: request.serviceKind,
        body: request.body,
        draftId: request.draftId,
        optimizationClientRequestId: request.optimizationClientRequestId,
      });
    } catch (error) {
      if (error instanceof IdempotencyConflictError) {
        throw new AppError(
          'job.idempotency_conflict',
          `This draft was already submitted with different settings (${error.message}). Start a new draft to generate again.`,
        );
      }
      throw error;
    }
    this.options.onChange?.({ type: 'intent', intent });
    return this.continueIntent(intent, wait);
  }

  /** Continues one intent whatever its state; concurrent calls for the same intent share one run. */
  continueIntent(intent: JobIntent, wait: WaitOptions = {}): Promise<RunResult> {
    if (this.stopping.signal.aborted) return Promise.reject(engineStoppedError());
    const key = `intent:${intent.idempotencyKey}`;
    const running = this.inFlight.get(key);
    if (running) return running;
    const run = this.runIntent(intent, wait).finally(() => this.inFlight.delete(key));
    this.inFlight.set(key, run);
    return run;
  }

  private async runIntent(intent: JobIntent, wait: WaitOptions): Promise<RunResult> {
    const deadline = this.deadline(wait);
    if (intent.state === 'rejected') {
      throw new AppError(
        'job.rejected',
        `The service refused this request earlier (HTTP ${intent.statusCode}, ${intent.errorCode}): ${intent.errorMessage}`,
      );
    }
    if (intent.state === 'abandoned') {
      return { state: 'pending', intent, reason: intent.errorMessage ?? 'abandoned' };
    }
    let job = this.journal.jobs.getJobForIntent(intent.id);
    if (!job) {
      const client = await this.options.clientFor(intent.profileId);
      const outcome = await sendIntent(this.journal, client, intent, {
        ...this.options.create,
        deadline,
        signal: this.stopping.signal,
      });
      if (outcome.state === 'deferred') {
        this.options.onChange?.({ type: 'intent', intent: outcome.intent });
        return { state: 'pending', intent: outcome.intent, reason: outcome.error.message };
      }
      job = outcome.job;
      this.options.onChange?.({ type: 'job', job });
    }
    const accepted = this.journal.jobs.getIntent(intent.idempotencyKey)!;
    if (wait.noWait) return { state: 'pending', intent: accepted, job, reason: 'not waiting' };
    return this.runJob(accepted, job, deadline);
  }

  private async runJob(intent: JobIntent, start: JobWithOutputs, deadline: number): Promise<RunResult> {
    const client = await this.options.clientFor(start.profileId);
    let job = start;
    if (job.status !== 'succeeded' && job.status !== 'failed' && job.status !== 'canceled') {
      const polled = await pollJob(this.journal, client, job, {
        deadline,
        backoff: this.options.pollBackoff,
        signal: this.stopping.signal,
        onUpdate: (j) => this.options.onChange?.({ type: 'job', job: j }),
        afterPoll: this.options.hooks?.afterPoll,
      });
      job = polled.job;
      if (polled.state === 'pending') {
        return {
          state: 'pending',
          intent,
          job,
          reason: this.stopping.signal.aborted
            ? ENGINE_STOPPED_MESSAGE
            : 'The wait limit passed; the job continues on the next resume.',
        };
      }
    }
    if (job.status !== 'succeeded') return { state: 'failed', intent, job };
    job = await downloadOutputs(this.journal, client, job, this.libraryDir, {
      ...this.options.download,
      signal: this.stopping.signal,
      onProgress: (progress) => this.options.onChange?.({ type: 'download', progress }),
    });
    this.options.onChange?.({ type: 'job', job });
    return { state: 'succeeded', intent, job };
  }

  /**
   * Finishes everything unfinished, as at app start: optimizations of unknown outcome (replayed
   * under their key), unknown creations, running jobs, downloads.
   */
  async resume(wait: WaitOptions = {}): Promise<{
    results: RunResult[];
    errors: { key: string; error: AppError }[];
    optimizations: ResumedOptimization[];
  }> {
    await this.removeAbandonedDownloads();
    const optimizations = await resumeOptimizations(this.journal, {
      clientFor: (profileId) => this.options.clientFor(profileId),
      backoff: this.options.create?.backoff,
      signal: this.stopping.signal,
    });
    const work = this.journal.jobs.listUnfinished();
    const results: RunResult[] = [];
    const errors: { key: string; error: AppError }[] = [];
    const run = async (key: string, task: () => Promise<RunResult>) => {
      try {
        results.push(await task());
      } catch (error) {
        errors.push({
          key,
          error:
            error instanceof AppError
              ? error
              : new AppError('internal', error instanceof Error ? error.message : String(error)),
        });
      }
    };
    const seenIntents = new Set<number>();
    for (const intent of work.intents) {
      if (this.stopping.signal.aborted) break;
      seenIntents.add(intent.id);
      await run(intent.idempotencyKey, () => this.continueIntent(intent, wait));
    }
    for (const job of [...work.jobsToPoll, ...work.jobsToDownload]) {
      if (this.stopping.signal.aborted) break;
      if (seenIntents.has(job.intentId)) continue;
      seenIntents.add(job.intentId);
      const intent = this.journal.jobs.getIntentById(job.intentId)!;
      await run(intent.idempotencyKey, () => this.continueIntent(intent, wait));
    }
    return { results, errors, optimizations };
  }

  /**
   * Stops for app close: waits end at once, running reads are dropped (their temporary files
   * removed), and whatever is unfinished stays in the journal for the next start. Resolves when
   * no run touches the journal any more, so the caller can close it.
   */
  async stop(): Promise<void> {
    if (!this.stopping.signal.aborted) this.stopping.abort(engineStoppedError());
    await Promise.allSettled([...this.inFlight.values()]);
  }

  /** Temporary files of downloads that died with a previous process: never kept. */
  private async removeAbandonedDownloads(): Promise<void> {
    const incoming = path.join(this.libraryDir, INCOMING_DIR);
    const entries = await readdir(incoming).catch(() => [] as string[]);
    if (this.inFlight.size > 0) return;
    await Promise.all(entries.map((name) => rm(path.join(incoming, name), { force: true })));
  }
}
