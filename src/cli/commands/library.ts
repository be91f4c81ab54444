import type { Command } from 'commander';
import { statSync } from 'node:fs';
import { AppError } from '../../main/core/errors.js';
import { reindexLibrary } from '../../main/core/library/reindex-library.js';
import { printJson, withCliCore } from '../cli-context.js';
import { ExitCode } from '../exit-codes.js';

/** `library reindex`: the journal's jobs and results rebuilt from the library's sidecars. */
export function registerLibraryCommands(program: Command): void {
  const library = program.command('library').description('the offline library of verified results');
  library
    .command('reindex')
    .description(
      "rebuild the journal's jobs and results from the library's framewright.json files " +
        '(after a damaged journal was moved aside); files that do not match their sha256 are refused',
    )
    .option(
      '--library <dir>',
      'a library folder to read (default: every library folder this data folder used)',
    )
    .option('--assign-to <profile>', 'give jobs of profiles this journal does not know to this profile')
    .action(async (opts: { library?: string; assignTo?: string }, command: Command) =>
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
      ),
    );
}
