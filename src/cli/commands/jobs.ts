import type { Command } from 'commander';
import { JOB_STATUSES } from '../../main/core/journal/vocabulary.js';
import { lazyAction } from '../lazy-action.js';
import { DEFAULT_JOB_WAIT_SECONDS } from '../../shared/wait-defaults.js';

/** `jobs`, `show` and `resume`. */
export function registerJobCommands(program: Command): void {
  program
    .command('jobs')
    .description('list jobs in the journal, newest first')
    .option('--status <status>', `only this status (${JOB_STATUSES.join(', ')})`)
    .option('--limit <n>', 'page size', '50')
    .option('--cursor <cursor>', 'next page (from the previous page)')
    .action(lazyAction(() => import('../actions/jobs-list.js').then((m) => m.runJobsCommand)));

  program
    .command('show')
    .description('show one job from the journal (by jobId)')
    .argument('<job>', 'the jobId')
    .action(lazyAction(() => import('../actions/jobs.js').then((m) => m.runShowCommand)));

  program
    .command('resume')
    .description(
      'finish everything unfinished, as at app start: replay unknown creations, poll, download and verify',
    )
    .option('--timeout <seconds>', 'total wait limit', String(DEFAULT_JOB_WAIT_SECONDS))
    .action(lazyAction(() => import('../actions/jobs.js').then((m) => m.runResumeCommand)));
}
