import type { Command } from 'commander';
import { lazyAction } from '../lazy-action.js';

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
    .action(lazyAction(() => import('../actions/library.js').then((m) => m.runReindexCommand)));
}
