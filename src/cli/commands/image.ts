import type { Command } from 'commander';
import { collect } from './option-values.js';
import { lazyAction } from '../lazy-action.js';

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
    .action(lazyAction(() => import('../actions/image.js').then((m) => m.runImageCommand)));
}
