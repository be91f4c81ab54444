import { randomUUID } from 'node:crypto';
import { readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { isProcessAlive } from '../process/process-liveness.js';
import { presenceOf, ProcessPresence } from '../process/process-presence.js';
import { AppError } from '../errors.js';
import type { Journal } from '../journal/open-journal.js';
import { IdempotencyConflictError } from '../journal/errors.js';
import type { NewIntent } from '../journal/jobs-repository.js';
import type {
  JobIntent,
  JobLease,
  JobWithOutputs,
  LeaseOwner,
  LeaseOwnerAlive,
} from '../journal/jobs-repository.js';
import { sleepUnlessStopped, type BackoffPolicy } from '../api-clients/retry/backoff.js';
import { batchReadAtResume } from './batch-read-at-resume.js';
import { sendIntent, type CreateOptions } from './create-job.js';
import { ENGINE_STOPPED_MESSAGE, engineStoppedError } from './engine-stopped.js';
import { downloadOutputs, type DownloadOptions, type DownloadProgress } from './download-outputs.js';
import { INCOMING_DIR } from './library-layout.js';
import type { MediaJobTransport } from './media-job-transport.js';
import { pollJob, type JobWake } from './poll-job.js';
import type { ResumedOptimization } from '../journal/prompt-optimizations-repository.js';
import { DEFAULT_JOB_WAIT_SECONDS } from '../../../shared/wait-defaults.js';

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
  /** A resend after `404 asset_not_found` (see `resendIdempotencyKey`): recorded with its intent. */
  resendOf?: NewIntent['resendOf'];
}

export interface WaitOptions {
  /** Total wait limit for this call, in seconds. Past it, work stays pending and resumable. */
  waitSeconds?: number;
  /** The wait limit as a moment (epoch ms), one for several runs (a resume's); wins over `waitSeconds`. */
  deadlineAt?: number;
  /** Return right after acceptance (the job continues on the next resume). */
  noWait?: boolean;
  /**
   * `accepted`: resolve as soon as the create is answered — accepted (state `pending` with the
   * job), refused (rejects), or not yet known to be accepted within `answerWithinMs` (state
   * `pending` without a job; the intent stays recorded for resume). The run goes on in the
   * background (poll, download) and its end is reported to `onBackgroundEnd`.
   */
  until?: 'accepted';
  /** With `until: 'accepted'`: how long a create under retry is waited for (default 8 s). */
  answerWithinMs?: number;
  /** With `until: 'accepted'`: the background run's outcome (an error when it ended with one). */
  onBackgroundEnd?: (outcome: { result: RunResult } | { error: unknown }) => void;
}

export type RunResult =
  | { state: 'succeeded'; intent: JobIntent; job: JobWithOutputs }
  | { state: 'failed'; intent: JobIntent; job: JobWithOutputs }
  /**
   * Accepted and still running when the wait limit passed, or not yet known to be accepted; with
   * `workedElsewhere`, another live process on this data folder (`heldBy`) still held the job's
   * lease when this run's wait limit passed.
   */
  | {
      state: 'pending';
      intent: JobIntent;
      job?: JobWithOutputs;
      reason: string;
      workedElsewhere?: true;
      heldBy?: { pid: number; host: string };
    };

/** What the journal held for an intent when an error ended its run (see {@link committedOf}). */
export interface CommittedState {
  intent: JobIntent;
  job?: JobWithOutputs;
}

const committedAtFailure = new WeakMap<object, CommittedState>();

/**
 * The intent (and its job, if any) a failed `submit`, `createOrContinue` or `continueIntent` had
 * committed, as the engine read it when the error ended the run: a refused creation's rejected
 * intent, an intent whose run was stopped. Undefined when nothing was committed (the request was
 * never built, or the engine was stopped before recording it).
 */
export function committedOf(error: unknown): CommittedState | undefined {
  return error !== null && typeof error === 'object' ? committedAtFailure.get(error) : undefined;
}

/** The pending reason naming the process that holds the job (its pid, and host when not this one). */
export function workedElsewhereReason(holder: { pid: number; host: string }): string {
  const where = holder.host === os.hostname() ? '' : ` on ${holder.host}`;
  return `Another Framewright process (pid ${holder.pid}${where}) on this data folder is working on this job; it finishes it there, or run resume again.`;
}

/** How often a run waiting for another process's job reads the journal again. */
const OTHER_OWNER_RECHECK_MS = { first: 100, max: 1_000 };
const LEASE_LOST_MESSAGE =
  'This process lost its lease on the job (it stalled past the lease); another process continues it.';

export type EngineChange =
  | { type: 'intent'; intent: JobIntent }
  | { type: 'job'; job: JobWithOutputs }
  | { type: 'download'; progress: DownloadProgress };

export interface JobEngineOptions {
  journal: Journal;
  /** The job transport of a profile (identity); the engine never mixes them. */
  transportFor(profileId: string): Promise<MediaJobTransport>;
  /**
   * At resume, before the jobs: replays the prompt optimizations of unknown outcome (the video
   * feature's work, not the engine's; absent, none are replayed).
   */
  resumeOptimizations?: (signal: AbortSignal) => Promise<ResumedOptimization[]>;
  /** Where verified results go; a function is read at each download (the folder is a setting). */
  libraryDir: string | (() => string);
  create?: Omit<CreateOptions, 'deadline'>;
  pollBackoff?: BackoffPolicy;
  /** Events that end a poll's back-off wait early (the platform's job events); none by default. */
  pollWake?: JobWake;
  download?: Omit<DownloadOptions, 'onProgress'>;
  /** Default total wait limit in seconds (the caller's setting). */
  defaultWaitSeconds?: number;
  onChange?: (change: EngineChange) => void;
  /** Job leases: one process works a job at a time (see {@link JobEngine}). */
  lease?: {
    /** How long a lease lasts unless renewed (default 30 s; renewed every third of it). */
    ttlMs?: number;
    /**
     * The data folder's presence folder (see process-presence.ts): this engine holds an OS-released
     * lock there while it may hold leases, and a lease owner on this host is dead exactly when its
     * lock is free. Absent (an in-memory journal): the owner's pid is checked instead.
     */
    presenceDir?: string;
    /** This engine's identity (default: a fresh id with this pid and host). */
    owner?: LeaseOwner;
    /** Whether another owner still runs (default: its presence lock, else its pid, when on this host). */
    isOwnerAlive?: LeaseOwnerAlive;
  };
  /** Test seams for crash tests; never set in production. */
  hooks?: { afterPoll?: (job: JobWithOutputs) => void };
}

const DEFAULT_LEASE_TTL_MS = 30_000;
/** How long `until: 'accepted'` waits for a create under retry before answering "pending" (8 s). */
const DEFAULT_ANSWER_WITHIN_MS = 8_000;

/**
 * The job lifecycle over the journal: an accepted job is never lost, never created twice, and a
 * result is never stored unverified. Used alike by the Electron app, the browser host and the CLI.
 */
export class JobEngine {
  private readonly inFlight = new Map<string, Promise<RunResult>>();
  /** Callers of `until: 'accepted'`, by idempotency key, told when the create is accepted. */
  private readonly acceptanceWaiters = new Map<string, Set<(result: RunResult) => void>>();
  /** Aborted by `stop()`: every wait ends and every running read is dropped, never half-recorded. */
  private readonly stopping = new AbortController();
  /** Who this engine is in the journal's job leases. */
  readonly leaseOwner: LeaseOwner;
  private readonly leaseTtlMs: number;
  private readonly isOwnerAlive: LeaseOwnerAlive;
  /** This engine's presence lock, taken before its first lease and given up at `stop()`. */
  private presence: ProcessPresence | undefined;

  constructor(private readonly options: JobEngineOptions) {
    this.leaseOwner = options.lease?.owner ?? {
      id: `${os.hostname()}:${process.pid}:${randomUUID()}`,
      pid: process.pid,
      host: os.hostname(),
    };
    this.leaseTtlMs = options.lease?.ttlMs ?? DEFAULT_LEASE_TTL_MS;
    this.isOwnerAlive = options.lease?.isOwnerAlive ?? ((owner) => this.isOwnerRunning(owner));
  }

  /**
   * Whether a lease owner still runs: one on another host is taken as alive until its lease
   * expires; on this host, its presence lock decides (held: alive; free: dead, whatever its pid
   * says — a killed process not yet reaped included); without a presence file, its pid does.
   */
  private isOwnerRunning(owner: LeaseOwner): boolean {
    if (owner.id === this.leaseOwner.id) return true;
    if (owner.host !== os.hostname()) return true;
    const dir = this.options.lease?.presenceDir;
    const presence = dir ? presenceOf(dir, owner.id) : 'unknown';
    return presence === 'unknown' ? isProcessAlive(owner.pid) : presence === 'alive';
  }

  /** Takes this engine's presence lock once, before it takes any lease. */
  private ensurePresence(): void {
    const dir = this.options.lease?.presenceDir;
    if (this.presence || !dir || this.stopping.signal.aborted) return;
    try {
      this.presence = ProcessPresence.claim(dir, this.leaseOwner.id);
    } catch {
      // a folder it cannot write (read-only, full): other processes fall back to this one's pid
    }
  }

  private get journal(): Journal {
    return this.options.journal;
  }

  private get libraryDir(): string {
    const dir = this.options.libraryDir;
    return typeof dir === 'function' ? dir() : dir;
  }

  private deadline(wait: WaitOptions): number {
    if (wait.deadlineAt !== undefined) return wait.deadlineAt;
    const seconds = wait.waitSeconds ?? this.options.defaultWaitSeconds ?? DEFAULT_JOB_WAIT_SECONDS;
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
        resendOf: request.resendOf,
      });
    } catch (error) {
      if (error instanceof IdempotencyConflictError) {
        const conflict = new AppError(
          'job.idempotency_conflict',
          `This draft was already submitted with different settings (${error.message}). Start a new draft to generate again.`,
        );
        const held = this.journal.jobs.getIntent(request.idempotencyKey);
        throw held ? this.withCommitted(conflict, held.id) : conflict;
      }
      throw error;
    }
    this.options.onChange?.({ type: 'intent', intent });
    return this.continueIntent(intent, wait);
  }

  /** Builds running for an idempotency key not yet in the journal: a second caller waits for the first. */
  private readonly building = new Map<string, Promise<unknown>>();

  /**
   * The one "create, or continue what this key already started" of every caller: an intent the
   * journal holds under `idempotencyKey` is continued (its committed body replayed, nothing rebuilt:
   * no upload, no signed readUrl, no optimization); otherwise `build` makes the request (once, even
   * for concurrent calls with the same key) and it is committed and run as {@link submit} does.
   */
  async createOrContinue(
    idempotencyKey: string,
    build: () => Promise<Omit<SubmitRequest, 'idempotencyKey'>>,
    wait: WaitOptions = {},
  ): Promise<RunResult> {
    if (this.stopping.signal.aborted) throw engineStoppedError();
    const earlier = this.building.get(idempotencyKey);
    if (earlier) {
      // the same key is being built: its intent (when the build got that far) is continued
      await earlier.catch(() => undefined);
      return this.createOrContinue(idempotencyKey, build, wait);
    }
    const known = this.journal.jobs.getIntent(idempotencyKey);
    if (known) return this.continueIntent(known, wait);
    const request = build();
    this.building.set(idempotencyKey, request);
    let built: Omit<SubmitRequest, 'idempotencyKey'>;
    try {
      built = await request;
    } finally {
      this.building.delete(idempotencyKey);
    }
    return this.submit({ ...built, idempotencyKey }, wait);
  }

  /** Continues one intent whatever its state; concurrent calls for the same intent share one run. */
  continueIntent(intent: JobIntent, wait: WaitOptions = {}): Promise<RunResult> {
    if (this.stopping.signal.aborted)
      return Promise.reject(this.withCommitted(engineStoppedError(), intent.id));
    const key = `intent:${intent.idempotencyKey}`;
    let run = this.inFlight.get(key);
    if (!run) {
      run = this.runLeased(intent, wait)
        .catch((error: unknown) => {
          throw this.withCommitted(error, intent.id);
        })
        .finally(() => this.inFlight.delete(key));
      this.inFlight.set(key, run);
    }
    return wait.until === 'accepted' ? this.untilAccepted(intent.idempotencyKey, run, wait) : run;
  }

  /** Marks `error` with the intent (and job) the journal holds now (see {@link committedOf}). */
  private withCommitted(error: unknown, intentId: number): unknown {
    if (error === null || typeof error !== 'object' || committedAtFailure.has(error)) return error;
    try {
      const intent = this.journal.jobs.getIntentById(intentId);
      const job = intent ? this.journal.jobs.getJobForIntent(intent.id) : undefined;
      if (intent) committedAtFailure.set(error, { intent, ...(job ? { job } : {}) });
    } catch {
      // a closed journal (the app closing): the error goes on without it
    }
    return error;
  }

  /**
   * The answer to `until: 'accepted'`: the first of the create's acceptance (announced by the run),
   * the run's own end (a refusal, a deferral, a lease held elsewhere), or the answer time passing
   * with the intent still unanswered. No journal polling: the run tells.
   */
  private untilAccepted(
    idempotencyKey: string,
    run: Promise<RunResult>,
    wait: WaitOptions,
  ): Promise<RunResult> {
    return new Promise<RunResult>((resolve, reject) => {
      let answered = false;
      const waiters = this.acceptanceWaiters.get(idempotencyKey) ?? new Set();
      this.acceptanceWaiters.set(idempotencyKey, waiters);
      const settle = (then: () => void) => {
        if (answered) return;
        answered = true;
        clearTimeout(timer);
        waiters.delete(answer);
        if (waiters.size === 0 && this.acceptanceWaiters.get(idempotencyKey) === waiters)
          this.acceptanceWaiters.delete(idempotencyKey);
        then();
      };
      const answer = (result: RunResult) => settle(() => resolve(result));
      waiters.add(answer);
      const timer = setTimeout(
        () => answer(this.pendingNow(idempotencyKey)),
        wait.answerWithinMs ?? DEFAULT_ANSWER_WITHIN_MS,
      );
      timer.unref?.();
      run.then(
        (result) => {
          if (answered) wait.onBackgroundEnd?.({ result });
          else answer(result);
        },
        (error: unknown) => {
          if (answered) wait.onBackgroundEnd?.({ error });
          else settle(() => reject(error));
        },
      );
      // accepted earlier (a second press, a resumed intent): answered at once
      const known = this.journal.jobs.getIntent(idempotencyKey);
      if (known && this.journal.jobs.getJobForIntent(known.id)) answer(this.pendingNow(idempotencyKey));
    });
  }

  /** The intent as the journal has it now, still in the engine's hands. */
  private pendingNow(idempotencyKey: string): RunResult {
    const intent = this.journal.jobs.getIntent(idempotencyKey)!;
    const job = this.journal.jobs.getJobForIntent(intent.id);
    return job
      ? { state: 'pending', intent, job, reason: 'accepted' }
      : {
          state: 'pending',
          intent,
          reason: intent.errorMessage ?? 'The create is not answered yet; it continues in the background.',
        };
  }

  private announceAccepted(idempotencyKey: string): void {
    const waiters = this.acceptanceWaiters.get(idempotencyKey);
    if (!waiters) return;
    for (const answer of [...waiters]) answer(this.pendingNow(idempotencyKey));
  }

  /**
   * Works an intent under its lease: taken atomically in the journal, renewed while working,
   * released at the end. Losing it (this process stalled past the lease and another took over)
   * stops this run. While another live process holds it, this run waits for that process's outcome
   * (see {@link waitForOtherOwner}) instead of working the job a second time.
   */
  private async runLeased(listed: JobIntent, wait: WaitOptions): Promise<RunResult> {
    const jobs = this.journal.jobs;
    this.ensurePresence();
    const attempt = jobs.acquireLease(listed.id, this.leaseOwner, this.leaseTtlMs, this.isOwnerAlive);
    if (!attempt.acquired) {
      const outcome = await this.waitForOtherOwner(listed, attempt.holder, wait);
      if (outcome) return outcome;
    }
    const lost = new AbortController();
    const renewal = setInterval(() => {
      try {
        if (!jobs.renewLease(listed.id, this.leaseOwner, this.leaseTtlMs)) lost.abort();
      } catch {
        // a busy journal: the next renewal tries again well before the lease ends
      }
    }, this.leaseTtlMs / 3);
    renewal.unref();
    try {
      // another process may have moved the intent on since it was listed
      const intent = jobs.getIntentById(listed.id) ?? listed;
      return await this.runIntent(intent, wait, AbortSignal.any([this.stopping.signal, lost.signal]));
    } finally {
      clearInterval(renewal);
      try {
        jobs.releaseLease(listed.id, this.leaseOwner);
      } catch {
        // a closed or busy journal: the lease expires by itself
      }
    }
  }

  /**
   * Another live process holds the intent's lease: wait, reading only the journal (the service is
   * not asked a second time), until that process lets the lease go — released at its end, or freed
   * by its death — then take the lease (undefined is returned: the caller works the intent, which
   * is nothing more than reporting the state the other process left when it finished it). When this
   * run's wait limit passes first (or it was asked not to wait), the intent is reported pending and
   * held by that process — never as finished.
   */
  private async waitForOtherOwner(
    intent: JobIntent,
    firstHolder: JobLease,
    wait: WaitOptions,
  ): Promise<RunResult | undefined> {
    const jobs = this.journal.jobs;
    const deadline = this.deadline(wait);
    let holder = firstHolder;
    let pauseMs = OTHER_OWNER_RECHECK_MS.first;
    const heldElsewhere = (): RunResult => ({
      state: 'pending',
      intent: jobs.getIntentById(intent.id) ?? intent,
      job: jobs.getJobForIntent(intent.id),
      reason: workedElsewhereReason(holder),
      workedElsewhere: true,
      heldBy: { pid: holder.pid, host: holder.host },
    });
    for (;;) {
      if (wait.noWait || this.stopping.signal.aborted || Date.now() + pauseMs > deadline)
        return heldElsewhere();
      if (!(await sleepUnlessStopped(pauseMs, this.stopping.signal))) return heldElsewhere();
      pauseMs = Math.min(pauseMs * 2, OTHER_OWNER_RECHECK_MS.max);
      const attempt = jobs.acquireLease(intent.id, this.leaseOwner, this.leaseTtlMs, this.isOwnerAlive);
      // taken: the caller goes on, under this lease, from what the other process left
      if (attempt.acquired) return undefined;
      holder = attempt.holder;
    }
  }

  private async runIntent(intent: JobIntent, wait: WaitOptions, signal: AbortSignal): Promise<RunResult> {
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
      const transport = await this.options.transportFor(intent.profileId);
      const outcome = await sendIntent(this.journal, transport, intent, {
        ...this.options.create,
        deadline,
        signal,
      });
      if (outcome.state === 'deferred') {
        this.options.onChange?.({ type: 'intent', intent: outcome.intent });
        return { state: 'pending', intent: outcome.intent, reason: outcome.error.message };
      }
      job = outcome.job;
      this.options.onChange?.({ type: 'job', job });
    }
    const accepted = this.journal.jobs.getIntent(intent.idempotencyKey)!;
    this.announceAccepted(intent.idempotencyKey);
    if (wait.noWait) return { state: 'pending', intent: accepted, job, reason: 'not waiting' };
    return this.runJob(accepted, job, deadline, signal);
  }

  private async runJob(
    intent: JobIntent,
    start: JobWithOutputs,
    deadline: number,
    signal: AbortSignal,
  ): Promise<RunResult> {
    let job = start;
    // finished already (by another process, or before a restart): reported from the journal alone
    if (job.status === 'failed' || job.status === 'canceled') return { state: 'failed', intent, job };
    if (job.status === 'succeeded' && job.outputs.every((o) => o.downloadState === 'verified'))
      return { state: 'succeeded', intent, job };
    const transport = await this.options.transportFor(start.profileId);
    if (job.status !== 'succeeded') {
      const polled = await pollJob(this.journal, transport, job, {
        deadline,
        backoff: this.options.pollBackoff,
        signal,
        onUpdate: (j) => this.options.onChange?.({ type: 'job', job: j }),
        afterPoll: this.options.hooks?.afterPoll,
        wake: this.options.pollWake,
      });
      job = polled.job;
      if (polled.state === 'pending') {
        return {
          state: 'pending',
          intent,
          job,
          reason: this.stopping.signal.aborted
            ? ENGINE_STOPPED_MESSAGE
            : signal.aborted
              ? LEASE_LOST_MESSAGE
              : 'The wait limit passed; the job continues on the next resume.',
        };
      }
    }
    if (job.status !== 'succeeded') return { state: 'failed', intent, job };
    job = await downloadOutputs(this.journal, transport, job, this.libraryDir, {
      ...this.options.download,
      signal,
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
    // one wait limit for the whole resume, however many jobs it waits for one after another
    wait = { ...wait, deadlineAt: this.deadline(wait) };
    await this.removeAbandonedDownloads();
    const optimizations = (await this.options.resumeOptimizations?.(this.stopping.signal)) ?? [];
    let work = this.journal.jobs.listUnfinished();
    if (work.jobsToPoll.length > 0) {
      // one batched read first where the transport can (runtime batch-get); then the list again
      if ((await batchReadAtResume(this.journal, work.jobsToPoll, this.options.transportFor)) > 0)
        work = this.journal.jobs.listUnfinished();
    }
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
    // every lease is given back: the presence that vouched for them goes too
    this.presence?.release();
    this.presence = undefined;
  }

  /**
   * Temporary files of downloads that died with a process: never kept. A file a live row names (a
   * download under a live lease, in this process or another) is left alone. The folder is listed
   * before the journal is read: a download records its file before creating it.
   */
  private async removeAbandonedDownloads(): Promise<void> {
    const incoming = path.join(this.libraryDir, INCOMING_DIR);
    const entries = await readdir(incoming).catch(() => [] as string[]);
    if (entries.length === 0) return;
    const live = this.journal.jobs.liveDownloadTempPaths(this.isOwnerAlive);
    await Promise.all(
      entries
        .map((name) => path.join(incoming, name))
        .filter((file) => !live.has(file))
        .map((file) => rm(file, { force: true })),
    );
  }
}
