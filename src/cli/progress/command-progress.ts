import type { CliCore } from '../cli-context.js';
import { followEngine, type FollowOptions } from './follow-engine.js';
import { createJobProgress, type JobProgress } from './job-progress.js';

export interface CommandProgress extends JobProgress {
  /** Stops following the engine and closes the display (call in `finally`). */
  end(): void;
}

/** With `--json`: nothing on stderr, as before (stdout is the result alone). */
const silent: CommandProgress = {
  track: () => undefined,
  update: () => undefined,
  done: () => undefined,
  above: (write) => write(),
  close: () => undefined,
  end: () => undefined,
};

/**
 * A command's live progress on stderr, fed by the job engine: the live lines on a terminal, plain
 * lines at each change elsewhere, nothing with `--json`. The stream and whether it is a terminal
 * can be given (tests); by default `process.stderr` and its `isTTY`.
 */
export function commandProgress(
  cli: Pick<CliCore, 'json' | 'onEngineChange' | 'core'>,
  follow: FollowOptions,
  stream: NodeJS.WriteStream = process.stderr,
): CommandProgress {
  if (cli.json) return silent;
  const progress = createJobProgress({ stream, isTTY: Boolean(stream.isTTY) });
  const unsubscribe = cli.onEngineChange(followEngine(progress, cli.core.jobs, follow));
  return {
    ...progress,
    end() {
      unsubscribe();
      progress.close();
    },
  };
}
