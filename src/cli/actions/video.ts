import { randomUUID } from 'node:crypto';
import type { Command } from 'commander';
import type { ProbedMedia } from '../../shared/h3/draft.js';
import { AppError } from '../../main/core/errors.js';
import { NOT_VERIFIABLE_REASON, verificationOf } from '../../main/core/jobs/verification.js';
import type { JobWithOutputs } from '../../main/core/library/job-views.js';
import { probeMedia, type ProbedFile } from '../../main/core/media-tools/probe-media.js';
import { chooseVideoServiceForMode } from '../../main/core/backends/public-api/choose-video-service.js';
import type { LocalVideoDraft, VideoResult } from '../../main/core/creating/submit-video.js';
import { printJson, withCliCore, type CliCore } from '../cli-context.js';
import { ExitCode } from '../exit-codes.js';
import { commandProgress } from '../progress/command-progress.js';
import { uploadChange } from '../progress/follow-engine.js';

interface VideoOptions {
  model?: string;
  mode: string;
  prompt: string;
  seconds: string;
  orientation: string;
  resolutionTier: string;
  seed?: string;
  firstFrame?: string;
  lastFrame?: string;
  refImage: string[];
  refVideo?: string;
  refAudio: string[];
  optimize?: boolean;
  optimizationId?: string;
  style?: string;
  timeout: string;
  wait: boolean;
  idempotencyKey?: string;
}

function integer(value: string, name: string): number {
  if (!/^-?\d+$/.test(value.trim()))
    throw new AppError('usage', `${name} must be a whole number (got "${value}").`);
  return Number(value);
}

export async function probeInput(file: string): Promise<ProbedFile & ProbedMedia> {
  const probed = await probeMedia(file);
  if (probed.kind === 'document') {
    throw new AppError(
      'file.unsupported_type',
      `${probed.fileName} is a document (${probed.mimeType}); video inputs are images, video or audio.`,
    );
  }
  return probed as ProbedFile & ProbedMedia;
}

/** What `--json` prints for a job: identifiers, status, and each verified file. */
export function describeJob(job: JobWithOutputs | undefined) {
  if (!job) return {};
  return {
    jobId: job.jobId,
    requestId: job.requestId,
    jobUrl: job.jobUrl,
    profileId: job.profileId,
    model: job.model,
    status: job.status,
    stage: job.stage,
    stageMessage: job.stageMessage,
    effectiveMediaSpec: job.effectiveSpec,
    errorCode: job.errorCode,
    errorMessage: job.errorMessage,
    retryable: job.retryable,
    outputs: job.outputs.map((o) => ({
      assetId: o.assetId,
      path: o.localPath ?? null,
      sha256: o.sha256 ?? o.expectedSha256 ?? null,
      byteSize: o.byteSize ?? o.expectedByteSize ?? null,
      mimeType: o.mimeType ?? o.expectedMimeType ?? null,
      // one word for one fact, as the studio says it: verified only when checked against what
      // the service announced; `not_verifiable`: stored, but nothing announced to check against
      verified: verificationOf(o) === 'verified',
      verification: verificationOf(o),
      ...(verificationOf(o) === 'not_verifiable' ? { verificationReason: NOT_VERIFIABLE_REASON } : {}),
    })),
  };
}

export function exitCodeForResult(
  state: VideoResult['state'],
  job: JobWithOutputs | undefined,
  waited: boolean,
): ExitCode {
  if (state === 'succeeded') return ExitCode.ok;
  if (state === 'failed') return ExitCode.jobFailed;
  if (!waited && job) return ExitCode.ok;
  return job ? ExitCode.waitLimit : ExitCode.serviceError;
}

/**
 * Without `--model`: the one available video service whose contract offers the mode, said on
 * stderr (stdout stays the result); none or several end with exit 2 and the list.
 */
async function modelForMode(cli: CliCore, mode: string): Promise<string> {
  const { services } = await cli.core.catalog.discover(cli.profileId, { serviceKind: 'video_generation' });
  const service = chooseVideoServiceForMode(services, mode);
  process.stderr.write(
    `Using model ${service.modelAlias}: the one available video service that offers mode ${mode}.\n`,
  );
  return service.modelAlias;
}

export const runVideoCommand = async (opts: VideoOptions, command: Command) =>
  withCliCore(command, async (cli) => {
    const seconds = integer(opts.seconds, '--seconds');
    const seed = opts.seed === undefined ? undefined : integer(opts.seed, '--seed');
    const timeout = integer(opts.timeout, '--timeout');
    if (opts.style && !opts.optimize) throw new AppError('usage', '--style applies only with --optimize.');
    if (opts.optimizationId && !opts.optimize)
      throw new AppError('usage', '--optimization-id applies only with --optimize.');
    const refs: (ProbedFile & ProbedMedia)[] = [];
    for (const file of opts.refImage) refs.push(await probeInput(file));
    if (opts.refVideo) refs.push(await probeInput(opts.refVideo));
    for (const file of opts.refAudio) refs.push(await probeInput(file));
    const model = opts.model ?? (await modelForMode(cli, opts.mode));
    const draft: LocalVideoDraft = {
      model,
      generationMode: opts.mode,
      prompt: opts.prompt,
      orientation: opts.orientation,
      seconds,
      resolutionTier: opts.resolutionTier,
      seed,
      firstFrame: opts.firstFrame ? await probeInput(opts.firstFrame) : undefined,
      lastFrame: opts.lastFrame ? await probeInput(opts.lastFrame) : undefined,
      references: refs,
    };
    const idempotencyKey = opts.idempotencyKey ?? `fw-cli-${randomUUID()}`;
    const line = 'video';
    const progress = commandProgress(cli, { labelFor: (key) => (key === idempotencyKey ? line : undefined) });
    let result: VideoResult;
    try {
      progress.track(line);
      result = await cli.core.media.submitVideo({
        profileId: cli.profileId,
        draft,
        idempotencyKey,
        optimize: opts.optimize ? { style: opts.style, clientRequestId: opts.optimizationId } : undefined,
        wait: { waitSeconds: timeout, noWait: !opts.wait },
        onStep: (step) => progress.update(line, { stage: step }),
        onUpload: (upload) => progress.update(line, uploadChange(upload)),
      });
      progress.done(line);
    } finally {
      progress.end();
    }
    const summary = {
      ...describeJob(result.job),
      state: result.state,
      idempotencyKey,
      optimizedPrompt: result.optimizedPrompt,
      uploads: result.uploads,
      ...(result.state === 'pending' ? { pendingReason: result.reason } : {}),
    };
    if (cli.json) printJson(summary);
    else {
      process.stdout.write(
        `${result.state}: job ${summary.jobId ?? '(not yet accepted)'}${summary.status ? ` (${summary.status})` : ''}\n`,
      );
      for (const o of summary.outputs ?? [])
        process.stdout.write(
          `  ${o.path ?? o.assetId}  sha256 ${o.sha256}${o.verification ? `  ${o.verification.replace('_', ' ')}` : ''}${o.verificationReason ? ` (${o.verificationReason})` : ''}\n`,
        );
      if (result.state === 'failed')
        process.stdout.write(
          `  ${summary.errorCode}: ${summary.errorMessage} (request ${summary.requestId})\n`,
        );
      if (result.state === 'pending')
        process.stdout.write(`  ${result.reason} Run \`framewright resume\` to continue.\n`);
    }
    return exitCodeForResult(result.state, result.job, opts.wait);
  });
