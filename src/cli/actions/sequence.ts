import type { Command } from 'commander';
import {
  DeliveryFit,
  DeliveryPreset,
  LoudnessTarget,
  type AssemblyView,
  type DeliveryView,
  type SequenceShotView,
  type SequenceView,
} from '../../shared/bridge/domains/sequences.js';
import type { DraftForm } from '../../shared/bridge/domains/studio.js';
import { isTerminalJobStatus } from '../../shared/api/job-statuses.js';
import { AppError } from '../../main/core/errors.js';
import type { SequencesFeature } from '../../main/core/sequences/sequences-feature.js';
import { chooseVideoServiceForMode } from '../../main/core/backends/public-api/choose-video-service.js';
import { printJson, withCliCore, type CliCore } from '../cli-context.js';
import { ExitCode } from '../exit-codes.js';
import { commandProgress } from '../progress/command-progress.js';
import { integerOption } from './playground-shared.js';

interface GenerationOptions {
  generate: boolean;
  timeout: string;
}

/** A whole-number option of at least `min`. */
function integer(value: string, name: string, min: number): number {
  const n = integerOption(value, name)!;
  if (n < min)
    throw new AppError('usage', `${name} must be a whole number of at least ${min} (got "${value}").`);
  return n;
}

/** A shot named by its number in the sequence (1 = first) or by its id. */
function shotOf(view: SequenceView, ref: string): SequenceShotView {
  const byNumber = /^\d+$/.test(ref) ? view.shots[Number(ref) - 1] : undefined;
  const shot = byNumber ?? view.shots.find((s) => s.shotId === ref);
  if (!shot)
    throw new AppError(
      'sequence.shot_not_found',
      `"${ref}" is not a shot of ${view.name}: give its number (1..${view.shots.length}) or its id.`,
    );
  return shot;
}

const seconds = (n: number | null) => (n === null ? '—' : `${n.toFixed(2)} s`);

/** A shot's kept range as the listing shows it ("" when it is not trimmed). */
const trimText = (s: SequenceShotView) =>
  s.trim ? `  [${s.trim.inSeconds.toFixed(3)}–${s.trim.outSeconds.toFixed(3)} s]` : '';

/** A number of seconds given on the command line. */
function secondsOption(value: string, name: string): number {
  const n = Number(value);
  if (!/^\d+(\.\d+)?$/.test(value.trim()) || !Number.isFinite(n))
    throw new AppError('usage', `${name} is a number of seconds (got "${value}").`);
  return n;
}

function printShots(view: SequenceView): void {
  process.stdout.write(
    `${view.name}  (${view.sequenceId})  ${view.shots.length} shots, ${seconds(view.totalSeconds)}\n`,
  );
  for (const s of view.shots)
    process.stdout.write(
      `  ${String(s.position + 1).padStart(2)}  ${s.state.padEnd(9)} ${s.origin.padEnd(8)} ${s.generationMode.padEnd(22)} ` +
        `${seconds(s.trim?.seconds ?? s.durationSeconds ?? s.seconds).padStart(8)}  ${s.jobId ?? '—'}  ${s.prompt.slice(0, 60)}${trimText(s)}\n`,
    );
  if (view.assembly)
    process.stdout.write(
      `  assembly: ${view.assembly.state}${view.assembly.fileName ? ` ${view.assembly.fileName}` : ''}` +
        `${view.assemblyCurrent ? ' (up to date)' : view.assembly.state === 'ready' ? ' (the shots changed since)' : ''}\n`,
    );
}

/** Waits until the shot has its verified result (or failed, or the wait limit passed). */
async function waitForShot(
  sequences: SequencesFeature,
  sequenceId: string,
  shotId: string,
  timeoutSeconds: number,
): Promise<{ view: SequenceView; shot: SequenceShotView; exit: ExitCode }> {
  const end = Date.now() + timeoutSeconds * 1000;
  for (;;) {
    const view = await sequences.get(sequenceId);
    const shot = view.shots.find((s) => s.shotId === shotId);
    if (!shot)
      throw new AppError('sequence.shot_not_found', 'The shot left the sequence while it was generated.');
    if (shot.mediaUrl !== null) return { view, shot, exit: ExitCode.ok };
    if (isTerminalJobStatus(shot.state) && shot.state !== 'succeeded')
      return { view, shot, exit: ExitCode.jobFailed };
    if (shot.state === 'draft') return { view, shot, exit: ExitCode.serviceError };
    if (Date.now() > end) return { view, shot, exit: ExitCode.waitLimit };
    await new Promise((r) => setTimeout(r, 500));
  }
}

/** Generates the new shot (unless --no-generate), waits for it and prints the outcome. */
async function finishShot(
  cli: CliCore,
  view: SequenceView,
  shot: SequenceShotView,
  opts: GenerationOptions,
): Promise<ExitCode> {
  const sequences = cli.studio().sequences;
  const timeout = integer(opts.timeout, '--timeout', 1);
  let exit: ExitCode = ExitCode.ok;
  let outcome = { view, shot };
  let refusal: string | null = null;
  if (opts.generate) {
    // the shot's live line (or plain lines off a terminal), fed by the engine under its draft's key
    const key = cli.studio().drafts.stored(shot.draftId).idempotencyKey;
    const progress = commandProgress(cli, { labelFor: (k) => (k === key ? shot.label : undefined) });
    try {
      progress.track(shot.label);
      const { submitted } = await sequences.generate(view.sequenceId, shot.shotId);
      if (submitted[0]?.state === 'refused') {
        refusal = submitted[0].message;
        exit = ExitCode.invalidInput;
      } else {
        const waited = await waitForShot(sequences, view.sequenceId, shot.shotId, timeout);
        outcome = waited;
        exit = waited.exit;
      }
      progress.done(shot.label);
    } finally {
      progress.end();
    }
  }
  const final = await sequences.get(view.sequenceId);
  if (cli.json) printJson({ sequence: final, shot: outcome.shot, ...(refusal ? { refused: refusal } : {}) });
  else {
    printShots(final);
    if (refusal) process.stderr.write(`framewright: ${outcome.shot.label} was refused: ${refusal}\n`);
    if (exit === ExitCode.waitLimit)
      process.stderr.write(`${outcome.shot.label} is still running; \`framewright resume\` continues it.\n`);
    if (exit === ExitCode.jobFailed)
      process.stderr.write(
        `${outcome.shot.label} failed: ${outcome.shot.errorMessage ?? 'no reason given'}\n`,
      );
  }
  return exit;
}

export const runSequenceNew = async (name: string, _opts: unknown, command: Command) =>
  withCliCore(command, async (cli) => {
    const view = await cli.studio().sequences.create(name);
    if (cli.json) printJson(view);
    else process.stdout.write(`${view.sequenceId}  ${view.name}\n`);
    return ExitCode.ok;
  });

export const runSequenceList = async (ref: string | undefined, _opts: unknown, command: Command) =>
  withCliCore(command, async (cli) => {
    const sequences = cli.studio().sequences;
    if (ref) {
      const view = await sequences.get(sequences.find(ref));
      if (cli.json) printJson(view);
      else printShots(view);
      return ExitCode.ok;
    }
    const list = sequences.list();
    if (cli.json) printJson(list);
    else if (list.length === 0)
      process.stdout.write('No sequences yet: `framewright sequence new <name>`.\n');
    else
      for (const s of list)
        process.stdout.write(
          `${s.sequenceId}  ${s.name}  ${s.shotCount} shots, ${seconds(s.totalSeconds)}\n`,
        );
    return ExitCode.ok;
  });

interface AddOptions extends GenerationOptions {
  prompt: string;
  seconds: string;
  orientation: string;
  resolutionTier: string;
  mode: string;
  model?: string;
  seed?: string;
  firstFrame?: string;
  position?: string;
}

export const runSequenceAdd = async (ref: string, opts: AddOptions, command: Command) =>
  withCliCore(command, async (cli) => {
    const studio = cli.studio();
    const sequenceId = studio.sequences.find(ref);
    const position = opts.position === undefined ? undefined : integer(opts.position, '--position', 1) - 1;
    let model = opts.model;
    if (!model) {
      const { services } = await cli.core.catalog.discover(cli.profileId, {
        serviceKind: 'video_generation',
      });
      model = chooseVideoServiceForMode(services, opts.mode).modelAlias;
    }
    const form: DraftForm = {
      profileId: cli.profileId,
      model,
      generationMode: opts.mode,
      prompt: opts.prompt,
      orientation: opts.orientation,
      seconds: integer(opts.seconds, '--seconds', 1),
      resolutionTier: opts.resolutionTier,
      seed: opts.seed === undefined ? null : integer(opts.seed, '--seed', 0),
      firstFrame: opts.firstFrame ? await studio.staged.stageCopy(opts.firstFrame) : undefined,
      references: [],
    };
    const before = new Set((await studio.sequences.get(sequenceId)).shots.map((s) => s.shotId));
    const view = await studio.sequences.addShot(sequenceId, form, position);
    const shot = view.shots.find((s) => !before.has(s.shotId))!;
    return finishShot(cli, view, shot, opts);
  });

interface ContinueOptions extends GenerationOptions {
  mode: string;
  lastFrame?: string;
  prompt?: string;
}

export const runSequenceContinue = async (
  ref: string,
  shotRef: string,
  opts: ContinueOptions,
  command: Command,
) =>
  withCliCore(command, async (cli) => {
    const studio = cli.studio();
    const sequenceId = studio.sequences.find(ref);
    if (opts.mode !== 'i2v' && opts.mode !== 'first_last_frame_video')
      throw new AppError('usage', `--mode is i2v or first_last_frame_video (got "${opts.mode}").`);
    const from = shotOf(await studio.sequences.get(sequenceId), shotRef);
    const lastFrame = opts.lastFrame ? await studio.staged.stageCopy(opts.lastFrame) : undefined;
    const view = await studio.sequences.continueShot({
      sequenceId,
      fromShotId: from.shotId,
      generationMode: opts.mode,
      lastFrameFileId: lastFrame?.id,
      prompt: opts.prompt,
    });
    return finishShot(cli, view, view.shots[from.position + 1]!, opts);
  });

interface BridgeOptions extends GenerationOptions {
  prompt?: string;
}

export const runSequenceBridge = async (
  ref: string,
  fromRef: string,
  toRef: string,
  opts: BridgeOptions,
  command: Command,
) =>
  withCliCore(command, async (cli) => {
    const sequences = cli.studio().sequences;
    const sequenceId = sequences.find(ref);
    const current = await sequences.get(sequenceId);
    const from = shotOf(current, fromRef);
    const to = shotOf(current, toRef);
    const view = await sequences.bridgeShots({
      sequenceId,
      fromShotId: from.shotId,
      toShotId: to.shotId,
      prompt: opts.prompt,
    });
    return finishShot(cli, view, view.shots[from.position + 1]!, opts);
  });

interface TrimOptions {
  in: string;
  out?: string;
  clear?: boolean;
}

export const runSequenceTrim = async (ref: string, shotRef: string, opts: TrimOptions, command: Command) =>
  withCliCore(command, async (cli) => {
    const sequences = cli.studio().sequences;
    const sequenceId = sequences.find(ref);
    const shot = shotOf(await sequences.get(sequenceId), shotRef);
    if (opts.clear && (opts.out !== undefined || opts.in !== '0'))
      throw new AppError('usage', '--clear takes no --in or --out.');
    let range: { inSeconds: number; outSeconds: number } | null = null;
    if (!opts.clear) {
      if (opts.out === undefined && shot.frameRate === null)
        throw new AppError(
          'sequence.no_result',
          `${shot.label} has no verified result yet: generate it first.`,
        );
      const end = shot.frameCount !== null && shot.frameRate ? shot.frameCount / shot.frameRate : 0;
      range = {
        inSeconds: secondsOption(opts.in, '--in'),
        outSeconds: opts.out === undefined ? end : secondsOption(opts.out, '--out'),
      };
    }
    const view = await sequences.trimShot(sequenceId, shot.shotId, range);
    const trimmed = view.shots.find((s) => s.shotId === shot.shotId)!;
    if (cli.json) printJson({ sequence: view, shot: trimmed });
    else {
      process.stdout.write(
        trimmed.trim
          ? `${trimmed.label}: ${trimmed.trim.inSeconds.toFixed(3)}–${trimmed.trim.outSeconds.toFixed(3)} s ` +
              `(frames ${trimmed.trim.inFrame}–${trimmed.trim.outFrame}), ${seconds(trimmed.trim.seconds)} kept\n`
          : `${trimmed.label}: not trimmed, ${seconds(trimmed.durationSeconds ?? trimmed.seconds)}\n`,
      );
      printShots(view);
    }
    return ExitCode.ok;
  });

export const runSequenceAssemble = async (ref: string, opts: { crossfade: string }, command: Command) =>
  withCliCore(command, async (cli) => {
    const studio = cli.studio();
    const sequenceId = studio.sequences.find(ref);
    const crossfade = Number(opts.crossfade);
    if (!/^\d+(\.\d+)?$/.test(opts.crossfade.trim()) || !Number.isFinite(crossfade))
      throw new AppError('usage', `--crossfade is a number of seconds (got "${opts.crossfade}").`);
    const started = await studio.sequences.assemble(sequenceId, crossfade);
    // the assembly's live line on a terminal, a plain line per tenth elsewhere
    const progress = commandProgress(cli, { labelFor: () => undefined });
    const line = 'assembly';
    let done: AssemblyView;
    try {
      progress.track(line);
      done = await studio.assembler.finished(started.assemblyId, (view) =>
        progress.update(line, { stage: `assembling ${Math.floor(view.progress * 10) * 10}%` }),
      );
      progress.done(line, null);
    } finally {
      progress.end();
    }
    const record = studio.assembler.filesOf(done.assemblyId);
    // an unchanged sequence answered its earlier file: say so
    const result = {
      ...done,
      reused: started.reused,
      path: record.localPath,
      sidecarPath: record.sidecarPath,
    };
    if (cli.json) printJson(result);
    else if (done.state === 'ready')
      process.stdout.write(
        `${result.reused ? 'unchanged, reused' : 'assembled'}: ${result.path}\n` +
          `  ${seconds(done.durationSeconds)}, ${done.chapters.length} chapters, sha256 ${done.sha256}\n` +
          `  sidecar ${result.sidecarPath}\n`,
      );
    if (done.state !== 'ready') {
      process.stderr.write(`framewright: ${done.errorMessage ?? 'the assembly failed'}\n`);
      return ExitCode.serviceError;
    }
    return ExitCode.ok;
  });

export const runSequenceDeliver = async (
  ref: string,
  opts: { preset: string; fit: string; loudness: string; burnCaptions?: boolean },
  command: Command,
) =>
  withCliCore(command, async (cli) => {
    const preset = DeliveryPreset.safeParse(opts.preset);
    if (!preset.success) throw new AppError('usage', `--preset is 16x9, 9x16 or 1x1 (got "${opts.preset}").`);
    const fit = DeliveryFit.safeParse(opts.fit);
    if (!fit.success) throw new AppError('usage', `--fit is pad or crop (got "${opts.fit}").`);
    const loudness = LoudnessTarget.safeParse(
      /^-?\d+(\.\d+)?$/.test(opts.loudness.trim()) ? Number(opts.loudness) : NaN,
    );
    if (!loudness.success)
      throw new AppError('usage', `--loudness is a target in LUFS from -31 to -9 (got "${opts.loudness}").`);
    const studio = cli.studio();
    const sequenceId = studio.sequences.find(ref);
    // an assembly made first shows its own line
    const progress = commandProgress(cli, { labelFor: () => undefined });
    let done: DeliveryView;
    let started: DeliveryView;
    let interrupted = false;
    const onSigint = () => {
      interrupted = true;
      if (started) studio.deliveries.cancel(started.deliveryId);
    };
    process.on('SIGINT', onSigint);
    try {
      const line = `delivery ${preset.data}`;
      progress.track(line);
      started = await studio.deliveries.deliver({
        sequenceId,
        preset: preset.data,
        fit: fit.data,
        loudnessTarget: loudness.data,
        burnCaptions: opts.burnCaptions ?? false,
      });
      if (interrupted) studio.deliveries.cancel(started.deliveryId);
      done = await studio.deliveries.finished(started.deliveryId, (view) =>
        progress.update(line, { stage: `rendering ${Math.floor(view.progress * 10) * 10}%` }),
      );
      progress.done(line, null);
    } finally {
      progress.end();
      process.off('SIGINT', onSigint);
    }
    const files = studio.deliveries.filesOf(done.deliveryId);
    const result = { ...done, reused: started.reused, path: files.localPath, sidecarPath: files.sidecarPath };
    if (cli.json) printJson(result);
    else if (done.state === 'ready')
      process.stdout.write(
        `${result.reused ? 'unchanged, reused' : 'delivered'}: ${result.path}\n` +
          `  ${done.width}x${done.height} ${done.fit}, ${seconds(done.durationSeconds)}, ` +
          `${done.measuredLufs} LUFS (target ${done.loudnessTarget}), sha256 ${done.sha256}\n` +
          `  sidecar ${result.sidecarPath}\n`,
      );
    if (done.state === 'ready') return ExitCode.ok;
    process.stderr.write(`framewright: ${done.errorMessage ?? `the delivery ${done.state}`}\n`);
    return ExitCode.serviceError;
  });
