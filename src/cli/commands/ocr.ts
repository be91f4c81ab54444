import type { Command } from 'commander';
import { runOcr } from '../../main/core/services/ocr.js';
import { SERVICE_KINDS } from '../../main/core/services/service-common.js';
import { printJson, withCliCore } from '../cli-context.js';
import { ExitCode } from '../exit-codes.js';
import { integerOption, resolveFor } from './playground-shared.js';

/** `framewright ocr <file>`: the model's JSON as it came. */
export function registerOcrCommand(program: Command): void {
  program
    .command('ocr')
    .description(
      "read text from an image (or a document where the service states support); prints the model's JSON",
    )
    .argument('<file>', 'image (PNG/JPEG/WebP) or document')
    .option('--model <alias>', 'OCR model alias (default: the first available)')
    .option('--task <task>', 'a task the model lists (e.g. ocr)')
    .option('--pages <n>', 'metering page count (does not select pages)')
    .action(
      async (file: string, opts: { model?: string; task?: string; pages?: string }, command: Command) => {
        await withCliCore(command, async (cli) => {
          const { client, service } = await resolveFor(cli, SERVICE_KINDS.ocr, opts.model);
          const result = await runOcr(cli.core.journal, client, service, file, {
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
      },
    );
}
