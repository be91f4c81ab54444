import type { Command } from 'commander';
import { submitImage } from '../../main/core/services/image-generation.js';
import { SERVICE_KINDS } from '../../main/core/services/service-common.js';
import { withCliCore } from '../cli-context.js';
import { collect, integerOption, reportJob, resolveFor } from './playground-shared.js';

interface ImageOptions {
  model?: string;
  mode?: string;
  count?: string;
  orientation?: string;
  size?: string;
  quality?: string;
  resolutionTier?: string;
  seed?: string;
  input: string[];
  timeout: string;
  wait: boolean;
  idempotencyKey?: string;
}

/** `framewright image <prompt>`: t2i / i2i as an asynchronous job; the set lands in the library. */
export function registerImageCommand(program: Command): void {
  program
    .command('image')
    .description('generate images (t2i, or i2i with --input) with the fields the live contract publishes')
    .argument('<prompt>', 'the prompt (limit from the service; never truncated)')
    .option('--model <alias>', 'image model alias (default: the first available)')
    .option('--mode <mode>', 'generationMode, e.g. t2i | i2i')
    .option('--count <n>', 'imageCount (>= 1)')
    .option('--orientation <o>', 'orientation the model publishes')
    .option('--size <code>', 'outputSizeCode')
    .option('--quality <tier>', 'qualityTier')
    .option('--resolution-tier <tier>', 'resolutionTier (only where the model takes it)')
    .option('--seed <n>', 'seed')
    .option('--input <file>', 'input image (i2i), repeatable', collect, [])
    .option('--timeout <seconds>', 'total wait limit; past it the job stays pending and resumable', '600')
    .option('--no-wait', 'return once the job is accepted')
    .option('--idempotency-key <key>', 'a stable key for this request (replays never create a second job)')
    .action(async (prompt: string, opts: ImageOptions, command: Command) => {
      await withCliCore(command, async (cli) => {
        const draft = {
          prompt,
          generationMode: opts.mode ?? (opts.input.length > 0 ? 'i2i' : undefined),
          imageCount: integerOption(opts.count, '--count'),
          orientation: opts.orientation,
          outputSizeCode: opts.size,
          qualityTier: opts.quality,
          resolutionTier: opts.resolutionTier,
          seed: integerOption(opts.seed, '--seed'),
          inputImages: opts.input,
        };
        const { service } = await resolveFor(cli, SERVICE_KINDS.image, opts.model);
        const result = await submitImage(cli.core, {
          profileId: cli.profileId,
          service,
          draft,
          idempotencyKey: opts.idempotencyKey,
          wait: { waitSeconds: integerOption(opts.timeout, '--timeout')!, noWait: !opts.wait },
        });
        return reportJob(cli, result, opts.wait);
      });
    });
}
