import type { Command } from 'commander';
import { SERVICE_CALL_OPERATIONS } from '../../main/core/journal/vocabulary.js';
import { MAX_PAGE_SIZE } from '../../main/core/journal/pagination.js';
import { lazyAction } from '../lazy-action.js';

/** `framewright calls`: the journal's billed synchronous calls (embeddings, rerank, OCR, transcription). */
export function registerCallsCommand(program: Command): void {
  program
    .command('calls')
    .description('list billed synchronous calls (embeddings, rerank, ocr, transcription), newest first')
    .option('--operation <op>', `only this operation (${SERVICE_CALL_OPERATIONS.join(', ')})`)
    .option('--limit <n>', `page size (1..${MAX_PAGE_SIZE})`, '20')
    .option('--cursor <cursor>', 'next page (from the previous page)')
    .action(lazyAction(() => import('../actions/calls.js').then((m) => m.runCallsCommand)));
}
