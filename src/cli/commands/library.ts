import type { Command } from 'commander';
import { MARK_LABELS } from '../../shared/library-marks.js';
import { lazyAction } from '../lazy-action.js';

/**
 * `library reindex`: the journal's jobs and results rebuilt from the library's sidecars;
 * `library mark` and `library list`: a result's marks (pick or reject, stars, a colour label) set
 * and read, for scripts.
 */
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
  library
    .command('mark')
    .description(
      'mark a result of the library (its job id, or its row number): pick or reject, stars, a colour label; ' +
        'kept in the journal and the result’s framewright.json',
    )
    .argument('<job>', 'the job id (or row number) of a result')
    .option('--pick', 'flag it as a pick')
    .option('--reject', 'flag it as a reject')
    .option('--unmark', 'clear its pick or reject flag')
    .option('--stars <n>', 'its rating, 0 (unrated) to 5')
    .option('--label <colour>', `its colour label (${MARK_LABELS.join(', ')}), or none`)
    .action(lazyAction(() => import('../actions/library.js').then((m) => m.runMarkCommand)));
  library
    .command('list')
    .description('the results of the library, newest first, filtered by their marks')
    .option('--pick', 'only picks')
    .option('--reject', 'only rejects')
    .option('--unmarked', 'only results flagged neither pick nor reject')
    .option('--stars <n>', 'only results with at least this many stars')
    .option('--label <colour>', 'only results with this colour label')
    .option('--query <text>', 'only results whose prompt has every word, or whose notes contain the text')
    .option('--by-rating', 'more stars first, then picks before rejects (else newest first)')
    .action(lazyAction(() => import('../actions/library.js').then((m) => m.runListCommand)));
}
