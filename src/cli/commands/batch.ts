import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Command } from 'commander';
import type { ProbedMedia } from '../../shared/h3/draft.js';
import type { EffectiveLimits } from '../../shared/h3/effective-limits.js';
import { validateDraft } from '../../shared/h3/validate-draft.js';
import { AppError } from '../../main/core/errors.js';
import type { ProbedFile } from '../../main/core/media/probe-media.js';
import { ApiError } from '../../main/core/platform/api-errors.js';
import { discoverServices, pickService } from '../../main/core/video/discovery.js';
import {
  limitsFor,
  submitVideo,
  type LocalVideoDraft,
  type VideoResult,
} from '../../main/core/video/submit-video.js';
import {
  attemptKey,
  batchIdempotencyKey,
  CSV_COLUMNS,
  parseCsvBatch,
  parseTxtBatch,
  type BatchFileRow,
} from '../batch/batch-file.js';
import { concurrencyPool } from '../batch/pool.js';
import { exitCodeFor, printJson, withCliCore, type CliCore } from '../cli-context.js';
import { ExitCode } from '../exit-codes.js';
import { describeJob, exitCodeForResult, probeInput } from './video.js';

interface BatchOptions {
  model: string;
  mode: string;
  seconds: string;
  orientation: string;
  resolutionTier: string;
  seed?: string;
  concurrency: string;
  maxJobs?: string;
  runLabel?: string;
  timeout: string;
  wait: boolean;
}

export const MAX_BATCH_CONCURRENCY = 8;

type RowState = 'succeeded' | 'failed' | 'pending' | 'duplicate' | 'capped' | 'not_submitted';

interface RowReport {
  row: number;
  state: RowState;
  idempotencyKey: string;
  jobId: string | null;
  status?: string;
  outputs: OutputReport[];
  duplicateOf?: number;
  requestId?: string;
  error?: { code: string; message: string; status?: number };
  reason?: string;
}

type OutputReport = NonNullable<
  Extract<ReturnType<typeof describeJob>, { outputs: unknown }>['outputs']
>[number];

/** A valid row, ready to send. */
interface PreparedRow {
  row: number;
  draft: LocalVideoDraft;
  key: string;
}

/** Severity of exit codes when rows end differently: the worst one is the batch's exit code. */
const SEVERITY: readonly ExitCode[] = [
  ExitCode.identity,
  ExitCode.balance,
  ExitCode.serviceError,
  ExitCode.invalidInput,
  ExitCode.jobFailed,
  ExitCode.waitLimit,
  ExitCode.ok,
];
const worst = (codes: ExitCode[]): ExitCode =>
  codes.reduce<ExitCode>((a, b) => (SEVERITY.indexOf(b) < SEVERITY.indexOf(a) ? b : a), ExitCode.ok);

function wholeNumber(value: string, name: string, range?: [number, number]): number {
  if (!/^-?\d+$/.test(value.trim()))
    throw new AppError('usage', `${name} must be a whole number (got "${value}").`);
  const n = Number(value);
  if (range && (n < range[0] || n > range[1]))
    throw new AppError('usage', `${name} must be ${range[0]}..${range[1]} (got ${n}).`);
  return n;
}

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

async function readRows(file: string): Promise<BatchFileRow[]> {
  const info = await stat(file).catch(() => undefined);
  if (!info?.isFile()) throw new AppError('file.not_found', `No such file: ${file}`);
  const ext = path.extname(file).toLowerCase();
  if (ext !== '.txt' && ext !== '.csv')
    throw new AppError(
      'usage',
      `${path.basename(file)}: a batch file is .txt (one prompt per line) or .csv.`,
    );
  const text = await readFile(file, 'utf8');
  const rows = ext === '.csv' ? parseCsvBatch(text, path.basename(file)) : parseTxtBatch(text);
  if (rows.length === 0) throw new AppError('usage', `${path.basename(file)} has no prompts.`);
  return rows;
}

/**
 * Every row checked against the live contract (the same H3 rules engine as `video`) with its frame
 * files probed; returns the prepared rows, or each bad row's reasons. Only discovery is called.
 */
async function prepareRows(
  cli: CliCore,
  file: string,
  rows: BatchFileRow[],
  opts: BatchOptions,
  runLabel: string | undefined,
): Promise<{ prepared: PreparedRow[]; invalid: { row: number; reasons: string[] }[] }> {
  const client = await cli.core.profiles.clientFor(cli.profileId);
  const { services } = await discoverServices(cli.core.journal, client, { serviceKind: 'video_generation' });
  const limitsByModel = new Map<string, EffectiveLimits | AppError>();
  const limits = (model: string) => {
    if (!limitsByModel.has(model)) {
      try {
        limitsByModel.set(model, limitsFor(pickService(services, model, 'video_generation')));
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
  const probe = (relative: string) => {
    const absolute = path.resolve(path.dirname(path.resolve(file)), relative);
    if (!probed.has(absolute)) probed.set(absolute, probeInput(absolute));
    return probed.get(absolute)!;
  };

  const prepared: PreparedRow[] = [];
  const invalid: { row: number; reasons: string[] }[] = [];
  for (const fileRow of rows) {
    const o = fileRow.overrides;
    const reasons: string[] = [];
    const number = (value: string | undefined, name: string): number | undefined => {
      if (value === undefined) return undefined;
      try {
        return wholeNumber(value, name);
      } catch (error) {
        reasons.push(message(error));
        return undefined;
      }
    };
    const frame = async (value: string | undefined) => {
      if (value === undefined) return undefined;
      try {
        return await probe(value);
      } catch (error) {
        reasons.push(message(error));
        return undefined;
      }
    };
    const seconds = number(o.seconds ?? opts.seconds, o.seconds !== undefined ? 'seconds' : '--seconds');
    const seed = number(o.seed ?? opts.seed, o.seed !== undefined ? 'seed' : '--seed');
    const draft: LocalVideoDraft = {
      model: o.model ?? opts.model,
      generationMode: o.mode ?? opts.mode,
      prompt: fileRow.prompt,
      orientation: o.orientation ?? opts.orientation,
      seconds: seconds ?? NaN,
      resolutionTier: o.resolution_tier ?? opts.resolutionTier,
      seed,
      firstFrame: await frame(o.first_frame),
      lastFrame: await frame(o.last_frame),
      references: [],
    };
    const modelLimits = limits(draft.model);
    if (modelLimits instanceof AppError) reasons.push(modelLimits.message);
    else if (seconds !== undefined)
      // unparsable numbers were reported above; the rules engine would only repeat them
      reasons.push(...validateDraft(draft, modelLimits).map((v) => v.message));
    if (reasons.length > 0) {
      invalid.push({ row: fileRow.row, reasons });
      continue;
    }
    prepared.push({
      row: fileRow.row,
      draft,
      key: batchIdempotencyKey(cli.profileId, runLabel, {
        model: draft.model,
        generationMode: draft.generationMode,
        prompt: draft.prompt,
        seconds: draft.seconds,
        orientation: draft.orientation,
        resolutionTier: draft.resolutionTier,
        seed: draft.seed ?? null,
        firstFrameSha256: draft.firstFrame?.sha256 ?? null,
        lastFrameSha256: draft.lastFrame?.sha256 ?? null,
      }),
    });
  }
  return { prepared, invalid };
}

function rowLine(report: RowReport): string {
  const head = `row ${report.row}`;
  switch (report.state) {
    case 'duplicate':
      return `${head}  duplicate of row ${report.duplicateOf}`;
    case 'capped':
      return `${head}  not submitted (cap)`;
    case 'not_submitted':
      return `${head}  not submitted (${report.reason})`;
    case 'succeeded':
      return `${head}  succeeded  ${report.jobId}  ${report.outputs.map((o) => o.path ?? o.assetId).join('  ')}`;
    case 'pending':
      return `${head}  pending  ${report.jobId ?? '(not yet accepted)'}  ${report.reason ?? ''} Run \`framewright resume\` to continue.`;
    case 'failed':
      return `${head}  failed  ${report.jobId ?? '-'}  ${report.error ? report.error.message : ''}`;
  }
}

/** `framewright batch FILE …`: many video prompts from a TXT/CSV file, bounded, never created twice. */
export function registerBatchCommand(program: Command): void {
  program
    .command('batch')
    .argument('<file>', '.txt (one prompt per line, # comments) or .csv (header row with a "prompt" column)')
    .description(
      'create one video per prompt of a TXT or CSV file: every row is validated against the live contract before anything is sent',
    )
    .requiredOption('--model <alias>', 'model alias from `framewright services --kind video_generation`')
    .option('--mode <mode>', 'generation mode', 't2v')
    .option('--seconds <n>', 'requested seconds', '5')
    .option('--orientation <o>', 'landscape | portrait', 'landscape')
    .option('--resolution-tier <tier>', 'resolution tier', '768p')
    .option('--seed <n>', 'seed (omit to let the platform decide)')
    .option('--concurrency <n>', `rows in flight at once, 1..${MAX_BATCH_CONCURRENCY}`, '2')
    .option(
      '--max-jobs <n>',
      'send at most N rows this run (in file order); rows this data folder already sent earlier do not count',
    )
    .option('--run-label <label>', 'a deliberate new generation of the same rows (new idempotency keys)')
    .option(
      '--timeout <seconds>',
      "each row's wait limit; past it the row stays pending and resumable",
      '1800',
    )
    .option('--no-wait', 'return once every row is accepted')
    .addHelpText(
      'after',
      `
CSV columns: ${CSV_COLUMNS.join(', ')} ("prompt" required; the others override the
options for that row; first_frame/last_frame are paths relative to the CSV's folder).

Never twice: each row's Idempotency-Key is derived from the profile, --run-label and the row's
settings (frame files by content). Running the same file again — after a crash, a timeout or a
finished run — creates no new job; it reports (and finishes) the existing ones. To generate the
same rows again on purpose, pass a new --run-label. Identical rows are sent once and reported
as duplicates.

The first row is sent alone; the rest follow once it is accepted. A 401/403 or 402 stops the
batch: no further row is sent.

Exit codes: 2 a row is invalid (nothing was sent); otherwise the worst row: 3 identity,
4 balance, 6 service/network, 1 a job failed, 5 a wait limit passed (framewright resume), 0.`,
    )
    .action(async (file: string, opts: BatchOptions, command: Command) =>
      withCliCore(command, async (cli) => {
        const concurrency = wholeNumber(opts.concurrency, '--concurrency', [1, MAX_BATCH_CONCURRENCY]);
        const maxJobs =
          opts.maxJobs === undefined ? Infinity : wholeNumber(opts.maxJobs, '--max-jobs', [0, 1_000_000]);
        const timeout = wholeNumber(opts.timeout, '--timeout', [0, 7 * 24 * 3600]);
        const runLabel = opts.runLabel;
        if (runLabel !== undefined && runLabel.trim() === '')
          throw new AppError('usage', '--run-label must not be empty.');
        const fileRows = await readRows(file);
        const { prepared, invalid } = await prepareRows(cli, file, fileRows, opts, runLabel);
        if (invalid.length > 0) {
          const text = `${invalid.length} of ${fileRows.length} rows of ${path.basename(file)} are invalid; nothing was sent.`;
          if (cli.json)
            printJson({
              error: { code: 'batch.invalid_rows', message: text, details: invalid },
              exitCode: ExitCode.invalidInput,
            });
          process.stderr.write(`framewright: ${text}\n`);
          for (const bad of invalid)
            for (const reason of bad.reasons) process.stderr.write(`  row ${bad.row}: ${reason}\n`);
          return ExitCode.invalidInput;
        }

        const reports = new Map<number, RowReport>();
        const codes: ExitCode[] = [];
        const finish = (report: RowReport, code: ExitCode = ExitCode.ok) => {
          reports.set(report.row, report);
          codes.push(code);
          if (!cli.json) process.stdout.write(rowLine(report) + '\n');
        };
        const blank = (row: PreparedRow, state: RowState) => ({
          row: row.row,
          state,
          idempotencyKey: row.key,
          jobId: null,
          outputs: [] as OutputReport[],
        });

        // Duplicates, then the cap (rows the journal already has under their key create nothing new).
        const firstByKey = new Map<string, number>();
        const toRun: PreparedRow[] = [];
        let newRows = 0;
        for (const row of prepared) {
          row.key = attemptKey(cli.core.journal.jobs, row.key);
          const earlier = firstByKey.get(row.key);
          if (earlier !== undefined) {
            finish({ ...blank(row, 'duplicate'), duplicateOf: earlier });
            continue;
          }
          firstByKey.set(row.key, row.row);
          if (!cli.core.journal.jobs.getIntent(row.key)) {
            if (newRows >= maxJobs) {
              finish(blank(row, 'capped'));
              continue;
            }
            newRows += 1;
          }
          toRun.push(row);
        }

        let stoppedBy: string | undefined;
        // The other rows wait until the first one has been answered (accepted, refused or failed).
        let openGate: () => void = () => undefined;
        const gate = new Promise<void>((resolve) => (openGate = resolve));
        const runRow = async (row: PreparedRow, first: boolean): Promise<void> => {
          if (stoppedBy) {
            finish({ ...blank(row, 'not_submitted'), reason: stoppedBy });
            return;
          }
          const started = Date.now();
          const submission = {
            profileId: cli.profileId,
            draft: row.draft,
            idempotencyKey: row.key,
            onStep: cli.json
              ? undefined
              : (step: string) => process.stderr.write(`… row ${row.row}: ${step}\n`),
          };
          try {
            let result: VideoResult;
            if (first) {
              // Sent alone first: a bad key or no balance costs one refusal, not one per row.
              result = await submitVideo(cli.core, {
                ...submission,
                wait: { waitSeconds: timeout, noWait: true },
              });
              openGate();
              if (opts.wait && result.job) {
                const left = Math.max(0, timeout - (Date.now() - started) / 1000);
                result = await submitVideo(cli.core, { ...submission, wait: { waitSeconds: left } });
              }
            } else {
              result = await submitVideo(cli.core, {
                ...submission,
                wait: { waitSeconds: timeout, noWait: !opts.wait },
              });
            }
            const job = describeJob(result.job);
            finish(
              {
                ...blank(row, result.state),
                jobId: job.jobId ?? null,
                status: job.status,
                requestId: job.requestId,
                outputs: job.outputs ?? [],
                ...(result.state === 'failed' && job.errorCode
                  ? { error: { code: job.errorCode, message: `${job.errorCode}: ${job.errorMessage ?? ''}` } }
                  : {}),
                ...(result.state === 'pending' ? { reason: result.reason } : {}),
              },
              exitCodeForResult(result.state, result.job, opts.wait),
            );
          } catch (error) {
            if (error instanceof ApiError && (error.kind === 'identity' || error.kind === 'balance'))
              stoppedBy ??= `stopped after row ${row.row} was refused: HTTP ${error.status}`;
            const intent = cli.core.journal.jobs.getIntent(row.key);
            const job = intent ? cli.core.journal.jobs.getJobForIntent(intent.id) : undefined;
            finish(
              {
                ...blank(row, 'failed'),
                jobId: job?.jobId ?? null,
                error: {
                  code: error instanceof AppError ? error.code : 'error',
                  message: message(error),
                  ...(error instanceof ApiError ? { status: error.status } : {}),
                },
              },
              exitCodeFor(error),
            );
          } finally {
            if (first) openGate();
          }
        };

        const pool = concurrencyPool(concurrency);
        await Promise.all(
          toRun.map((row, index) =>
            index === 0 ? pool(() => runRow(row, true)) : gate.then(() => pool(() => runRow(row, false))),
          ),
        );

        const rows = [...reports.values()].sort((a, b) => a.row - b.row);
        const count = (state: RowState) => rows.filter((r) => r.state === state).length;
        const summary = {
          rows: rows.length,
          succeeded: count('succeeded'),
          failed: count('failed'),
          pending: count('pending'),
          duplicate: count('duplicate'),
          capped: count('capped'),
          notSubmitted: count('not_submitted'),
          ...(stoppedBy ? { stoppedBy } : {}),
        };
        const exitCode = worst(codes);
        if (cli.json) printJson({ rows, summary, exitCode });
        else
          process.stdout.write(
            `${summary.rows} rows: ${summary.succeeded} succeeded, ${summary.failed} failed, ${summary.pending} pending, ` +
              `${summary.duplicate} duplicate, ${summary.capped} capped, ${summary.notSubmitted} not submitted` +
              `${stoppedBy ? ` (${stoppedBy})` : ''}\n`,
          );
        return exitCode;
      }),
    );
}
