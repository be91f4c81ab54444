import type { Command } from 'commander';
import { lazyAction } from '../lazy-action.js';

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
    .action(lazyAction(() => import('../actions/ocr.js').then((m) => m.runOcrCommand)));
}
