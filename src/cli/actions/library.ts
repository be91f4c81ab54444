import type { Command } from 'commander';
import { statSync } from 'node:fs';
import { AppError } from '../../main/core/errors.js';
import { reindexLibrary } from '../../main/core/library/reindex-library.js';
import { printJson, withCliCore } from '../cli-context.js';
import { ExitCode } from '../exit-codes.js';

export const runReindexCommand = async (opts: { library?: string; assignTo?: string }, command: Command) =>
  withCliCore(
    command,
    async (cli) => {
      if (opts.library && !statSync(opts.library, { throwIfNoEntry: false })?.isDirectory()) {
        throw new AppError('usage', `--library ${opts.library} is not a folder.`);
      }
      const result = await reindexLibrary(cli.core.journal, {
        libraryDirs: opts.library ? [opts.library] : cli.core.libraryDirs(),
        assignToProfileId: opts.assignTo ? cli.core.profiles.find(opts.assignTo).id : undefined,
      });
      if (cli.json) {
        printJson(result);
      } else {
        for (const entry of result.entries) {
          const what = entry.jobId ?? entry.sidecar;
          if (entry.outcome === 'restored') process.stdout.write(`restored  ${what}\n`);
          if (entry.outcome === 'refused')
            process.stdout.write(`refused   ${entry.sidecar}: ${entry.reason}\n`);
        }
        process.stdout.write(
          `${result.restored} restored, ${result.alreadyIndexed} already in the journal, ${result.refused} refused\n`,
        );
      }
      return result.refused > 0 ? ExitCode.invalidInput : ExitCode.ok;
    },
    { resolveIdentity: false },
  );
