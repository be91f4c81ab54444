import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Command } from 'commander';
import { documentsFromFile, validateRerank } from '../../main/core/operations/rerank.js';
import { SERVICE_KINDS } from '../../main/core/operations/service-common.js';
import { printJson, withCliCore } from '../cli-context.js';
import { ExitCode } from '../exit-codes.js';
import { integerOption, resolveFor } from './playground-shared.js';

export const runRerankCommand = async (
  opts: { query: string; doc: string[]; docsFile?: string; topN?: string; model?: string },
  command: Command,
) => {
  await withCliCore(command, async (cli) => {
    const documents = [...opts.doc];
    if (opts.docsFile)
      documents.push(
        ...documentsFromFile(path.basename(opts.docsFile), await readFile(opts.docsFile, 'utf8')),
      );
    const input = { query: opts.query, documents, topN: integerOption(opts.topN, '--top-n') };
    validateRerank(input);
    const { client, service } = await resolveFor(cli, SERVICE_KINDS.rerank, opts.model);
    const result = await cli.core.playground.rerank(client, service, input);
    if (cli.json) printJson({ model: result.model, results: result.results, usage: result.usage });
    else
      for (const r of result.results)
        process.stdout.write(`${r.score.toFixed(4)}  #${r.index + 1}  ${r.text.slice(0, 100)}\n`);
    return ExitCode.ok;
  });
};
