import { execFile } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { fileTypeFromFile } from 'file-type';
import type { MediaKind, ProbedMedia } from '../../../shared/h3/draft.js';
import { normalizeMimeType } from '../../../shared/h3/draft.js';
import { locateMediaTools } from '../../../shared/node/ffmpeg-locator.js';
import { AppError } from '../errors.js';
import { mediaToolEnvironment } from './tool-environment.js';
import { runMediaWork } from './media-work-queue.js';
import { atMediaPriority, lowerPriority } from './tool-priority.js';

const run = promisify(execFile);

export interface MediaFacts {
  width?: number;
  height?: number;
  durationSeconds?: number;
  hasAudioTrack: boolean;
  hasVideoTrack: boolean;
  /** The picture's frame rate as the rational ffprobe reports (24/1, 30000/1001…). */
  frameRate?: { num: number; den: number };
  /** How many frames the picture has (the container's count, else its duration × frame rate). */
  frameCount?: number;
}

interface FfprobeOutput {
  streams?: {
    codec_type?: string;
    width?: number;
    height?: number;
    duration?: string;
    avg_frame_rate?: string;
    r_frame_rate?: string;
    nb_frames?: string;
    disposition?: { attached_pic?: number };
  }[];
  format?: { duration?: string };
}

/**
 * ffmpeg and ffprobe may open local files and pipes only: a playlist (HLS, DASH, concat) among
 * the bytes a server sent cannot make them open URLs or other protocols.
 */
export const MEDIA_TOOL_PROTOCOLS = ['-protocol_whitelist', 'file,pipe'] as const;

/** The image, video or audio type sniffed from a file's content; undefined for anything else. */
export async function sniffedMediaType(file: string): Promise<string | undefined> {
  const detected = await fileTypeFromFile(file).catch(() => undefined);
  const mime = detected?.mime ? normalizeMimeType(detected.mime) : undefined;
  return mime && /^(image|video|audio)\//.test(mime) ? mime : undefined;
}

/**
 * The only way the core runs ffmpeg or ffprobe on a file: its content is sniffed first (image,
 * video or audio, else refused without running the tool), and the tool may open only local files
 * and pipes ({@link MEDIA_TOOL_PROTOCOLS}, given before `-i`). `args` holds `{input}` where the
 * file goes.
 */
export async function runMediaTool(
  tool: 'ffmpeg' | 'ffprobe',
  file: string,
  args: readonly string[],
  options: { timeoutMs?: number; maxBuffer?: number } = {},
): Promise<{ stdout: string; stderr: string }> {
  if (!(await sniffedMediaType(file)))
    throw new AppError(
      'file.not_media',
      `${path.basename(file)}: the content is not a recognised image, video or audio file; it was not opened.`,
    );
  const binary = locateMediaTools()[tool];
  const input = args.indexOf('{input}');
  if (input < 1 || args[input - 1] !== '-i') throw new Error('runMediaTool: args need "-i {input}".');
  const full = [...args.slice(0, input - 1), ...MEDIA_TOOL_PROTOCOLS, '-i', file, ...args.slice(input + 1)];
  const execute = () => {
    // ffmpeg's work waits for spare CPU; ffprobe (a header read a call may wait for) only runs lower
    const started = tool === 'ffmpeg' ? atMediaPriority(binary, full) : { command: binary, args: full };
    const running = run(started.command, started.args, {
      timeout: options.timeoutMs,
      maxBuffer: options.maxBuffer ?? 8 * 1024 * 1024,
      env: mediaToolEnvironment(),
    });
    lowerPriority(running.child.pid);
    return running;
  };
  // ffmpeg (frames, cuts) waits its turn in the media-work queue; ffprobe only reads a header
  return tool === 'ffmpeg' ? runMediaWork(execute) : execute();
}

/**
 * ffprobe's JSON report of a (sniffed) file's streams, and of its container format unless
 * `format: false`; `T` is the shape the caller reads of it.
 */
export async function ffprobeJson<T>(file: string, options: { format?: boolean } = {}): Promise<T> {
  const { stdout } = await runMediaTool('ffprobe', file, [
    '-v',
    'error',
    '-print_format',
    'json',
    '-show_streams',
    ...(options.format === false ? [] : ['-show_format']),
    '-i',
    '{input}',
  ]);
  return JSON.parse(stdout) as T;
}

/** Width, height, duration and tracks as ffprobe reads them from the (sniffed) content. */
export async function readMediaFacts(file: string): Promise<MediaFacts> {
  const data = await ffprobeJson<FfprobeOutput>(file);
  const streams = data.streams ?? [];
  const video = streams.find((s) => s.codec_type === 'video' && !s.disposition?.attached_pic);
  const anyVideo = video ?? streams.find((s) => s.codec_type === 'video');
  const duration = Number(
    data.format?.duration ?? video?.duration ?? streams.find((s) => s.duration)?.duration,
  );
  const frameRate = rationalOf(video?.avg_frame_rate) ?? rationalOf(video?.r_frame_rate);
  const counted = Number(video?.nb_frames);
  const videoDuration = Number(video?.duration ?? duration);
  const frameCount =
    Number.isInteger(counted) && counted > 0
      ? counted
      : frameRate && Number.isFinite(videoDuration)
        ? Math.round((videoDuration * frameRate.num) / frameRate.den)
        : undefined;
  return {
    width: anyVideo?.width,
    height: anyVideo?.height,
    durationSeconds: Number.isFinite(duration) ? duration : undefined,
    hasAudioTrack: streams.some((s) => s.codec_type === 'audio'),
    hasVideoTrack: Boolean(video),
    ...(frameRate ? { frameRate } : {}),
    ...(frameCount ? { frameCount } : {}),
  };
}

/** ffprobe's "24/1" or "30000/1001"; undefined for "0/0" or anything else. */
function rationalOf(text: string | undefined): { num: number; den: number } | undefined {
  const match = /^(\d+)\/(\d+)$/.exec(text ?? '');
  const num = Number(match?.[1]);
  const den = Number(match?.[2]);
  return num > 0 && den > 0 ? { num, den } : undefined;
}

export async function sha256OfFile(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

const DOCUMENT_TYPES = new Set(['application/pdf', 'text/plain', 'text/markdown']);

function kindOf(mime: string): MediaKind | 'document' | undefined {
  if (mime.startsWith('image/')) return 'image';
  if (mime.startsWith('video/')) return 'video';
  if (mime.startsWith('audio/')) return 'audio';
  if (DOCUMENT_TYPES.has(mime) || mime.startsWith('application/vnd.openxmlformats')) return 'document';
  return undefined;
}

export interface ProbedFile extends Omit<ProbedMedia, 'kind'> {
  kind: MediaKind | 'document';
  path: string;
  sha256: string;
}

/**
 * Everything Framewright checks before an upload, read from the file's content (never its name):
 * detected type, size, sha256, and for media the dimensions, duration and audio track.
 */
export async function probeMedia(file: string): Promise<ProbedFile> {
  const info = await stat(file).catch(() => undefined);
  if (!info?.isFile()) throw new AppError('file.not_found', `No such file: ${file}`);
  if (info.size === 0) throw new AppError('file.empty', `${path.basename(file)} is empty.`);
  const detected = await fileTypeFromFile(file);
  let mimeType = detected?.mime ? normalizeMimeType(detected.mime) : undefined;
  if (!mimeType && /\.(txt|md)$/i.test(file))
    mimeType = file.toLowerCase().endsWith('.md') ? 'text/markdown' : 'text/plain';
  if (!mimeType) {
    throw new AppError(
      'file.unknown_type',
      `${path.basename(file)}: the file's content is not a recognised image, video, audio or document.`,
    );
  }
  // Some audio containers are sniffed as video (e.g. an .m4a is an MP4); the tracks decide.
  const kind0 = kindOf(mimeType);
  if (!kind0)
    throw new AppError(
      'file.unsupported_type',
      `${path.basename(file)} is ${mimeType}, which Framewright cannot send.`,
    );
  const sha256 = await sha256OfFile(file);
  const base = {
    id: randomUUID(),
    path: file,
    fileName: path.basename(file),
    mimeType,
    byteSize: info.size,
    sha256,
  };
  if (kind0 === 'document') return { ...base, kind: 'document' };
  const facts = await readMediaFacts(file).catch(() => undefined);
  if (!facts)
    throw new AppError('file.unreadable', `${path.basename(file)} could not be read as ${mimeType}.`);
  let kind: MediaKind = kind0;
  if (kind0 === 'video' && !facts.hasVideoTrack && facts.hasAudioTrack && mimeType !== 'video/quicktime') {
    kind = 'audio';
    if (mimeType === 'video/mp4') mimeType = 'audio/mp4';
  }
  return {
    ...base,
    mimeType,
    kind,
    width: facts.width,
    height: facts.height,
    durationSeconds: facts.durationSeconds,
    hasAudioTrack: facts.hasAudioTrack,
  };
}
