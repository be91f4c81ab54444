import path from 'node:path';
import type { Command } from 'commander';
import { defaultDataDir } from '../main/core/app/data-dir.js';
import { JobViews } from '../main/core/library/job-views.js';
import { openJournal, type Journal } from '../main/core/journal/open-journal.js';
import type { GlobalOptions } from './cli-context.js';
import type { ExitCode } from './exit-codes.js';

/**
 * Runs a command body over the jobs views of the data folder's journal alone: listings that need no identity,
 * keychain, simulator or network, so the rest of the core is not even loaded. With `--profile` or
 * `--base-url` the identity is checked first, as for every other command (`withCliCore`). Errors
 * are reported as everywhere (`reportError`, loaded only then); the journal is always closed.
 */
export async function withCliJournal(
  command: Command,
  body: (jobs: JobViews, json: boolean) => ExitCode | Promise<ExitCode>,
): Promise<void> {
  const options = command.optsWithGlobals<GlobalOptions>();
  const json = Boolean(options.json);
  if (options.profile !== undefined || options.baseUrl !== undefined) {
    const { withCliCore } = await import('./cli-context.js');
    return withCliCore(command, (cli) => Promise.resolve(body(cli.core.jobs, cli.json)));
  }
  let journal: Journal | undefined;
  try {
    journal = openJournal({ path: path.join(options.dataDir ?? defaultDataDir(), 'journal.sqlite') });
    process.exitCode = await body(JobViews.over(journal), json);
  } catch (error) {
    const { reportError } = await import('./cli-context.js');
    process.exitCode = reportError(error, json);
  } finally {
    journal?.close();
  }
}
