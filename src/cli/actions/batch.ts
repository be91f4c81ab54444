import path from 'node:path';
import type { Command } from 'commander';
import {
  MAX_BATCH_CONCURRENCY,
  readBatchFile,
  type BatchDefaults,
  type PreparedBatchRow,
} from '../../main/core/batch/batch-service.js';
import { AppError } from '../../main/core/errors.js';
import { ApiError } from '../../main/core/api-clients/api-errors.js';
import { exitCodeFor, printJson, withCliCore } from '../cli-context.js';
import { ExitCode } from '../exit-codes.js';
import { commandProgress } from '../progress/command-progress.js';
import { uploadChange } from '../progress/follow-engine.js';
import { describeJob, exitCodeForResult, probeInput } from './video.js';

/** The command's options: a row's defaults, and how the run goes. */
interface BatchOptions extends BatchDefaults {
  concurrency: string;
  maxJobs?: string;
  runLabel?: string;
  timeout: string;
  wait: boolean;
}

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

export const runBatchCommand = async (file: string, opts: BatchOptions, command: Command) =>
  withCliCore(command, async (cli) => {
    const concurrency = wholeNumber(opts.concurrency, '--concurrency', [1, MAX_BATCH_CONCURRENCY]);
    const maxJobs =
      opts.maxJobs === undefined ? Infinity : wholeNumber(opts.maxJobs, '--max-jobs', [0, 1_000_000]);
    const timeout = wholeNumber(opts.timeout, '--timeout', [0, 7 * 24 * 3600]);
    const runLabel = opts.runLabel;
    if (runLabel !== undefined && runLabel.trim() === '')
      throw new AppError('usage', '--run-label must not be empty.');
    const fileRows = await readBatchFile(file);
    const plan = await cli.core.media.prepareBatch(fileRows, {
      profileId: cli.profileId,
      runLabel,
      defaults: {
        model: opts.model,
        mode: opts.mode,
        seconds: opts.seconds,
        orientation: opts.orientation,
        resolutionTier: opts.resolutionTier,
        seed: opts.seed,
      },
      defaultNames: { seconds: '--seconds', seed: '--seed' },
      resolveFrame: (relative) => probeInput(path.resolve(path.dirname(path.resolve(file)), relative)),
      maxNewRows: maxJobs,
    });
    if (plan.invalid.length > 0) {
      const invalid = plan.invalid.map((bad) => ({
        row: bad.row,
        reasons: bad.issues.map((issue) => issue.message),
      }));
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

    const rowOfKey = new Map(plan.toSend.map((row) => [row.key, row.row]));
    const line = (row: number) => `row ${row}`;
    const progress = commandProgress(cli, {
      labelFor: (key) => {
        const row = rowOfKey.get(key);
        return row === undefined ? undefined : line(row);
      },
    });
    const reports = new Map<number, RowReport>();
    const codes: ExitCode[] = [];
    const finish = (report: RowReport, code: ExitCode = ExitCode.ok) => {
      reports.set(report.row, report);
      codes.push(code);
      progress.done(line(report.row), null);
      if (!cli.json) progress.above(() => process.stdout.write(rowLine(report) + '\n'));
    };
    const blank = (row: PreparedBatchRow, state: RowState) => ({
      row: row.row,
      state,
      idempotencyKey: row.key,
      jobId: null,
      outputs: [] as OutputReport[],
    });

    // Duplicates and capped rows are reported first; nothing is sent for them.
    for (const planRow of plan.rows) {
      if (planRow.disposition === 'duplicate')
        finish({ ...blank(planRow.prepared!, 'duplicate'), duplicateOf: planRow.duplicateOf });
      else if (planRow.disposition === 'capped') finish(blank(planRow.prepared!, 'capped'));
    }

    const { stoppedBy } = await cli.core.media
      .runBatch(plan.toSend, {
        profileId: cli.profileId,
        concurrency,
        timeoutSeconds: timeout,
        wait: opts.wait,
        onStep: (row, step) => progress.update(line(row.row), { stage: step }),
        onUpload: (row, upload) => progress.update(line(row.row), uploadChange(upload)),
        onRow: (row, outcome) => {
          if (outcome.kind === 'not_submitted') {
            finish({ ...blank(row, 'not_submitted'), reason: outcome.reason });
            return;
          }
          if (outcome.kind === 'result') {
            const { result } = outcome;
            const job = describeJob(result.job);
            finish(
              {
                ...blank(row, result.state),
                jobId: job.jobId ?? null,
                status: job.status,
                requestId: job.requestId,
                outputs: job.outputs ?? [],
                ...(result.state === 'failed' && job.errorCode
                  ? {
                      error: {
                        code: job.errorCode,
                        message: `${job.errorCode}: ${job.errorMessage ?? ''}`,
                      },
                    }
                  : {}),
                ...(result.state === 'pending' ? { reason: result.reason } : {}),
              },
              exitCodeForResult(result.state, result.job, opts.wait),
            );
            return;
          }
          const { error } = outcome;
          const job = cli.core.jobs.jobForKey(row.key);
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
        },
      })
      .finally(() => progress.end());

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
  });
