import type { Command } from 'commander';
import { parsePageRange, validateParseOptions } from '../../main/core/operations/document-parse.js';
import { SERVICE_KINDS } from '../../main/core/operations/service-common.js';
import { printJson, withCliCore } from '../cli-context.js';
import { ExitCode } from '../exit-codes.js';
import { integerOption, resolveFor } from './playground-shared.js';

export const runParseCommand = async (
  file: string,
  opts: { model?: string; language?: string; pages?: string; pageRange?: string; preset?: string },
  command: Command,
) => {
  await withCliCore(command, async (cli) => {
    const options = {
      language: opts.language,
      pages: integerOption(opts.pages, '--pages'),
      pageRange: opts.pageRange ? parsePageRange(opts.pageRange) : undefined,
      preset: opts.preset,
    };
    validateParseOptions(options);
    const { client, service } = await resolveFor(cli, SERVICE_KINDS.parse, opts.model);
    const result = await cli.core.playground.parse(
      client,
      service,
      file,
      cli.core.library.folders.current(),
      options,
    );
    if (cli.json)
      printJson({
        model: service.modelAlias,
        id: result.response.id,
        pageCount: result.response.pageCount,
        folder: result.folder,
        files: result.files,
        response: result.response,
      });
    else process.stdout.write(`${result.response.pageCount} page(s) parsed\n${result.files.join('\n')}\n`);
    return ExitCode.ok;
  });
};
