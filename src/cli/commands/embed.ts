import type { Command } from 'commander';
import { lazyAction } from '../lazy-action.js';

/** `framewright embed`: one text or up to 64; dimensions and the cosine-similarity matrix. */
export function registerEmbedCommand(program: Command): void {
  program
    .command('embed')
    .description('embeddings of 1..64 texts (each <= 8192 characters): dimensions and cosine similarity')
    .argument('[texts...]', 'texts to embed')
    .option('--model <alias>', 'embedding model alias (default: the first available)')
    .option('--file <file>', 'a text file: one text per non-empty line')
    .option('--vectors', 'include the vectors in --json output')
    .action(lazyAction(() => import('../actions/embed.js').then((m) => m.runEmbedCommand)));
}
