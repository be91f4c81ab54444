import { beforeAll, expect } from 'vitest';
import { runFramewright, type CliRun } from '../cli-runner.js';
import { tempFolder } from './temp-folder.js';

/** The real `framewright` binary on one data folder, for a CLI test file. */
export interface CliDataFolder {
  /** The data folder (a fresh temp folder, made in the file's first `beforeAll`). */
  readonly dataDir: string;
  /** Runs `framewright --data-dir <dataDir> …args`. */
  fw(...args: string[]): Promise<CliRun>;
  /** Runs it with `--json`, expects exit 0 (else fails with its stderr) and answers the parsed output. */
  json<T>(...args: string[]): Promise<T>;
}

/**
 * Opens a fresh data folder named `prefix…` before the file's tests (call it at the file's top level,
 * before the file's own `beforeAll`), removed when they are done, and the CLI on it.
 */
export function openCliDataFolder(prefix: string): CliDataFolder {
  let dataDir = '';
  beforeAll(() => {
    dataDir = tempFolder(prefix);
  });
  const fw = (...args: string[]) => runFramewright(['--data-dir', dataDir, ...args]);
  return {
    get dataDir() {
      return dataDir;
    },
    fw,
    async json<T>(...args: string[]): Promise<T> {
      const run = await fw('--json', ...args);
      expect(run.code, run.stderr).toBe(0);
      return JSON.parse(run.stdout) as T;
    },
  };
}
