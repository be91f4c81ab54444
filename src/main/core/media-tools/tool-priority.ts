import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { setPriority } from 'node:os';
import { MediaSettingError } from './media-setting-error.js';
import { mediaToolEnvironment } from './tool-environment.js';

/**
 * How far below the backend a media tool (ffmpeg, ffprobe) runs on the CPU, so that calls stay
 * answered while films render:
 *
 * - `idle` (the team backend's default, `serve --platform`: one person's render must never slow
 *   another person's call): Linux's SCHED_IDLE, through `chrt --idle 0`. The
 *   tool runs only on CPU time nothing else wants, and a CPU running only such work counts as idle
 *   when one of the backend's threads wakes, so the backend's request runs there at once. A nice
 *   value does not do that: a woken thread waits its turn behind a niced ffmpeg on a busy CPU.
 * - `low` (the desktop app's and the CLI's default: the person waiting for the render is the one
 *   who asked for it, and idle work could wait behind anything else busy on their machine): nice 10
 *   (every system; also what `idle` falls back to where `chrt` is missing or refused).
 * - `normal`: the backend's own priority (a machine that renders and does nothing else).
 */
export const MEDIA_PRIORITY_ENV = 'FRAMEWRIGHT_MEDIA_PRIORITY';

export type MediaPriority = 'idle' | 'low' | 'normal';

/** The nice value of `low` (and of `idle` where SCHED_IDLE is not there). */
export const MEDIA_TOOL_NICENESS = 10;

const CHRT_PATHS = ['/usr/bin/chrt', '/bin/chrt'];

let processDefault: MediaPriority = 'low';

/** This process's priority when the setting is not set (`serve --platform` makes it `idle`). */
export function setDefaultMediaPriority(priority: MediaPriority): void {
  processDefault = priority;
}

/**
 * The priority from the environment, else `fallback` (this process's default); anything but the
 * three names is an error naming them.
 */
export function mediaPriorityFromEnv(
  env: NodeJS.ProcessEnv = process.env,
  fallback: MediaPriority = processDefault,
): MediaPriority {
  const raw = env[MEDIA_PRIORITY_ENV]?.trim();
  if (raw === undefined || raw === '') return fallback;
  if (raw === 'idle' || raw === 'low' || raw === 'normal') return raw;
  throw new MediaSettingError(`${MEDIA_PRIORITY_ENV} must be idle, low or normal (got "${raw}").`);
}

let chrtChecked: string | null | undefined;

/** `chrt` where it exists and may set SCHED_IDLE here (checked once: a container may refuse it). */
function usableChrt(): string | null {
  if (chrtChecked !== undefined) return chrtChecked;
  chrtChecked = null;
  if (process.platform !== 'linux') return chrtChecked;
  const chrt = CHRT_PATHS.find((candidate) => existsSync(candidate));
  if (
    chrt &&
    spawnSync(chrt, ['--idle', '0', 'true'], {
      stdio: 'ignore',
      timeout: 5_000,
      // as every media tool: never the backend's credential or settings
      env: mediaToolEnvironment(),
    }).status === 0
  )
    chrtChecked = chrt;
  return chrtChecked;
}

/**
 * The command that starts `binary` with `args` at the media priority: under `chrt --idle 0` (which
 * replaces itself with the tool: the process id is the tool's) for `idle` where it can, else the
 * tool itself; call {@link lowerPriority} with the started process's id either way.
 */
export function atMediaPriority(
  binary: string,
  args: readonly string[],
  priority: MediaPriority = mediaPriorityFromEnv(),
): { command: string; args: string[] } {
  const chrt = priority === 'idle' ? usableChrt() : null;
  return chrt
    ? { command: chrt, args: ['--idle', '0', binary, ...args] }
    : { command: binary, args: [...args] };
}

/** Lowers a started media tool to nice {@link MEDIA_TOOL_NICENESS} unless the priority is `normal`. */
export function lowerPriority(
  pid: number | undefined,
  priority: MediaPriority = mediaPriorityFromEnv(),
): void {
  if (pid === undefined || priority === 'normal') return;
  try {
    setPriority(pid, MEDIA_TOOL_NICENESS);
  } catch {
    // not allowed here: it runs at the default priority
  }
}
