import type { Command } from 'commander';
import { printJson, withCliCore } from '../cli-context.js';
import { ExitCode } from '../exit-codes.js';

export const runReindexCommand = async (opts: { library?: string; assignTo?: string }, command: Command) =>
  withCliCore(
    command,
    async (cli) => {
      const result = await cli.core.library.reindex({
        library: opts.library || undefined,
        assignTo: opts.assignTo || undefined,
      });
      if (cli.json) {
        printJson(result);
      } else {
        for (const entry of result.entries) {
          const what = entry.jobId ?? entry.sidecar;
          if (entry.outcome === 'restored') process.stdout.write(`restored  ${what}\n`);
          if (entry.outcome === 'refused')
            process.stdout.write(`refused   ${entry.sidecar}: ${entry.reason}\n`);
        }
        process.stdout.write(
          `${result.restored} restored, ${result.alreadyIndexed} already in the journal, ${result.refused} refused\n`,
        );
      }
      return result.refused > 0 ? ExitCode.invalidInput : ExitCode.ok;
    },
    { resolveIdentity: false },
  );
