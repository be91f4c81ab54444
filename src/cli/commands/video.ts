import type { Command } from 'commander';
import { lazyAction } from '../lazy-action.js';
import { collect } from './option-values.js';
import { DEFAULT_JOB_WAIT_SECONDS } from '../../shared/wait-defaults.js';

/** `framewright video …`: validate locally, upload, create, poll, download and verify. */
export function registerVideoCommand(program: Command): void {
  program
    .command('video')
    .description(
      'create a video: validates against the live contract first, then uploads, creates, polls, downloads and verifies',
    )
    .option(
      '--model <alias>',
      'model alias from `framewright services --kind video_generation` (default: the one available service offering --mode)',
    )
    .requiredOption('--mode <mode>', 't2v | i2v | first_last_frame_video | universal_reference_video')
    .requiredOption('--prompt <text>', 'the prompt (never truncated)')
    .requiredOption('--seconds <n>', 'requested seconds')
    .requiredOption('--orientation <o>', 'landscape | portrait')
    .option('--resolution-tier <tier>', 'resolution tier', '768p')
    .option('--seed <n>', 'seed (omit to let the platform decide)')
    .option('--first-frame <file>', 'first-frame image (i2v, first_last_frame_video)')
    .option('--last-frame <file>', 'last-frame image (first_last_frame_video)')
    .option('--ref-image <file>', 'reference image, repeatable; order fixes Image 1, Image 2, …', collect, [])
    .option('--ref-video <file>', 'reference video')
    .option('--ref-audio <file>', 'reference audio (or a .mov with sound), repeatable', collect, [])
    .option('--optimize', 'rewrite the prompt with the prompt optimizer first (a separate, billed call)')
    .option('--style <style>', 'style preference for --optimize')
    .option(
      '--optimization-id <id>',
      "the optimization's clientRequestId (default: derived from the profile, prompt, mode, references, spec and style, so the same command never bills it twice)",
    )
    .option(
      '--timeout <seconds>',
      'total wait limit; past it the job stays pending and resumable',
      String(DEFAULT_JOB_WAIT_SECONDS),
    )
    .option('--no-wait', 'return once the job is accepted')
    .option(
      '--idempotency-key <key>',
      'the business intent key (default: a new one); the same key never creates a second job',
    )
    .action(lazyAction(() => import('../actions/video.js').then((m) => m.runVideoCommand)));
}
