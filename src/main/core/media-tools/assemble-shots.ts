import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { AppError } from '../errors.js';
import { runFfmpegWithProgress } from './ffmpeg-run.js';
import { FFMPEG_QUIET, filmMp4Output } from './film-encoding.js';
import { MEDIA_TOOL_PROTOCOLS, sniffedMediaType } from './probe-media.js';
import { filmSeconds } from '../../../shared/film-length.js';

/**
 * Renders shots into one MP4 with ffmpeg (issue 15, "Assemble"): every shot scaled and padded to
 * the canvas at one frame rate, its sound (or silence) resampled to 48 kHz stereo, then joined by
 * straight cuts or cross-fades of picture (`xfade`) and sound (`acrossfade`), with one chapter per
 * shot. A trimmed shot keeps only `[inSeconds, outSeconds)` of its file (`trim`/`atrim` on the
 * decoded stream, so the cut falls on the exact frame; the file itself is not changed). Offline:
 * only local files the core sniffed as video are opened.
 */

export interface AssemblyShot {
  /** A verified result in the library. */
  path: string;
  /** The shot's video duration as measured (seconds). */
  durationSeconds: number;
  /**
   * The kept range of the file (issue 31, trim): from `inSeconds` (default 0) up to, not including,
   * `outSeconds` (default the end). Both lie on frame boundaries of the file.
   */
  inSeconds?: number;
  outSeconds?: number;
  hasAudioTrack: boolean;
  /** The chapter's name. */
  title: string;
}

export interface AssemblyCanvas {
  width: number;
  height: number;
  fps: number;
}

export interface AssemblyPlan {
  shots: readonly AssemblyShot[];
  canvas: AssemblyCanvas;
  /** 0: straight cuts. */
  crossfadeSeconds: number;
}

export interface ChapterMark {
  title: string;
  startSeconds: number;
  endSeconds: number;
}

/** Each shot lasts a whole number of frames of the canvas rate. */
export function framesOf(durationSeconds: number, fps: number): number {
  return Math.max(1, Math.round(durationSeconds * fps));
}

/** How long a shot lasts in the assembly: its kept range when trimmed, else its whole file. */
export function keptSecondsOf(shot: AssemblyShot): number {
  return (shot.outSeconds ?? shot.durationSeconds) - (shot.inSeconds ?? 0);
}

/**
 * Half a millisecond: a trimmed shot's frame times may be rounded by its container's time base, so
 * `trim` cuts this much before each boundary (far less than a frame: the same frames are kept).
 */
const BOUNDARY_SLACK_SECONDS = 0.0005;

/** The `trim`/`atrim` prefix of a trimmed shot (empty for a whole one). */
function cutOf(shot: AssemblyShot): { video: string; audio: string } {
  if (shot.inSeconds === undefined && shot.outSeconds === undefined) return { video: '', audio: '' };
  const start = shot.inSeconds ?? 0;
  const range = (slack: number) =>
    `start=${Math.max(0, start - slack).toFixed(6)}` +
    (shot.outSeconds === undefined ? '' : `:end=${(shot.outSeconds - slack).toFixed(6)}`);
  return {
    video: `setpts=PTS-STARTPTS,trim=${range(BOUNDARY_SLACK_SECONDS)},setpts=PTS-STARTPTS,`,
    audio: `asetpts=PTS-STARTPTS,atrim=${range(0)},asetpts=PTS-STARTPTS,`,
  };
}

/**
 * The chapters and total duration of a plan: each cross-fade overlaps two shots, so the total is
 * the sum of the shots minus one cross-fade per join; a chapter starts where its shot begins to
 * fade in (the first at 0) and ends where the next one starts.
 */
export function assemblyTimeline(plan: AssemblyPlan): { chapters: ChapterMark[]; totalSeconds: number } {
  const { fps } = plan.canvas;
  const lengths = plan.shots.map((s) => framesOf(keptSecondsOf(s), fps) / fps);
  const total = filmSeconds(lengths, plan.crossfadeSeconds);
  let start = 0;
  const chapters = plan.shots.map((shot, i) => {
    const end = i === plan.shots.length - 1 ? total : start + lengths[i]! - plan.crossfadeSeconds;
    const mark = { title: shot.title, startSeconds: round3(start), endSeconds: round3(end) };
    start = end;
    return mark;
  });
  return { chapters, totalSeconds: round3(total) };
}

const round3 = (n: number) => Math.round(n * 1000) / 1000;

/** A cross-fade must leave every shot some time of its own: at most half the shortest shot. */
export function checkCrossfade(plan: AssemblyPlan): void {
  if (plan.shots.length < 2 || plan.crossfadeSeconds === 0) return;
  const shortest = Math.min(
    ...plan.shots.map((s) => framesOf(keptSecondsOf(s), plan.canvas.fps) / plan.canvas.fps),
  );
  if (plan.crossfadeSeconds > shortest / 2)
    throw new AppError(
      'sequence.invalid_crossfade',
      `A cross-fade of ${plan.crossfadeSeconds} s is too long: the shortest shot lasts ${shortest.toFixed(2)} s (at most half of it).`,
    );
}

/** The ffmpeg filter graph of a plan: `[v]` and `[a]` are the joined picture and sound. */
export function assemblyFilterGraph(plan: AssemblyPlan): string {
  const { width, height, fps } = plan.canvas;
  const fade = plan.crossfadeSeconds;
  const parts: string[] = [];
  plan.shots.forEach((shot, i) => {
    const seconds = (framesOf(keptSecondsOf(shot), fps) / fps).toFixed(6);
    const cut = cutOf(shot);
    parts.push(
      `[${i}:v:0]${cut.video}scale=${width}:${height}:force_original_aspect_ratio=decrease,` +
        `pad=${width}:${height}:(ow-iw)/2:(oh-ih)/2:color=black,setsar=1,fps=${fps},format=yuv420p,` +
        `trim=duration=${seconds},setpts=PTS-STARTPTS,tpad=stop_mode=clone:stop_duration=${seconds},` +
        `trim=duration=${seconds},setpts=PTS-STARTPTS[v${i}]`,
    );
    const sound = shot.hasAudioTrack
      ? `[${i}:a:0]${cut.audio}aresample=48000,aformat=sample_fmts=fltp:channel_layouts=stereo,apad,`
      : `anullsrc=r=48000:cl=stereo,aformat=sample_fmts=fltp:channel_layouts=stereo,`;
    parts.push(`${sound}atrim=duration=${seconds},asetpts=N/SR/TB[a${i}]`);
  });
  if (plan.shots.length === 1) {
    parts.push('[v0]null[v]', '[a0]anull[a]');
  } else if (fade === 0) {
    const inputs = plan.shots.map((_, i) => `[v${i}][a${i}]`).join('');
    parts.push(`${inputs}concat=n=${plan.shots.length}:v=1:a=1[v][a]`);
  } else {
    let offset = 0;
    let video = 'v0';
    let audio = 'a0';
    for (let i = 1; i < plan.shots.length; i += 1) {
      offset += framesOf(keptSecondsOf(plan.shots[i - 1]!), fps) / fps - fade;
      const last = i === plan.shots.length - 1;
      const vOut = last ? 'v' : `xv${i}`;
      const aOut = last ? 'a' : `xa${i}`;
      parts.push(
        `[${video}][v${i}]xfade=transition=fade:duration=${fade}:offset=${offset.toFixed(6)}[${vOut}]`,
        `[${audio}][a${i}]acrossfade=d=${fade}:c1=tri:c2=tri[${aOut}]`,
      );
      video = vOut;
      audio = aOut;
    }
  }
  return parts.join(';');
}

/** The chapters in ffmpeg's metadata format (times in milliseconds). */
export function ffmetadataOf(chapters: readonly ChapterMark[], title: string): string {
  const escape = (text: string) => text.replace(/[=;#\\\n]/g, (c) => (c === '\n' ? ' ' : `\\${c}`));
  const lines = [';FFMETADATA1', `title=${escape(title)}`];
  for (const chapter of chapters)
    lines.push(
      '[CHAPTER]',
      'TIMEBASE=1/1000',
      `START=${Math.round(chapter.startSeconds * 1000)}`,
      `END=${Math.round(chapter.endSeconds * 1000)}`,
      `title=${escape(chapter.title)}`,
    );
  return `${lines.join('\n')}\n`;
}

/**
 * Renders the plan to `outPath` (an MP4, H.264 and AAC), reporting progress (0..1) from ffmpeg's
 * own `-progress` output. `signal` stops ffmpeg.
 */
export async function renderAssembly(
  plan: AssemblyPlan,
  outPath: string,
  options: {
    title: string;
    onProgress?: (fraction: number) => void;
    onWaiting?: (ahead: number) => void;
    signal?: AbortSignal;
  },
): Promise<{ chapters: ChapterMark[]; totalSeconds: number }> {
  if (plan.shots.length === 0) throw new AppError('sequence.not_assemblable', 'The sequence has no shots.');
  checkCrossfade(plan);
  for (const shot of plan.shots)
    if (!(await sniffedMediaType(shot.path))?.startsWith('video/'))
      throw new AppError('sequence.not_assemblable', `${path.basename(shot.path)} is not a video.`);
  const timeline = assemblyTimeline(plan);
  const metadataPath = `${outPath}.ffmetadata.txt`;
  await writeFile(metadataPath, ffmetadataOf(timeline.chapters, options.title), 'utf8');
  const args = [
    ...FFMPEG_QUIET,
    ...MEDIA_TOOL_PROTOCOLS,
    ...plan.shots.flatMap((s) => ['-i', s.path]),
    '-f',
    'ffmetadata',
    '-i',
    metadataPath,
    '-filter_complex',
    assemblyFilterGraph(plan),
    '-map',
    '[v]',
    '-map',
    '[a]',
    '-map_metadata',
    String(plan.shots.length),
    '-map_chapters',
    String(plan.shots.length),
    '-r',
    String(plan.canvas.fps),
    ...filmMp4Output(timeline.totalSeconds, outPath),
  ];
  try {
    await runFfmpegWithProgress(args, timeline.totalSeconds, options, {
      code: 'sequence.assembly_failed',
      doing: 'assemble the sequence',
      stopped: 'The assembly was stopped.',
    });
  } finally {
    await rm(metadataPath, { force: true });
  }
  return timeline;
}
