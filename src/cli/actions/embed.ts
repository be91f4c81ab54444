import { readFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { validateEmbeddingInputs } from '../../main/core/operations/embeddings.js';
import { SERVICE_KINDS } from '../../main/core/operations/service-common.js';
import { printJson, withCliCore } from '../cli-context.js';
import { ExitCode } from '../exit-codes.js';
import { resolveFor } from './playground-shared.js';

export const runEmbedCommand = async (
  texts: string[],
  opts: { model?: string; file?: string; vectors?: boolean },
  command: Command,
) => {
  await withCliCore(command, async (cli) => {
    const inputs = [...texts];
    if (opts.file) inputs.push(...(await readFile(opts.file, 'utf8')).split(/\r?\n/).filter((l) => l.trim()));
    validateEmbeddingInputs(inputs);
    const { client, service } = await resolveFor(cli, SERVICE_KINDS.embeddings, opts.model);
    const result = await cli.core.playground.embed(client, service, inputs);
    if (cli.json) {
      printJson({
        model: result.model,
        count: result.vectors.length,
        dimensions: result.dimensions,
        similarity: result.similarity,
        usage: result.usage,
        ...(opts.vectors ? { embeddings: result.vectors } : {}),
      });
    } else {
      process.stdout.write(`${result.model}: ${result.vectors.length} × ${result.dimensions} dimensions\n`);
      if (result.vectors.length > 1)
        for (const row of result.similarity)
          process.stdout.write(row.map((v) => v.toFixed(3)).join(' ') + '\n');
    }
    return ExitCode.ok;
  });
};
