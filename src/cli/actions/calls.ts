import type { Command } from 'commander';
import { AppError } from '../../main/core/errors.js';
import {
  SERVICE_CALL_OPERATIONS,
  type ServiceCall,
  type ServiceCallOperation,
} from '../../main/core/library/job-views.js';
import { MAX_PAGE_SIZE } from '../../main/core/journal/pagination.js';
import { printJson, withCliCore } from '../cli-context.js';
import { ExitCode } from '../exit-codes.js';
import { integerOption } from './playground-shared.js';

function callView(c: ServiceCall) {
  return {
    id: c.id,
    operation: c.operation,
    model: c.model,
    state: c.state,
    startedAt: new Date(c.startedAt).toISOString(),
    finishedAt: c.finishedAt === undefined ? null : new Date(c.finishedAt).toISOString(),
    requestId: c.requestId ?? null,
    statusCode: c.statusCode ?? null,
    errorCode: c.errorCode ?? null,
    errorMessage: c.errorMessage ?? null,
    request: c.request,
    response: c.response ?? null,
    usage: c.usage ?? null,
  };
}

export const runCallsCommand = async (
  opts: { operation?: string; limit: string; cursor?: string },
  command: Command,
) =>
  withCliCore(command, async (cli) => {
    if (
      opts.operation !== undefined &&
      !(SERVICE_CALL_OPERATIONS as readonly string[]).includes(opts.operation)
    )
      throw new AppError('usage', `--operation must be one of ${SERVICE_CALL_OPERATIONS.join(', ')}.`);
    const limit = integerOption(opts.limit, '--limit')!;
    if (limit < 1 || limit > MAX_PAGE_SIZE)
      throw new AppError('usage', `--limit must be from 1 to ${MAX_PAGE_SIZE} (got ${limit}).`);
    const page = cli.core.jobs.calls({
      profileId: cli.profileId,
      operation: opts.operation as ServiceCallOperation | undefined,
      limit,
      cursor: opts.cursor,
    });
    if (cli.json) {
      printJson({ object: 'list', data: page.items.map(callView), nextCursor: page.nextCursor ?? null });
    } else {
      for (const c of page.items) {
        const outcome =
          c.state === 'failed' ? `${c.statusCode ?? ''} ${c.errorCode ?? ''}`.trim() : (c.requestId ?? '');
        process.stdout.write(
          `${new Date(c.startedAt).toISOString()} ${c.operation.padEnd(13)} ${c.model.padEnd(22)} ${c.state.padEnd(9)} ${outcome}\n`,
        );
      }
      if (page.items.length === 0) process.stdout.write('No calls yet.\n');
      if (page.nextCursor) process.stdout.write(`more: --cursor ${page.nextCursor}\n`);
    }
    return ExitCode.ok;
  });
