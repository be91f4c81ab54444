import type { Command } from 'commander';
import { CSV_COLUMNS, MAX_BATCH_CONCURRENCY } from '../../main/core/batch/batch-vocabulary.js';
import { lazyAction } from '../lazy-action.js';
import { DEFAULT_JOB_WAIT_SECONDS } from '../../shared/wait-defaults.js';

/** `framewright batch FILE …`: many video prompts from a TXT/CSV file, bounded, never created twice. */
export function registerBatchCommand(program: Command): void {
  program
    .command('batch')
    .argument('<file>', '.txt (one prompt per line, # comments) or .csv (header row with a "prompt" column)')
    .description(
      'create one video per prompt of a TXT or CSV file: every row is validated against the live contract before anything is sent',
    )
    .requiredOption('--model <alias>', 'model alias from `framewright services --kind video_generation`')
    .option('--mode <mode>', 'generation mode', 't2v')
    .option('--seconds <n>', 'requested seconds', '5')
    .option('--orientation <o>', 'landscape | portrait', 'landscape')
    .option('--resolution-tier <tier>', 'resolution tier', '768p')
    .option('--seed <n>', 'seed (omit to let the platform decide)')
    .option('--concurrency <n>', `rows in flight at once, 1..${MAX_BATCH_CONCURRENCY}`, '2')
    .option(
      '--max-jobs <n>',
      'send at most N rows this run (in file order); rows this data folder already sent earlier do not count',
    )
    .option('--run-label <label>', 'a deliberate new generation of the same rows (new idempotency keys)')
    .option(
      '--timeout <seconds>',
      "each row's wait limit; past it the row stays pending and resumable",
      String(DEFAULT_JOB_WAIT_SECONDS),
    )
    .option('--no-wait', 'return once every row is accepted')
    .addHelpText(
      'after',
      `
CSV columns: ${CSV_COLUMNS.join(', ')} ("prompt" required; the others override the
options for that row; first_frame/last_frame are paths relative to the CSV's folder).

Never twice: each row's Idempotency-Key is derived from the profile, --run-label and the row's
settings (frame files by content). Running the same file again — after a crash, a timeout or a
finished run — creates no new job; it reports (and finishes) the existing ones. To generate the
same rows again on purpose, pass a new --run-label. Identical rows are sent once and reported
as duplicates.

The first row is sent alone; the rest follow once it is accepted. A 401/403 or 402 stops the
batch: no further row is sent.

Exit codes: 2 a row is invalid (nothing was sent); otherwise the worst row: 3 identity,
4 balance, 6 service/network, 1 a job failed, 5 a wait limit passed (framewright resume), 0.`,
    )
    .action(lazyAction(() => import('../actions/batch.js').then((m) => m.runBatchCommand)));
}
