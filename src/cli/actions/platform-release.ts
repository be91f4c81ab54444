import type { Command } from 'commander';
import {
  SubmissionInvalidError,
  type ReleaseEvent,
  type ReleaseResult,
} from '../../main/core/platform-release/platform-release.js';
import { APP_VERSION } from '../../shared/app-version.js';
import { withPlatformRelease } from '../cli-developer.js';
import { ExitCode } from '../exit-codes.js';
import { printJson } from '../print-json.js';
import { createJobProgress } from '../progress/job-progress.js';

interface ReleaseOptions {
  image: string;
  displayVersion?: string;
  releaseNotes?: string;
  reason?: string;
  timeout: string;
}

/** Exit codes (docs/cli.md, "CLI exit codes"): applied or approved 0, rejected or withdrawn 1, still pending 5. */
const EXIT_FOR_DECISION = {
  applied: ExitCode.ok,
  approved: ExitCode.ok,
  rejected: ExitCode.jobFailed,
  canceled: ExitCode.jobFailed,
  pending: ExitCode.waitLimit,
} as const;

/** `framewright platform release --image FILE`. */
export async function runPlatformRelease(_options: unknown, command: Command): Promise<void> {
  const own = command.opts<ReleaseOptions>();
  await withPlatformRelease(command, async (feature, options, json) => {
    const timeoutSeconds = Number(own.timeout);
    if (!Number.isFinite(timeoutSeconds) || timeoutSeconds < 0) {
      process.stderr.write('framewright: --timeout must be a number of seconds (0 or more).\n');
      return ExitCode.invalidInput;
    }
    const stream = process.stderr;
    // the live line on a terminal, plain lines at each change elsewhere, nothing with --json
    const progress = json ? undefined : createJobProgress({ stream, isTTY: Boolean(stream.isTTY) });
    const label = 'release';
    const onEvent = (event: ReleaseEvent) => {
      if (!progress) return;
      if (event.type === 'step') progress.update(label, { stage: event.text, upload: null });
      else if (event.type === 'warning')
        progress.above(() =>
          stream.write(`warning: ${event.issue.path}: ${event.issue.message} (${event.issue.code})\n`),
        );
      else if (event.type === 'upload')
        progress.update(label, {
          stage: `image part ${event.partNumber}/${event.partCount}`,
          upload: { bytes: event.sentBytes, totalBytes: event.totalBytes },
        });
      else if (event.action !== 'sent')
        progress.above(() =>
          stream.write(
            `image part ${event.partNumber}: ${event.action === 'adopted' ? 'already on the platform (recorded, not sent again)' : 'already recorded'}\n`,
          ),
        );
    };
    let result: ReleaseResult;
    try {
      result = await feature.release({
        ...(options.appId ? { appId: options.appId } : {}),
        imagePath: own.image,
        displayVersion: own.displayVersion ?? APP_VERSION,
        ...(own.releaseNotes !== undefined ? { releaseNotes: own.releaseNotes } : {}),
        ...(own.reason !== undefined ? { reason: own.reason } : {}),
        timeoutMs: timeoutSeconds * 1000,
        onEvent,
      });
    } catch (error) {
      progress?.done(label, null);
      progress?.close();
      if (!(error instanceof SubmissionInvalidError)) throw error;
      if (json)
        printJson({
          error: { code: error.code, message: error.message, problems: error.problems },
          exitCode: ExitCode.invalidInput,
        });
      process.stderr.write(`framewright: ${error.message}\n`);
      for (const p of error.problems) process.stderr.write(`  ${p.path || '$'}: ${p.message} (${p.code})\n`);
      return ExitCode.invalidInput;
    }
    progress?.done(label, null);
    progress?.close();
    const exitCode = EXIT_FOR_DECISION[result.decision];
    if (json) {
      printJson({ ...result, exitCode });
      return exitCode;
    }
    const lines = [
      `version ${result.versionId} (${result.displayVersion}) of ${result.appKey}${result.versionReused ? ' — reused (same submission)' : ''}, ${result.versionStatus}`,
      `image ${result.image.imageAssetId} ${result.image.digest}` +
        (result.image.imageImportId
          ? ` — parts sent: ${result.image.partsSent.join(', ') || 'none'}; already on the platform: ${[...result.image.partsAlreadyRecorded, ...result.image.partsAdopted].sort((a, b) => a - b).join(', ') || 'none'}`
          : ' — already bound to this version'),
      result.request
        ? `publish request ${result.request.requestId}: ${result.request.status}`
        : 'no publish request (already active)',
      decisionLine(result),
    ];
    process.stdout.write(lines.join('\n') + '\n');
    return exitCode;
  });
}

function decisionLine(result: ReleaseResult): string {
  switch (result.decision) {
    case 'applied':
      return `decision: approved and applied — ${result.displayVersion} is the active version`;
    case 'approved':
      return 'decision: approved — the platform applies it later';
    case 'rejected':
      return 'decision: rejected';
    case 'canceled':
      return 'decision: the request was withdrawn';
    default:
      return 'decision: still pending — run the same command again to keep following it (nothing is sent twice)';
  }
}
