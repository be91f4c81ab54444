import type { z } from 'zod';
import type {
  BatchDefaults,
  BatchFile,
  BatchPreview,
  BatchSubmitResult,
  BatchSubmitRow,
} from '../../../shared/bridge/domains/studio.js';
import {
  parseBatchText,
  prepareBatch,
  runBatch,
  type BatchPlan,
  type VideoBatchBackend,
} from './batch-service.js';
import { AppError } from '../errors.js';
import type { Logger } from '../logging/logger.js';
import { isEngineStopped } from '../jobs/engine-stopped.js';
import type { JobEngine } from '../jobs/job-engine.js';
import type { JobsRepository } from '../journal/jobs-repository.js';
import { ApiError } from '../api-clients/api-errors.js';

/** The studio imports text-to-video prompts only (frames would need files next to the CSV). */
export const STUDIO_BATCH_MODES = ['t2v'] as const;
/** Rows created at once by the studio (the CLI's default). */
export const STUDIO_BATCH_CONCURRENCY = 2;
/** How long a row's creation may take (429/503 retries) before it is reported pending and left to the engine. */
const CREATE_ANSWER_SECONDS = 60;

export interface StudioBatchParams {
  profileId?: string;
  file: z.output<typeof BatchFile>;
  defaults: z.output<typeof BatchDefaults>;
  runLabel?: string;
  maxJobs?: number;
}

type SubmitRow = z.output<typeof BatchSubmitRow>;

export interface StudioBatchOptions {
  /** The backend's video services (the public discovery of a profile, or the runtime's list). */
  videoServices: VideoBatchBackend['videoServices'];
  /** One row's creation (`submitVideo` over a profile, or `RuntimeCreate.create`). */
  createVideo: VideoBatchBackend['createVideo'];
  jobs: Pick<JobsRepository, 'getIntent' | 'currentIntent' | 'getJobForIntent'>;
  engine: Pick<JobEngine, 'continueIntent'>;
  activeProfileId: () => string;
  logger: Logger;
  /** The studio's wait limit for one generation (the jobs run on in the background). */
  waitSeconds: () => number;
}

/**
 * "Import prompts" in Create: the CLI's batch (`../batch/batch-service.ts`) over a file's text
 * the renderer read, with the Create form's settings as the defaults, on whichever backend gives
 * its `videoServices` and `createVideo`. Same keys as `framewright batch` for the same profile and
 * rows, so a re-import creates nothing new.
 */
export class StudioBatch {
  /** Submissions run one after another: a double click cannot race two plans of one file. */
  private chain: Promise<unknown> = Promise.resolve();
  private readonly backend: VideoBatchBackend;

  constructor(private readonly o: StudioBatchOptions) {
    this.backend = { videoServices: o.videoServices, createVideo: o.createVideo, jobs: o.jobs };
  }

  private profileId(params: StudioBatchParams): string {
    return params.profileId ?? this.o.activeProfileId();
  }

  private async plan(params: StudioBatchParams): Promise<BatchPlan> {
    const rows = parseBatchText(params.file.text, params.file.name);
    const d = params.defaults;
    return prepareBatch(this.backend, rows, {
      profileId: this.profileId(params),
      runLabel: params.runLabel,
      maxNewRows: params.maxJobs,
      defaults: {
        model: d.model,
        mode: d.generationMode,
        seconds: String(d.seconds),
        orientation: d.orientation,
        resolutionTier: d.resolutionTier,
        ...(d.seed !== null && d.seed !== undefined ? { seed: String(d.seed) } : {}),
      },
      modes: STUDIO_BATCH_MODES,
    });
  }

  async preview(params: StudioBatchParams): Promise<BatchPreview> {
    const plan = await this.plan(params);
    const { jobs } = this.o;
    let newRows = 0;
    const rows = plan.rows.map((r) => {
      const draft = r.prepared?.draft;
      const intent = r.prepared ? jobs.currentIntent(r.prepared.key) : undefined;
      const state = r.issues.length
        ? ('invalid' as const)
        : intent?.state === 'rejected'
          ? ('refused' as const)
          : intent
            ? ('already_sent' as const)
            : r.disposition === 'capped'
              ? ('capped' as const)
              : ('new' as const);
      if (state === 'new' && r.disposition === 'send') newRows += 1;
      return {
        row: r.row,
        prompt: r.prompt,
        issues: r.issues,
        duplicateOf: r.duplicateOf ?? null,
        state,
        model: draft?.model ?? params.defaults.model,
        seconds: draft ? draft.seconds : null,
        orientation: draft?.orientation ?? params.defaults.orientation,
      };
    });
    return { fileName: params.file.name, rows, invalidRows: plan.invalid.length, newRows };
  }

  submit(params: StudioBatchParams): Promise<BatchSubmitResult> {
    const run = this.chain.then(() => this.submitOnce(params));
    this.chain = run.catch(() => undefined);
    return run;
  }

  private async submitOnce(params: StudioBatchParams): Promise<BatchSubmitResult> {
    const profileId = this.profileId(params);
    // checked again here: the renderer's preview is never trusted, and nothing is sent if a row is invalid
    const plan = await this.plan(params);
    if (plan.invalid.length > 0)
      throw new AppError(
        'batch.invalid_rows',
        `${plan.invalid.length} of ${plan.rows.length} rows of ${params.file.name} are invalid; nothing was sent.`,
        plan.invalid.map((r) => ({ row: r.row, reasons: r.issues.map((i) => i.message) })),
      );
    const { jobs } = this.o;
    const results = new Map<number, SubmitRow>();
    const base = (row: number, key: string): SubmitRow => ({
      row,
      state: 'not_submitted',
      idempotencyKey: key,
      jobRowId: null,
      duplicateOf: null,
      error: null,
    });
    const toRun = [];
    for (const r of plan.rows) {
      const row = r.prepared!;
      if (r.disposition === 'capped') {
        // past the run's job limit: not sent now; the next import (same keys) can send it
        results.set(r.row, { ...base(r.row, row.key), state: 'capped' });
        continue;
      }
      if (r.disposition === 'duplicate') {
        results.set(r.row, {
          ...base(r.row, row.key),
          state: 'duplicate',
          duplicateOf: r.duplicateOf ?? null,
        });
        continue;
      }
      const intent = jobs.currentIntent(row.key);
      if (intent) {
        // sent by an earlier import (or the CLI): nothing new is created; the engine owns it
        const job = jobs.getJobForIntent(intent.id);
        results.set(r.row, {
          ...base(r.row, row.key),
          state: intent.state === 'rejected' ? 'refused' : 'already_sent',
          jobRowId: job?.id ?? null,
          error:
            intent.state === 'rejected'
              ? { code: intent.errorCode ?? 'job.rejected', message: intent.errorMessage ?? '' }
              : null,
        });
        continue;
      }
      toRun.push(row);
    }

    const waitSeconds = this.o.waitSeconds();
    const continueInBackground = (key: string) => {
      const intent = jobs.currentIntent(key);
      if (!intent) return;
      void this.o.engine.continueIntent(intent, { waitSeconds }).catch((error: unknown) => {
        // closing the app keeps the row in the journal for the next start: not an error
        if (isEngineStopped(error)) return;
        this.o.logger.warn('studio batch row ended with an error', { key, error });
      });
    };
    const { stoppedBy } = await runBatch(this.backend, toRun, {
      profileId,
      concurrency: STUDIO_BATCH_CONCURRENCY,
      timeoutSeconds: Math.min(waitSeconds, CREATE_ANSWER_SECONDS),
      wait: false,
      onRow: (row, outcome) => {
        if (outcome.kind === 'not_submitted') {
          results.set(row.row, base(row.row, row.key));
          return;
        }
        if (outcome.kind === 'result') {
          const job = outcome.result.job;
          results.set(row.row, {
            ...base(row.row, row.key),
            state: job ? 'accepted' : 'pending',
            jobRowId: job?.id ?? null,
          });
          // the job is polled and downloaded in the background; the Queue shows it live
          continueInBackground(row.key);
          return;
        }
        const { error } = outcome;
        results.set(row.row, {
          ...base(row.row, row.key),
          state: 'refused',
          error: {
            code: error instanceof AppError ? error.code : 'error',
            message: error instanceof Error ? error.message : String(error),
            ...(error instanceof ApiError ? { status: error.status } : {}),
          },
        });
      },
    });
    const rows = [...results.values()].sort((a, b) => a.row - b.row);
    return {
      rows,
      accepted: rows.filter((r) => r.state === 'accepted' || r.state === 'pending').length,
      alreadySent: rows.filter((r) => r.state === 'already_sent').length,
      stoppedBy: stoppedBy ?? null,
    };
  }
}
