import { spawn } from 'node:child_process';
import { locateMediaTools } from '../../../shared/node/ffmpeg-locator.js';
import { AppError } from '../errors.js';
import type { AppErrorCode } from '../error-kinds.js';
import { mediaToolEnvironment } from './tool-environment.js';
import { MediaWorkAborted, runMediaWork } from './media-work-queue.js';
import { atMediaPriority, lowerPriority } from './tool-priority.js';

/** How a failed or stopped run is reported: the error code and what the run was doing. */
export interface FfmpegFailure {
  code: AppErrorCode;
  /** "assemble the sequence", "render the delivery"… */
  doing: string;
  /** The message (and code, else `code`) when `signal` stopped the run. */
  stopped: string;
  stoppedCode?: AppErrorCode;
}

/** How much of ffmpeg's log (stderr) is kept: its tail, enough for a report printed at the end. */
const LOG_TAIL_CHARS = 64_000;

/**
 * Runs ffmpeg with `args` (which must include `-progress pipe:1 -nostats`), reporting progress
 * (0..0.99) from its `out_time_us` lines against `totalSeconds`, and answers the tail of its log
 * (stderr; e.g. loudnorm's report). `signal` kills it at once. The run waits its turn in the
 * media-work queue first (`onWaiting` hears how many jobs are ahead of it).
 */
export function runFfmpegWithProgress(
  args: string[],
  totalSeconds: number,
  options: {
    onProgress?: (fraction: number) => void;
    onWaiting?: (ahead: number) => void;
    signal?: AbortSignal;
    cwd?: string;
  },
  failure: FfmpegFailure,
): Promise<string> {
  return runMediaWork(() => spawnFfmpeg(args, totalSeconds, options, failure), {
    ...(options.onWaiting ? { onWaiting: options.onWaiting } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
  }).catch((error: unknown) => {
    throw error instanceof MediaWorkAborted
      ? new AppError(failure.stoppedCode ?? failure.code, failure.stopped)
      : error;
  });
}

function spawnFfmpeg(
  args: string[],
  totalSeconds: number,
  options: { onProgress?: (fraction: number) => void; signal?: AbortSignal; cwd?: string },
  failure: FfmpegFailure,
): Promise<string> {
  return new Promise((resolve, reject) => {
    if (options.signal?.aborted) {
      reject(new AppError(failure.stoppedCode ?? failure.code, failure.stopped));
      return;
    }
    const started = atMediaPriority(locateMediaTools().ffmpeg, args);
    const child = spawn(started.command, started.args, {
      stdio: ['ignore', 'pipe', 'pipe'],
      cwd: options.cwd,
      env: mediaToolEnvironment(),
    });
    lowerPriority(child.pid);
    let log = '';
    let pending = '';
    const onAbort = () => child.kill('SIGKILL');
    options.signal?.addEventListener('abort', onAbort, { once: true });
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      pending += chunk;
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) {
        const match = /^out_time_us=(\d+)/.exec(line);
        if (match && totalSeconds > 0)
          options.onProgress?.(Math.min(0.99, Number(match[1]) / 1e6 / totalSeconds));
      }
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      log = (log + chunk).slice(-LOG_TAIL_CHARS);
    });
    child.on('error', (error) => {
      options.signal?.removeEventListener('abort', onAbort);
      reject(error);
    });
    child.on('close', (code) => {
      options.signal?.removeEventListener('abort', onAbort);
      if (code === 0) resolve(log);
      else if (options.signal?.aborted)
        reject(new AppError(failure.stoppedCode ?? failure.code, failure.stopped));
      else
        reject(
          new AppError(
            failure.code,
            `ffmpeg could not ${failure.doing}: ${log.trim().split('\n').slice(-3).join(' ') || `exit ${code}`}`,
          ),
        );
    });
  });
}
