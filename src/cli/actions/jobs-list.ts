import type { Command } from 'commander';
import { AppError } from '../../main/core/errors.js';
import { JOB_STATUSES, type JobStatus } from '../../main/core/journal/vocabulary.js';
import { withCliJournal } from '../cli-journal.js';
import { ExitCode } from '../exit-codes.js';
import { printJson } from '../print-json.js';

/**
 * `framewright jobs`: a page of the journal, newest first. It reads the journal alone (see
 * cli-journal.ts), so listing costs about what opening SQLite does, at any journal size.
 */
export const runJobsCommand = async (
  opts: { status?: string; limit: string; cursor?: string },
  command: Command,
) =>
  withCliJournal(command, (jobs, json) => {
    if (opts.status && !JOB_STATUSES.includes(opts.status as JobStatus)) {
      throw new AppError('usage', `--status must be one of ${JOB_STATUSES.join(', ')}.`);
    }
    const page = jobs.rows({
      status: opts.status as JobStatus | undefined,
      limit: Number(opts.limit),
      cursor: opts.cursor,
    });
    if (json) {
      printJson({
        object: 'list',
        data: page.items.map((j) => ({
          jobId: j.jobId,
          status: j.status,
          stage: j.stage,
          model: j.model,
          profileId: j.profileId,
          serviceKind: j.serviceKind,
          acceptedAt: new Date(j.acceptedAt).toISOString(),
        })),
        nextCursor: page.nextCursor ?? null,
      });
    } else {
      for (const j of page.items) {
        process.stdout.write(
          `${j.jobId.padEnd(36)} ${j.status.padEnd(10)} ${j.model.padEnd(20)} ${new Date(j.acceptedAt).toISOString()}\n`,
        );
      }
      if (page.nextCursor) process.stdout.write(`more: --cursor ${page.nextCursor}\n`);
    }
    return ExitCode.ok;
  });
