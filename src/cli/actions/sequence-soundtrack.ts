import { writeFile } from 'node:fs/promises';
import type { Command } from 'commander';
import type { SoundtrackView } from '../../shared/bridge/domains/sequences.js';
import { AppError } from '../../main/core/errors.js';
import { printJson, withCliCore, type CliCore } from '../cli-context.js';
import { ExitCode } from '../exit-codes.js';
import { commandProgress } from '../progress/command-progress.js';

/** A number of dB (negative allowed), or undefined when not given. */
function decibels(value: string | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value.trim());
  if (!/^[-+]?\d+(\.\d+)?$/.test(value.trim()) || !Number.isFinite(n))
    throw new AppError('usage', `${name} is a number of dB (got "${value}").`);
  return n;
}

function secondsOption(value: string, name: string): number {
  const n = Number(value.trim());
  if (!/^\d+(\.\d+)?$/.test(value.trim()) || !Number.isFinite(n))
    throw new AppError('usage', `${name} is a number of seconds, 0 or more (got "${value}").`);
  return n;
}

function printSoundtrack(view: SoundtrackView): void {
  const m = view.music;
  process.stdout.write(
    `music: ${m ? `${m.source} ${m.state}${m.fileName ? ` ${m.fileName}` : ''}${m.prompt ? ` "${m.prompt}"` : ''}` : 'none'}` +
      `  gain ${view.musicGainDb} dB, ducks ${view.duckDb} dB under a voice\n`,
  );
  for (const v of view.voices)
    process.stdout.write(
      `  ${v.atSeconds.toFixed(2).padStart(7)} s  ${v.source.padEnd(9)} ${v.state.padEnd(10)} ${String(v.gainDb).padStart(4)} dB  ` +
        `${v.durationSeconds === null ? '—' : `${v.durationSeconds.toFixed(2)} s`}  ${(v.text || v.fileName || '').slice(0, 60)}\n`,
    );
  process.stdout.write(`  ${view.captions.length} caption cues\n`);
}

/**
 * Runs a generation (music or speech) with its live line on stderr: the engine's job created
 * under a sound track key. Answers the exit code of the sound's final state.
 */
async function generating(
  cli: CliCore,
  keyPrefix: string,
  label: string,
  run: () => Promise<SoundtrackView>,
  stateOf: (view: SoundtrackView) => { state: string; errorMessage: string | null } | undefined,
): Promise<{ view: SoundtrackView; exit: ExitCode }> {
  const progress = commandProgress(cli, {
    labelFor: (key) => (key.startsWith(keyPrefix) ? label : undefined),
  });
  let view: SoundtrackView;
  try {
    progress.track(label);
    view = await run();
    progress.done(label, null);
  } finally {
    progress.end();
  }
  const sound = stateOf(view);
  if (sound?.state === 'failed') {
    if (!cli.json)
      process.stderr.write(`framewright: ${label} failed: ${sound.errorMessage ?? 'no reason given'}\n`);
    return { view, exit: ExitCode.jobFailed };
  }
  if (sound?.state === 'generating') {
    if (!cli.json) process.stderr.write(`${label} is still running; \`framewright resume\` continues it.\n`);
    return { view, exit: ExitCode.waitLimit };
  }
  return { view, exit: ExitCode.ok };
}

function finish(cli: CliCore, view: SoundtrackView, exit: ExitCode): ExitCode {
  if (cli.json) printJson(view);
  else printSoundtrack(view);
  return exit;
}

interface MusicOptions {
  library?: string;
  generate?: string;
  model?: string;
  seconds?: string;
  gain?: string;
  duck?: string;
}

/** `sequence music <sequence> (--library <id> | --generate <prompt>) [--gain dB] [--duck dB]`. */
export const runSequenceMusic = async (ref: string, opts: MusicOptions, command: Command) =>
  withCliCore(command, async (cli) => {
    const studio = cli.studio();
    const sequenceId = studio.sequences.find(ref);
    const musicGainDb = decibels(opts.gain, '--gain');
    const duckDb = decibels(opts.duck, '--duck');
    if (opts.library !== undefined && opts.generate !== undefined)
      throw new AppError('usage', 'Give --library or --generate, not both.');
    let view: SoundtrackView | undefined;
    let exit: ExitCode = ExitCode.ok;
    if (opts.library !== undefined) {
      const job = studio.views.find(opts.library, cli.profileId);
      view = await studio.soundtrack.setMusic(sequenceId, job.id);
    } else if (opts.generate !== undefined) {
      const seconds =
        opts.seconds === undefined ? undefined : Math.round(secondsOption(opts.seconds, '--seconds'));
      const prompt = opts.generate;
      ({ view, exit } = await generating(
        cli,
        'soundtrack-music-',
        'music',
        () => studio.soundtrack.generateMusic(sequenceId, { prompt, model: opts.model, seconds }),
        (v) => v.music ?? undefined,
      ));
    }
    if (musicGainDb !== undefined || duckDb !== undefined)
      view = await studio.soundtrack.setLevels(sequenceId, { musicGainDb, duckDb });
    return finish(cli, view ?? (await studio.soundtrack.get(sequenceId)), exit);
  });

interface VoiceOptions {
  text?: string;
  file?: string;
  at: string;
  gain?: string;
  model?: string;
  speaker?: string;
}

/** `sequence voice <sequence> --at <s> (--text <t> | --file <f>) [--gain dB]`. */
export const runSequenceVoice = async (ref: string, opts: VoiceOptions, command: Command) =>
  withCliCore(command, async (cli) => {
    const studio = cli.studio();
    const sequenceId = studio.sequences.find(ref);
    if ((opts.text === undefined) === (opts.file === undefined))
      throw new AppError('usage', 'Give --text (spoken by the speech service) or --file (an audio file).');
    const atSeconds = secondsOption(opts.at, '--at');
    const gainDb = decibels(opts.gain, '--gain');
    const before = new Set((await studio.soundtrack.get(sequenceId)).voices.map((v) => v.lineId));
    const lineOf = (view: SoundtrackView) => view.voices.find((v) => !before.has(v.lineId));
    if (opts.file !== undefined) {
      const staged = await studio.staged.stageCopy(opts.file);
      const view = await studio.soundtrack.addVoice(sequenceId, { atSeconds, gainDb, fileId: staged.id });
      const line = lineOf(view);
      if (line && !line.transcribed && !cli.json)
        process.stderr.write(
          'The file was placed; its captions wait for a transcript (the service did not answer).\n',
        );
      return finish(cli, view, ExitCode.ok);
    }
    const text = opts.text!;
    const { view, exit } = await generating(
      cli,
      'soundtrack-voice-',
      `voice at ${atSeconds} s`,
      () =>
        studio.soundtrack.addVoice(sequenceId, {
          atSeconds,
          gainDb,
          text,
          model: opts.model,
          speaker: opts.speaker,
        }),
      lineOf,
    );
    return finish(cli, view, exit);
  });

/** `sequence captions <sequence> [--srt <file>] [--vtt <file>]`: the caption track as sidecars (SRT on stdout without either). */
export const runSequenceCaptions = async (
  ref: string,
  opts: { srt?: string; vtt?: string },
  command: Command,
) =>
  withCliCore(command, async (cli) => {
    const studio = cli.studio();
    const sequenceId = studio.sequences.find(ref);
    const cues = await studio.soundtrack.captionsOf(sequenceId);
    const { toSrt, toWebVtt } = await import('../../main/core/media-tools/captions.js');
    const srt = toSrt(cues);
    const vtt = toWebVtt(cues);
    if (opts.srt) await writeFile(opts.srt, srt, 'utf8');
    if (opts.vtt) await writeFile(opts.vtt, vtt, 'utf8');
    if (cli.json) printJson({ cues, srt: opts.srt ?? null, vtt: opts.vtt ?? null });
    else if (!opts.srt && !opts.vtt) process.stdout.write(srt);
    else
      process.stdout.write(
        `${cues.length} caption cues${opts.srt ? `\n  SRT    ${opts.srt}` : ''}${opts.vtt ? `\n  WebVTT ${opts.vtt}` : ''}\n`,
      );
    return ExitCode.ok;
  });
