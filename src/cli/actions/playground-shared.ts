import type { ServiceEntry } from '../../shared/api/discovery.js';
import { AppError } from '../../main/core/errors.js';
import type { RunResult } from '../../main/core/jobs/job-engine.js';
import type { ResolvedService } from '../../main/core/discovery/resolve-service.js';
import type { CliCore } from '../cli-context.js';
import { ExitCode } from '../exit-codes.js';
import { describeJob } from './video.js';

/** Shared by the playground commands (chat, embed, rerank, ocr, transcribe, speak, image, parse). */

export function integerOption(value: string | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  if (!/^-?\d+$/.test(value.trim()))
    throw new AppError('usage', `${name} must be a whole number (got "${value}").`);
  return Number(value);
}

export function numberOption(value: string | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n))
    throw new AppError('usage', `${name} must be a number (got "${value}").`);
  return n;
}

export function resolveFor(cli: CliCore, kinds: readonly string[], model?: string): Promise<ResolvedService> {
  return cli.core.catalog.resolve(cli.profileId, kinds, model);
}

export function serviceSummary(service: ServiceEntry) {
  return { model: service.modelAlias, serviceKind: service.serviceKind };
}

/** Prints an asynchronous job's outcome and returns the shared exit code. */
export function reportJob(
  cli: CliCore,
  result: RunResult & { body: Record<string, unknown> },
  waited: boolean,
): ExitCode {
  const code =
    result.state === 'succeeded'
      ? ExitCode.ok
      : result.state === 'failed'
        ? ExitCode.jobFailed
        : !waited && result.job
          ? ExitCode.ok
          : result.job
            ? ExitCode.waitLimit
            : ExitCode.serviceError;
  if (cli.json) {
    process.stdout.write(
      JSON.stringify({
        state: result.state,
        idempotencyKey: result.intent.idempotencyKey,
        request: result.body,
        ...describeJob(result.job),
        ...(result.state === 'pending' ? { reason: result.reason } : {}),
        exitCode: code,
      }) + '\n',
    );
  } else {
    const job = result.job;
    process.stdout.write(`${result.state}${job ? ` · job ${job.jobId} · ${job.status}` : ''}\n`);
    if (result.state === 'failed' && job)
      process.stdout.write(`${job.errorCode ?? 'failed'}: ${job.errorMessage ?? ''}\n`);
    if (result.state === 'pending')
      process.stdout.write(`${result.reason} Continue with \`framewright resume\`.\n`);
    for (const output of job?.outputs ?? [])
      if (output.localPath) process.stdout.write(`${output.localPath}\n`);
  }
  return code;
}
