import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { ProbedMedia } from '../../../shared/h3/draft.js';
import type { EffectiveLimits } from '../../../shared/h3/effective-limits.js';
import { validateDraft } from '../../../shared/h3/validate-draft.js';
import { AppError } from '../errors.js';
import type { ProbedFile } from '../media-tools/probe-media.js';
import { ApiError } from '../api-clients/api-errors.js';
import { discoverServices } from '../discovery/service-list.js';
import {
  limitsFor,
  submitVideo,
  type LocalVideoDraft,
  type UploadState,
  type VideoResult,
  type VideoSubmission,
} from '../creating/submit-video.js';
import {
  attemptKey,
  batchIdempotencyKey,
  parseCsvBatch,
  parseTxtBatch,
  type BatchFileRow,
} from './batch-file.js';
import { MAX_BATCH_CONCURRENCY } from './batch-vocabulary.js';
import { concurrencyPool } from './pool.js';
import { chooseService } from '../operations/service-common.js';
import type { MediaJobDeps } from '../operations/job-with-inputs.js';
import type { RunResult } from '../jobs/job-engine.js';
import type { JobsRepository } from '../journal/jobs-repository.js';
import type { ServiceEntry } from '../../../shared/api/discovery.js';

/**
 * Batches of video prompts, shared by `framewright batch` and the studio's "Import prompts" over
 * either backend: parse a TXT/CSV file, prepare every row (limits per model from the backend's
 * video services, frame files probed, the H3 rules engine, keys, duplicates, the cap), then send
 * the rows with bounded concurrency through the backend's `createVideo` — the first row alone, and
 * none after a 401/402/403.
 */

export { MAX_BATCH_CONCURRENCY };

/** What a batch runs on: one backend's video services and video creation, and the journal's intents. */
export interface VideoBatchBackend {
  /** The video services this profile may call (the public discovery, or the runtime's list). */
  videoServices(profileId: string): Promise<ServiceEntry[]>;
  /** Rows are keyed against the journal and a key it holds is not sent as new. */
  jobs: Pick<JobsRepository, 'getIntent'>;
  /** One row's creation under its key; a key already committed is continued, never created again. */
  createVideo(submission: VideoSubmission): Promise<VideoResult | RunResult>;
}

/** A batch over the public interface: discovery and {@link submitVideo} over the profiles' clients. */
export function videoBatchOverProfiles(core: MediaJobDeps): VideoBatchBackend {
  return {
    async videoServices(profileId) {
      const client = await core.profiles.clientFor(profileId);
      const { services } = await discoverServices(core.journal, client, { serviceKind: 'video_generation' });
      return services;
    },
    jobs: core.journal.jobs,
    createVideo: (submission) => submitVideo(core, submission),
  };
}

/** Parses a batch file's text by its extension (`.txt` or `.csv`); refuses other files and empty ones. */
export function parseBatchText(text: string, fileName: string): BatchFileRow[] {
  const name = path.basename(fileName);
  const ext = path.extname(name).toLowerCase();
  if (ext !== '.txt' && ext !== '.csv')
    throw new AppError('usage', `${name}: a batch file is .txt (one prompt per line) or .csv.`);
  const rows = ext === '.csv' ? parseCsvBatch(text, name) : parseTxtBatch(text);
  if (rows.length === 0) throw new AppError('usage', `${name} has no prompts.`);
  return rows;
}

/** Reads and parses a batch file from disk (the CLI). */
export async function readBatchFile(file: string): Promise<BatchFileRow[]> {
  const info = await stat(file).catch(() => undefined);
  if (!info?.isFile()) throw new AppError('file.not_found', `No such file: ${file}`);
  const ext = path.extname(file).toLowerCase();
  if (ext !== '.txt' && ext !== '.csv') return parseBatchText('', file);
  return parseBatchText(await readFile(file, 'utf8'), file);
}

/** The settings a row falls back to (as typed: numbers are parsed, and reported, per row). */
export interface BatchDefaults {
  model: string;
  mode: string;
  seconds: string;
  orientation: string;
  resolutionTier: string;
  seed?: string;
}

export interface PrepareBatchOptions {
  profileId: string;
  runLabel?: string;
  defaults: BatchDefaults;
  /** How a default that is not a whole number is named in the message (the CLI: `--seconds`). */
  defaultNames?: { seconds: string; seed: string };
  /** Probes a CSV row's `first_frame`/`last_frame` value; without it such a row is invalid. */
  resolveFrame?: (value: string) => Promise<ProbedFile & ProbedMedia>;
  /** The generation modes this caller sends (all when omitted). */
  modes?: readonly string[];
  /** At most this many rows the journal does not know yet are sent; the rest are capped. */
  maxNewRows?: number;
}

/** Why a row cannot be sent: a rules-engine violation (its code) or a file/number problem. */
export interface BatchIssue {
  code: string;
  message: string;
  params?: Record<string, string | number>;
}

/** A valid row, ready to send. */
export interface PreparedBatchRow {
  row: number;
  draft: LocalVideoDraft;
  /** The key this run sends the row under ({@link attemptKey} over the journal). */
  key: string;
}

export interface BatchPlanRow {
  row: number;
  prompt: string;
  issues: BatchIssue[];
  /** Set when the row is valid. */
  prepared?: PreparedBatchRow;
  /** Valid rows only: `send`, a `duplicate` of an earlier identical row, or `capped` by `maxNewRows`. */
  disposition?: 'send' | 'duplicate' | 'capped';
  duplicateOf?: number;
  /** The journal already has an intent under the row's key (an earlier run sent it). */
  known: boolean;
}

export interface BatchPlan {
  rows: BatchPlanRow[];
  invalid: BatchPlanRow[];
  /** Valid, not duplicate, not capped: in file order. */
  toSend: PreparedBatchRow[];
}

function wholeNumber(value: string, name: string): number {
  if (!/^-?\d+$/.test(value.trim()))
    throw new AppError('batch.not_a_number', `${name} must be a whole number (got "${value}").`);
  return Number(value);
}

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));
const issueOf = (error: unknown): BatchIssue => ({
  code: error instanceof AppError ? error.code : 'error',
  message: message(error),
});

/**
 * Every row checked against the live contract (the same H3 rules engine as a single video) with
 * its frame files probed, keyed, and duplicates and the cap decided. Only discovery is called.
 */
export async function prepareBatch(
  backend: Pick<VideoBatchBackend, 'videoServices' | 'jobs'>,
  rows: BatchFileRow[],
  options: PrepareBatchOptions,
): Promise<BatchPlan> {
  const { defaults } = options;
  const names = options.defaultNames ?? { seconds: 'seconds', seed: 'seed' };
  const services = await backend.videoServices(options.profileId);
  const limitsByModel = new Map<string, EffectiveLimits | AppError>();
  const limits = (model: string) => {
    if (!limitsByModel.has(model)) {
      try {
        limitsByModel.set(model, limitsFor(chooseService(services, ['video_generation'], model)));
      } catch (error) {
        limitsByModel.set(
          model,
          error instanceof AppError ? error : new AppError('service.not_found', message(error)),
        );
      }
    }
    return limitsByModel.get(model)!;
  };
  const probed = new Map<string, Promise<ProbedFile & ProbedMedia>>();
  const probe = (value: string) => {
    if (!options.resolveFrame)
      return Promise.reject(
        new AppError(
          'batch.frames_unsupported',
          'Frame files are not supported here; use `framewright batch` for rows with first_frame/last_frame.',
        ),
      );
    if (!probed.has(value)) probed.set(value, options.resolveFrame(value));
    return probed.get(value)!;
  };

  const plan: BatchPlan = { rows: [], invalid: [], toSend: [] };
  for (const fileRow of rows) {
    const o = fileRow.overrides;
    const issues: BatchIssue[] = [];
    const number = (value: string | undefined, name: string): number | undefined => {
      if (value === undefined) return undefined;
      try {
        return wholeNumber(value, name);
      } catch (error) {
        issues.push(issueOf(error));
        return undefined;
      }
    };
    const frame = async (value: string | undefined) => {
      if (value === undefined) return undefined;
      try {
        return await probe(value);
      } catch (error) {
        issues.push(issueOf(error));
        return undefined;
      }
    };
    const seconds = number(
      o.seconds ?? defaults.seconds,
      o.seconds !== undefined ? 'seconds' : names.seconds,
    );
    const seed = number(o.seed ?? defaults.seed, o.seed !== undefined ? 'seed' : names.seed);
    const draft: LocalVideoDraft = {
      model: o.model ?? defaults.model,
      generationMode: o.mode ?? defaults.mode,
      prompt: fileRow.prompt,
      orientation: o.orientation ?? defaults.orientation,
      seconds: seconds ?? NaN,
      resolutionTier: o.resolution_tier ?? defaults.resolutionTier,
      seed,
      firstFrame: await frame(o.first_frame),
      lastFrame: await frame(o.last_frame),
      references: [],
    };
    if (options.modes && !options.modes.includes(draft.generationMode))
      issues.push({
        code: 'batch.mode_unsupported',
        message: `Mode "${draft.generationMode}" is not available here (${options.modes.join(', ')}).`,
        params: { mode: draft.generationMode },
      });
    const modelLimits = limits(draft.model);
    if (modelLimits instanceof AppError) issues.push(issueOf(modelLimits));
    else if (seconds !== undefined)
      // unparsable numbers were reported above; the rules engine would only repeat them
      issues.push(
        ...validateDraft(draft, modelLimits).map((v) => ({
          code: v.code,
          message: v.message,
          params: v.params,
        })),
      );
    const planRow: BatchPlanRow = { row: fileRow.row, prompt: fileRow.prompt, issues, known: false };
    plan.rows.push(planRow);
    if (issues.length > 0) {
      plan.invalid.push(planRow);
      continue;
    }
    const baseKey = batchIdempotencyKey(options.profileId, options.runLabel, {
      model: draft.model,
      generationMode: draft.generationMode,
      prompt: draft.prompt,
      seconds: draft.seconds,
      orientation: draft.orientation,
      resolutionTier: draft.resolutionTier,
      seed: draft.seed ?? null,
      firstFrameSha256: draft.firstFrame?.sha256 ?? null,
      lastFrameSha256: draft.lastFrame?.sha256 ?? null,
    });
    planRow.prepared = { row: fileRow.row, draft, key: attemptKey(backend.jobs, baseKey) };
  }

  // Duplicates, then the cap (rows the journal already has under their key create nothing new).
  const firstByKey = new Map<string, number>();
  const maxNew = options.maxNewRows ?? Infinity;
  let newRows = 0;
  for (const planRow of plan.rows) {
    const row = planRow.prepared;
    if (!row) continue;
    planRow.known = backend.jobs.getIntent(row.key) !== undefined;
    const earlier = firstByKey.get(row.key);
    if (earlier !== undefined) {
      planRow.disposition = 'duplicate';
      planRow.duplicateOf = earlier;
      continue;
    }
    firstByKey.set(row.key, row.row);
    if (!planRow.known) {
      if (newRows >= maxNew) {
        planRow.disposition = 'capped';
        continue;
      }
      newRows += 1;
    }
    planRow.disposition = 'send';
    plan.toSend.push(row);
  }
  return plan;
}

/** How one sent row ended in this run. */
export type BatchRowOutcome =
  | { kind: 'result'; result: VideoResult | RunResult }
  | { kind: 'error'; error: unknown }
  | { kind: 'not_submitted'; reason: string };

export interface RunBatchOptions {
  profileId: string;
  /** Rows in flight at once (upload, create and, when waiting, poll and download). */
  concurrency: number;
  /** Each row's wait limit, in seconds. */
  timeoutSeconds: number;
  /** Wait for each row's result; otherwise a row is done once the service accepted it. */
  wait: boolean;
  onStep?: (row: PreparedBatchRow, step: string) => void;
  /** Each input's upload of a row: its state, and while uploading the bytes sent. */
  onUpload?: (row: PreparedBatchRow, upload: UploadState) => void;
  /** Called once per row, as it ends (in completion order). */
  onRow: (row: PreparedBatchRow, outcome: BatchRowOutcome) => void;
}

/**
 * Sends the rows through the backend's `createVideo` at most `concurrency` at a time. The first row is
 * sent alone and the others start once the service has answered it, so a bad key or an empty
 * balance costs one refused request; after a 401/402/403 no further row is started (rows in
 * flight finish) and the rest end `not_submitted`.
 */
export async function runBatch(
  backend: Pick<VideoBatchBackend, 'createVideo'>,
  rows: PreparedBatchRow[],
  options: RunBatchOptions,
): Promise<{ stoppedBy?: string }> {
  if (
    !Number.isInteger(options.concurrency) ||
    options.concurrency < 1 ||
    options.concurrency > MAX_BATCH_CONCURRENCY
  )
    throw new AppError('usage', `The concurrency must be 1..${MAX_BATCH_CONCURRENCY}.`);
  const timeout = options.timeoutSeconds;
  let stoppedBy: string | undefined;
  // The other rows wait until the first one has been answered (accepted, refused or failed).
  let openGate: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => (openGate = resolve));
  const runRow = async (row: PreparedBatchRow, first: boolean): Promise<void> => {
    if (stoppedBy) {
      options.onRow(row, { kind: 'not_submitted', reason: stoppedBy });
      return;
    }
    const started = Date.now();
    const { onStep, onUpload } = options;
    const submission = {
      profileId: options.profileId,
      draft: row.draft,
      idempotencyKey: row.key,
      onStep: onStep ? (step: string) => onStep(row, step) : undefined,
      onUpload: onUpload ? (upload: UploadState) => onUpload(row, upload) : undefined,
    };
    try {
      let result: VideoResult | RunResult;
      if (first) {
        // Sent alone first: a bad key or no balance costs one refusal, not one per row.
        result = await backend.createVideo({ ...submission, wait: { waitSeconds: timeout, noWait: true } });
        openGate();
        if (options.wait && result.job) {
          const left = Math.max(0, timeout - (Date.now() - started) / 1000);
          result = await backend.createVideo({ ...submission, wait: { waitSeconds: left } });
        }
      } else {
        result = await backend.createVideo({
          ...submission,
          wait: { waitSeconds: timeout, noWait: !options.wait },
        });
      }
      options.onRow(row, { kind: 'result', result });
    } catch (error) {
      if (error instanceof ApiError && (error.kind === 'identity' || error.kind === 'balance'))
        stoppedBy ??= `stopped after row ${row.row} was refused: HTTP ${error.status}`;
      options.onRow(row, { kind: 'error', error });
    } finally {
      if (first) openGate();
    }
  };

  const pool = concurrencyPool(options.concurrency);
  await Promise.all(
    rows.map((row, index) =>
      index === 0 ? pool(() => runRow(row, true)) : gate.then(() => pool(() => runRow(row, false))),
    ),
  );
  return stoppedBy ? { stoppedBy } : {};
}
