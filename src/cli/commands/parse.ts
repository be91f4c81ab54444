import type { Command } from 'commander';
import { lazyAction } from '../lazy-action.js';

/** `framewright parse <file>`: structured artifacts of a document, saved to the library. */
export function registerParseCommand(program: Command): void {
  program
    .command('parse')
    .description('parse a document into structured artifacts (markdown, pages, blocks), saved to the library')
    .argument('<file>', 'document (PDF)')
    .option('--model <alias>', 'document-parse model alias (default: the first available)')
    .option('--language <lang>', 'ch | en')
    .option('--pages <n>', 'page count, 1..500')
    .option('--page-range <range>', 'N or N-M, each 1..500')
    .option('--preset <preset>', 'hybrid-medium | hybrid-high')
    .action(lazyAction(() => import('../actions/parse.js').then((m) => m.runParseCommand)));
}
