import type { Command } from 'commander';
import { SERVICE_KINDS } from '../../main/core/operations/service-common.js';
import { printJson, withCliCore } from '../cli-context.js';
import { ExitCode } from '../exit-codes.js';
import { integerOption, resolveFor } from './playground-shared.js';

export const runOcrCommand = async (
  file: string,
  opts: { model?: string; task?: string; pages?: string },
  command: Command,
) => {
  await withCliCore(command, async (cli) => {
    const { client, service } = await resolveFor(cli, SERVICE_KINDS.ocr, opts.model);
    const result = await cli.core.playground.ocr(client, service, file, {
      task: opts.task,
      pages: integerOption(opts.pages, '--pages'),
    });
    if (cli.json)
      printJson({
        model: service.modelAlias,
        assetId: result.assetId,
        boxes: result.boxes,
        response: result.raw,
      });
    else process.stdout.write((result.text ?? JSON.stringify(result.raw, null, 2)) + '\n');
    return ExitCode.ok;
  });
};
