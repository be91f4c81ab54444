import type { Command } from 'commander';
import { printJson, withCliCore } from '../cli-context.js';
import { ExitCode } from '../exit-codes.js';
import { commandProgress } from '../progress/command-progress.js';
import { describeJob } from './video.js';

export const runShowCommand = async (ref: string, _opts: unknown, command: Command) =>
  withCliCore(command, async (cli) => {
    const { job, idempotencyKey, request } = cli.core.jobs.record(ref, cli.profileId);
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
        ...(r.state === 'pending' ? { reason: r.reason } : {}),
        // still held by another live process when this run's wait limit passed: which one
        ...(r.state === 'pending' && r.workedElsewhere ? { workedElsewhere: true, heldBy: r.heldBy } : {}),
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
        const held = r.heldBy
          ? ` (held by pid ${r.heldBy.pid}${r.heldBy.host ? ` on ${r.heldBy.host}` : ''})`
          : '';
        const why = r.reason && !r.heldBy ? `: ${r.reason}` : '';
        process.stdout.write(`${r.state.padEnd(10)} ${r.jobId ?? r.idempotencyKey}${held}${why}\n`);
      }
      if (summary.results.some((r) => r.workedElsewhere))
        process.stdout.write(
          'Another Framewright process on this data folder still works the jobs marked "held by": they finish there, or run `framewright resume` again.\n',
        );
      for (const e of summary.errors) process.stdout.write(`error      ${e.idempotencyKey}: ${e.message}\n`);
      for (const o of optimizations)
        process.stdout.write(
          `optimization ${o.state.padEnd(10)} ${o.clientRequestId}${o.message ? `: ${o.message}` : ''}\n`,
        );
      if (results.length === 0 && errors.length === 0 && optimizations.length === 0)
        process.stdout.write('Nothing unfinished.\n');
    }
    if (errors.length > 0 || optimizations.some((o) => o.state !== 'succeeded')) return ExitCode.serviceError;
    // pending here, or still held by another live process when the wait limit passed: resumable
    if (results.some((r) => r.state === 'pending')) return ExitCode.waitLimit;
    if (results.some((r) => r.state === 'failed')) return ExitCode.jobFailed;
    return ExitCode.ok;
  });
