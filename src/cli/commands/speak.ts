import type { Command } from 'commander';
import { lazyAction } from '../lazy-action.js';

/** `framewright speak` (alias `audio`): speech, music or Foley as an asynchronous job into the library. */
export function registerSpeakCommand(program: Command): void {
  program
    .command('speak')
    .alias('audio')
    .description(
      'speech (text <= 600, voice_design instruct <= 160), music or Foley from a video; results land in the library',
    )
    .argument('[text]', 'text to speak (speech models)')
    .option(
      '--model <alias>',
      'audio model alias (default: speech, or music with --prompt, or Foley with --video)',
    )
    .option('--voice-mode <mode>', 'text | custom_voice | voice_design')
    .option('--speaker <voiceId>', 'a published speaker (custom_voice); see --voices')
    .option('--instruct <text>', 'voice description (voice_design, <= 160 characters)')
    .option('--prompt <text>', 'music or Foley description')
    .option('--video <file>', 'video to score (Foley)')
    .option('--seconds <n>', 'length, where the model takes it')
    .option('--seed <n>', 'seed')
    .option('--voices', 'list the voice catalogue')
    .option('--timeout <seconds>', 'total wait limit; past it the job stays pending and resumable', '600')
    .option('--no-wait', 'return once the job is accepted')
    .option('--idempotency-key <key>', 'a stable key for this request (replays never create a second job)')
    .action(lazyAction(() => import('../actions/speak.js').then((m) => m.runSpeakCommand)));
}
