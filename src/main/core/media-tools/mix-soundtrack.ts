import { randomUUID } from 'node:crypto';
import { rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { AppError } from '../errors.js';
import { runFfmpegWithProgress } from './ffmpeg-run.js';
import { MEDIA_TOOL_PROTOCOLS, readMediaFacts, runMediaTool, sniffedMediaType } from './probe-media.js';

/**
 * A film's sound track (issue 31): the film's own sound, a music bed looped or cut to the film,
 * voice-over lines placed at their times, each with its gain; the music ducks under the voices by
 * a set amount (a volume envelope computed from the lines' measured times, so "at least duckDb
 * lower while a voice plays" holds exactly); then the mix is loudness-normalized in two passes
 * (measure with loudnorm, apply one linear gain with a peak limiter as a guard) and measured again
 * with ebur128.
 */

export interface SoundtrackMixInput {
  /** A file whose audio is the film's own sound (e.g. the assembly MP4); silence if it has none. */
  programAudioPath: string;
  durationSeconds: number;
  music?: { path: string; gainDb: number };
  voices: { path: string; atSeconds: number; gainDb: number }[];
  /** How much lower the music is while a voice plays (a positive number of dB). */
  duckDb: number;
  /** e.g. -14 (web) or -23 (broadcast). */
  targetLufs: number;
  /** A .wav or .m4a written here (never half: written aside, then renamed). */
  outPath: string;
  signal?: AbortSignal;
  onProgress?: (fraction: number) => void;
}

/** Seconds the music takes to go down before a voice starts, and to come back after it ends. */
export const DUCK_ATTACK_SECONDS = 0.15;
export const DUCK_RELEASE_SECONDS = 0.3;
/** The limiter's ceiling (sample peak, dBFS) when the normalizing gain would clip. */
const PEAK_CEILING_DB = -1;
/** Loudness below this is silence: no gain is applied to it. */
const SILENCE_LUFS = -70;
/** How close to the target a mix must measure (the issue's ±1 LU, with margin for the limiter). */
const TOLERANCE_LU = 0.5;

const SAMPLE = 'aresample=48000,aformat=sample_fmts=fltp:sample_rates=48000:channel_layouts=stereo';

/** A time span in which a voice plays (seconds in the film). */
export interface VoiceSpan {
  startSeconds: number;
  endSeconds: number;
}

/**
 * The music's gain envelope as an ffmpeg `volume` expression of `t`: 1 outside the voices, and
 * 10^(-duckDb/20) from each voice's start to its end, ramping down over
 * {@link DUCK_ATTACK_SECONDS} before it and back up over {@link DUCK_RELEASE_SECONDS} after it.
 */
export function duckEnvelope(spans: readonly VoiceSpan[], duckDb: number): string {
  if (spans.length === 0 || duckDb <= 0) return '1';
  const a = DUCK_ATTACK_SECONDS;
  const r = DUCK_RELEASE_SECONDS;
  const weights = spans.map((s) => {
    const down = `clip((t-${fmt(s.startSeconds - a)})/${a},0,1)`;
    const up = `clip((${fmt(s.endSeconds + r)}-t)/${r},0,1)`;
    return `${down}*${up}`;
  });
  const depth = weights.reduce((acc, w) => `max(${acc},${w})`);
  return `pow(10,-${fmt(duckDb)}*${depth}/20)`;
}

const fmt = (n: number) => Number(n.toFixed(4)).toString();

interface MixSources {
  hasProgramAudio: boolean;
  music?: { input: number; gainDb: number };
  voices: { input: number; atSeconds: number; gainDb: number; durationSeconds: number }[];
}

/** The filter graph that mixes the sources into `[mix]` (before normalization). */
export function mixFilterGraph(sources: MixSources, durationSeconds: number, duckDb: number): string {
  const d = fmt(durationSeconds);
  const parts: string[] = [];
  const mixed: string[] = [];
  parts.push(
    sources.hasProgramAudio
      ? `[0:a:0]${SAMPLE},apad,atrim=duration=${d},asetpts=N/SR/TB[prog]`
      : `anullsrc=r=48000:cl=stereo,${SAMPLE},atrim=duration=${d},asetpts=N/SR/TB[prog]`,
  );
  mixed.push('[prog]');
  if (sources.music) {
    const spans = sources.voices.map((v) => ({
      startSeconds: v.atSeconds,
      endSeconds: v.atSeconds + v.durationSeconds,
    }));
    parts.push(
      `[${sources.music.input}:a:0]${SAMPLE},atrim=duration=${d},asetpts=N/SR/TB,` +
        `volume=${fmt(sources.music.gainDb)}dB,asetnsamples=n=480:p=0,` +
        `volume=eval=frame:volume='${duckEnvelope(spans, duckDb)}'[music]`,
    );
    mixed.push('[music]');
  }
  sources.voices.forEach((v, i) => {
    const ms = Math.max(0, Math.round(v.atSeconds * 1000));
    parts.push(
      `[${v.input}:a:0]${SAMPLE},volume=${fmt(v.gainDb)}dB,adelay=delays=${ms}|${ms},` +
        `apad,atrim=duration=${d},asetpts=N/SR/TB[voice${i}]`,
    );
    mixed.push(`[voice${i}]`);
  });
  parts.push(
    mixed.length === 1
      ? `${mixed[0]}anull[mix]`
      : `${mixed.join('')}amix=inputs=${mixed.length}:duration=first:dropout_transition=0:normalize=0[mix]`,
  );
  return parts.join(';');
}

/** The integrated loudness (LUFS) of a file's sound, measured by ffmpeg's ebur128 (EBU R128). */
export async function measureLoudness(file: string): Promise<{ integratedLufs: number }> {
  const { stderr } = await runMediaTool(
    'ffmpeg',
    file,
    [
      '-hide_banner',
      '-nostdin',
      '-nostats',
      '-i',
      '{input}',
      '-map',
      '0:a:0',
      '-af',
      'ebur128',
      '-f',
      'null',
      '-',
    ],
    { maxBuffer: 64 * 1024 * 1024 },
  );
  return { integratedLufs: integratedFromEbur128(stderr) };
}

/** The summary's `I:` value from ebur128's log. */
export function integratedFromEbur128(log: string): number {
  const summary = log.slice(log.lastIndexOf('Integrated loudness:'));
  const match = /I:\s+(-?[\d.]+|-inf)\s+LUFS/.exec(summary);
  if (!match) throw new AppError('sequence.assembly_failed', 'ffmpeg did not report the loudness.');
  return match[1] === '-inf' ? SILENCE_LUFS : Number(match[1]);
}

/** The measurement pass: loudnorm's JSON report of the mix's integrated loudness and true peak. */
export function loudnormReport(log: string): { inputI: number; inputTp: number } {
  const start = log.lastIndexOf('{');
  const end = log.lastIndexOf('}');
  if (start < 0 || end < start)
    throw new AppError('sequence.assembly_failed', 'ffmpeg did not measure the mix.');
  const data = JSON.parse(log.slice(start, end + 1)) as { input_i?: string; input_tp?: string };
  const num = (v: string | undefined) => (v === undefined || /inf/.test(v) ? -Infinity : Number(v));
  return { inputI: num(data.input_i), inputTp: num(data.input_tp) };
}

/** Mixes and normalizes the sound track into `outPath`; answers the loudness measured after. */
export async function mixSoundtrack(
  input: SoundtrackMixInput,
): Promise<{ path: string; integratedLufs: number }> {
  if (!(input.durationSeconds > 0))
    throw new AppError('sequence.not_assemblable', 'The film has no duration to mix a sound track over.');
  if (!(input.duckDb >= 0))
    throw new AppError('sequence.not_assemblable', 'The duck amount must be 0 dB or more.');
  const ext = path.extname(input.outPath).toLowerCase();
  if (ext !== '.wav' && ext !== '.m4a')
    throw new AppError('sequence.not_assemblable', 'The mixed sound track is written as .wav or .m4a.');
  const files = [
    input.programAudioPath,
    ...(input.music ? [input.music.path] : []),
    ...input.voices.map((v) => v.path),
  ];
  for (const file of files)
    if (!(await sniffedMediaType(file)))
      throw new AppError(
        'file.not_media',
        `${path.basename(file)} is not a sound or video file; it was not opened.`,
      );
  const program = await readMediaFacts(input.programAudioPath);
  const voiceFacts = await Promise.all(input.voices.map((v) => readMediaFacts(v.path)));
  // input options apply to the next input only: every input is limited to local files
  const inputs: string[] = [...MEDIA_TOOL_PROTOCOLS, '-i', input.programAudioPath];
  let next = 1;
  let music: MixSources['music'];
  if (input.music) {
    inputs.push(...MEDIA_TOOL_PROTOCOLS, '-stream_loop', '-1', '-i', input.music.path);
    music = { input: next++, gainDb: input.music.gainDb };
  }
  const voices = input.voices.map((v, i) => {
    const facts = voiceFacts[i]!;
    if (!facts.hasAudioTrack)
      throw new AppError(
        'sequence.not_assemblable',
        `${path.basename(v.path)} has no sound to place in the mix.`,
      );
    inputs.push(...MEDIA_TOOL_PROTOCOLS, '-i', v.path);
    return {
      input: next++,
      atSeconds: v.atSeconds,
      gainDb: v.gainDb,
      durationSeconds: facts.durationSeconds ?? 0,
    };
  });
  const graph = mixFilterGraph(
    { hasProgramAudio: program.hasAudioTrack, music, voices },
    input.durationSeconds,
    input.duckDb,
  );
  const report = (from: number, span: number) => (f: number) => input.onProgress?.(from + f * span);

  // pass 1: measure the mix
  const measured = await runFfmpeg(
    [
      ...inputs,
      '-filter_complex',
      `${graph};[mix]loudnorm=I=${input.targetLufs}:TP=${PEAK_CEILING_DB}:LRA=11:print_format=json[out]`,
      '-map',
      '[out]',
      '-f',
      'null',
      '-',
    ],
    input.durationSeconds,
    { signal: input.signal, onProgress: report(0, 0.45) },
  );
  const { inputI } = loudnormReport(measured);

  // pass 2: one linear gain (a limiter only catches peaks the gain would push over the ceiling);
  // measured after, and corrected once more if the limiter took the mix off the target
  const codec =
    ext === '.wav' ? ['-c:a', 'pcm_s16le', '-f', 'wav'] : ['-c:a', 'aac', '-b:a', '192k', '-f', 'ipod'];
  const partial = path.join(
    path.dirname(input.outPath),
    `.${path.basename(input.outPath)}.${randomUUID()}.part`,
  );
  let gainDb = inputI > SILENCE_LUFS ? input.targetLufs - inputI : 0;
  let integratedLufs = NaN;
  try {
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const ceiling = 10 ** (PEAK_CEILING_DB / 20);
      await runFfmpeg(
        [
          ...inputs,
          '-filter_complex',
          `${graph};[mix]volume=${fmt(gainDb)}dB,` +
            `alimiter=limit=${ceiling.toFixed(4)}:attack=5:release=50:level=0,${SAMPLE}[out]`,
          '-map',
          '[out]',
          '-t',
          fmt(input.durationSeconds),
          ...codec,
          partial,
        ],
        input.durationSeconds,
        { signal: input.signal, onProgress: report(0.45 + attempt * 0.05, 0.45) },
      );
      integratedLufs = (await measureLoudness(partial)).integratedLufs;
      if (inputI <= SILENCE_LUFS || Math.abs(integratedLufs - input.targetLufs) <= TOLERANCE_LU) break;
      gainDb += input.targetLufs - integratedLufs;
    }
    await rename(partial, input.outPath);
  } catch (error) {
    await rm(partial, { force: true });
    throw error;
  }
  input.onProgress?.(1);
  return { path: input.outPath, integratedLufs };
}

/** Runs ffmpeg with `-progress`, answering its log; `signal` stops it. */
function runFfmpeg(
  args: string[],
  totalSeconds: number,
  options: { onProgress?: (fraction: number) => void; signal?: AbortSignal },
): Promise<string> {
  return runFfmpegWithProgress(
    ['-hide_banner', '-nostdin', '-y', '-progress', 'pipe:1', '-nostats', ...args],
    totalSeconds,
    options,
    { code: 'sequence.assembly_failed', doing: 'mix the sound track', stopped: 'The mix was stopped.' },
  );
}
