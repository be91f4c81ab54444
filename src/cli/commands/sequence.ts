import type { Command } from 'commander';
import { lazyAction } from '../lazy-action.js';
import { DEFAULT_JOB_WAIT_SECONDS } from '../../shared/wait-defaults.js';

const load = () => import('../actions/sequence.js');

/**
 * `framewright sequence …`: shot sequences on the same journal as the studio (issue 15). Shots are
 * generated as they are added (unless --no-generate) and waited for, like `framewright video`.
 */
export function registerSequenceCommands(program: Command): void {
  const sequence = program
    .command('sequence')
    .description(
      'shot sequences past the 15-second limit: add, continue, bridge, list, assemble and deliver',
    );

  const generation = (command: Command) =>
    command
      .option(
        '--no-generate',
        'only add the shot (as a draft); generate it later from the studio or with another command',
      )
      .option(
        '--timeout <seconds>',
        'wait limit for the shot; past it the job stays pending and resumable',
        String(DEFAULT_JOB_WAIT_SECONDS),
      );

  sequence
    .command('new')
    .description('create a sequence')
    .argument('<name>', 'its name (1..120 characters)')
    .action(lazyAction(() => load().then((m) => m.runSequenceNew)));

  generation(
    sequence
      .command('add')
      .description(
        'add a shot written from a prompt (text-to-video unless --mode says otherwise), then generate it',
      )
      .argument('<sequence>', 'sequence id or name')
      .requiredOption('--prompt <text>', 'the prompt (never truncated)')
      .option('--seconds <n>', 'requested seconds', '5')
      .option('--orientation <o>', 'landscape | portrait', 'landscape')
      .option('--resolution-tier <tier>', 'resolution tier', '768p')
      .option('--mode <mode>', 't2v | i2v (with --first-frame)', 't2v')
      .option('--model <alias>', 'model alias (default: the one available video service offering --mode)')
      .option('--seed <n>', 'seed (omit to let the platform decide)')
      .option('--first-frame <file>', 'first-frame image (i2v)')
      .option('--position <n>', 'place it at this position (1 = first; default: last)'),
  ).action(lazyAction(() => load().then((m) => m.runSequenceAdd)));

  generation(
    sequence
      .command('continue')
      .description("continue from a shot: its result's exact last frame starts a new shot placed after it")
      .argument('<sequence>', 'sequence id or name')
      .argument('<shot>', 'shot number (1 = first) or id')
      .option('--mode <mode>', 'i2v | first_last_frame_video (needs --last-frame)', 'i2v')
      .option('--last-frame <file>', 'the last frame of a first/last-frame shot')
      .option('--prompt <text>', "the new shot's prompt (default: the shot's)"),
  ).action(lazyAction(() => load().then((m) => m.runSequenceContinue)));

  generation(
    sequence
      .command('bridge')
      .description("bridge two shots: first/last frame from one shot's last frame to the other's first frame")
      .argument('<sequence>', 'sequence id or name')
      .argument('<from>', 'shot number or id whose last frame starts the bridge')
      .argument('<to>', 'shot number or id whose first frame ends it')
      .option('--prompt <text>', "the bridge's prompt (default: the first shot's)"),
  ).action(lazyAction(() => load().then((m) => m.runSequenceBridge)));

  sequence
    .command('list')
    .description('the sequences, or the shots of one')
    .argument('[sequence]', 'sequence id or name')
    .action(lazyAction(() => load().then((m) => m.runSequenceList)));

  sequence
    .command('assemble')
    .description('render the sequence into one MP4 in the library (offline), with chapters and a sidecar')
    .argument('<sequence>', 'sequence id or name')
    .option('--crossfade <seconds>', 'cross-fade of picture and sound between shots (0 = straight cuts)', '0')
    .action(lazyAction(() => load().then((m) => m.runSequenceAssemble)));

  sequence
    .command('deliver')
    .description(
      'render the film into a delivery format of the library (H.264/AAC MP4, loudness-normalized), assembling it first if needed; Ctrl-C cancels and leaves no file',
    )
    .argument('<sequence>', 'sequence id or name')
    .requiredOption('--preset <preset>', '16x9 (1920x1080) | 9x16 (1080x1920) | 1x1 (1080x1080)')
    .option('--fit <fit>', 'pad (bars around the picture) | crop (fill the frame)', 'pad')
    .option('--loudness <lufs>', 'loudness target in LUFS (-14 web, -23 broadcast)', '-14')
    .option('--burn-captions', "burn the sequence's captions into the picture")
    .action(lazyAction(() => load().then((m) => m.runSequenceDeliver)));
}
