import type { Command } from 'commander';
import { printJson, withCliCore } from '../cli-context.js';
import { WORKED_ELSEWHERE_MESSAGE } from '../../main/core/jobs/job-engine.js';
import { ExitCode } from '../exit-codes.js';
import { commandProgress } from '../progress/command-progress.js';
import { describeJob } from './video.js';

export const runShowCommand = async (ref: string, _opts: unknown, command: Command) =>
  withCliCore(command, async (cli) => {
    const { job, idempotencyKey, request } = cli.core.jobs.detail(ref, cli.profileId);
    const detail = { ...describeJob(job), idempotencyKey, request };
    if (cli.json) printJson(detail);
    else process.stdout.write(JSON.stringify(detail, null, 2) + '\n');
    return ExitCode.ok;
  });

export const runResumeCommand = async (opts: { timeout: string }, command: Command) =>
  withCliCore(command, async (cli) => {
    // each job resumed gets a line, named by its job id (or key, before the service accepted it)
    const progress = commandProgress(cli, { labelFor: (key, jobId) => jobId ?? key, endOnFinish: true });
    const { results, errors, optimizations } = await cli.core.media
      .resume({ waitSeconds: Number(opts.timeout) })
      .finally(() => progress.end());
    const summary = {
      results: results.map((r) => ({
        state: r.state,
        idempotencyKey: r.intent.idempotencyKey,
        ...(r.state === 'pending' && r.workedElsewhere ? { workedElsewhere: true, reason: r.reason } : {}),
        ...describeJob(r.job),
      })),
      errors: errors.map((e) => ({
        idempotencyKey: e.key,
        code: e.error.code,
        message: e.error.message,
      })),
      optimizations,
    };
    if (cli.json) printJson(summary);
    else {
      for (const r of summary.results) {
        const state = r.workedElsewhere ? 'elsewhere' : r.state;
        process.stdout.write(`${state.padEnd(10)} ${r.jobId ?? r.idempotencyKey}\n`);
      }
      if (summary.results.some((r) => r.workedElsewhere))
        process.stdout.write(`elsewhere: ${WORKED_ELSEWHERE_MESSAGE}\n`);
      for (const e of summary.errors) process.stdout.write(`error      ${e.idempotencyKey}: ${e.message}\n`);
      for (const o of optimizations)
        process.stdout.write(
          `optimization ${o.state.padEnd(10)} ${o.clientRequestId}${o.message ? `: ${o.message}` : ''}\n`,
        );
      if (results.length === 0 && errors.length === 0 && optimizations.length === 0)
        process.stdout.write('Nothing unfinished.\n');
    }
    if (errors.length > 0 || optimizations.some((o) => o.state !== 'succeeded')) return ExitCode.serviceError;
    // a job another process works is not this run's to wait for
    if (results.some((r) => r.state === 'pending' && !r.workedElsewhere)) return ExitCode.waitLimit;
    if (results.some((r) => r.state === 'failed')) return ExitCode.jobFailed;
    return ExitCode.ok;
  });
