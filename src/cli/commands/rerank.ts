import type { Command } from 'commander';
import { collect } from './option-values.js';
import { lazyAction } from '../lazy-action.js';

/** `framewright rerank`: a query and up to 256 documents, ranked with scores. */
export function registerRerankCommand(program: Command): void {
  program
    .command('rerank')
    .description(
      'rank up to 256 documents against a query (65,536 characters in all, checked before sending)',
    )
    .requiredOption('--query <text>', 'the query (1..1024 characters)')
    .option('--doc <text>', 'a document, repeatable', collect, [])
    .option(
      '--docs-file <file>',
      'documents from a text file (one per line) or a CSV (column text/document, else the first)',
    )
    .option('--top-n <n>', 'return only the best n (only where the model supports it)')
    .option('--model <alias>', 'rerank model alias (default: the first available)')
    .action(lazyAction(() => import('../actions/rerank.js').then((m) => m.runRerankCommand)));
}
