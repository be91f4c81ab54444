import path from 'node:path';
import { AppError } from '../errors.js';
import { subtitlesFilter } from './captions.js';
import { runFfmpegWithProgress } from './ffmpeg-run.js';
import { FFMPEG_QUIET, filmMp4Output } from './film-encoding.js';
import { ffprobeJson, MEDIA_TOOL_PROTOCOLS, sniffedMediaType } from './probe-media.js';

/**
 * Renders a delivery format (issue 31): the assembled film's picture fitted into the preset's
 * frame — `pad` scales it to fit inside with black bars, `crop` scales it to cover the frame and
 * cuts the overflow, both centred — with captions burned in when asked (libass `subtitles` over an
 * SRT file, `captions.ts`), and the delivery's sound (a mix already normalized to its loudness target), encoded
 * H.264 (yuv420p, +faststart) / AAC 48 kHz stereo in MP4 with no rotation. Offline: only local
 * files the core sniffed as media are opened.
 */

export interface DeliveryFrame {
  width: number;
  height: number;
}

export interface DeliveryRenderInput {
  /** The assembled film (its picture and chapters are used). */
  picturePath: string;
  /** A file whose first audio stream is the delivery's sound (the normalized mix). */
  soundPath: string;
  /** The film's duration: the delivery lasts exactly this long. */
  durationSeconds: number;
  frame: DeliveryFrame;
  fit: 'pad' | 'crop';
  /** An SRT file whose cues are burned into the picture. */
  captionsPath?: string;
  outPath: string;
}

/** The picture's filter chain: fit into the frame, square pixels, captions, yuv420p. */
export function deliveryVideoFilter(
  frame: DeliveryFrame,
  fit: 'pad' | 'crop',
  captionsPath?: string,
): string {
  const { width, height } = frame;
  const fitted =
    fit === 'pad'
      ? `scale=${width}:${height}:force_original_aspect_ratio=decrease,` +
        `pad=${width}:${height}:(ow-iw)/2:(oh-ih)/2:color=black`
      : `scale=${width}:${height}:force_original_aspect_ratio=increase,crop=${width}:${height}`;
  const captions = captionsPath ? `,${subtitlesFilter(captionsPath)}` : '';
  return `[0:v:0]${fitted},setsar=1${captions},format=yuv420p[v]`;
}

/** ffmpeg's arguments for a delivery (the bench runs the same ones directly as its baseline). */
export function deliveryArgs(input: DeliveryRenderInput): string[] {
  return [
    ...FFMPEG_QUIET,
    ...MEDIA_TOOL_PROTOCOLS,
    '-i',
    input.picturePath,
    ...MEDIA_TOOL_PROTOCOLS,
    '-i',
    input.soundPath,
    '-filter_complex',
    deliveryVideoFilter(input.frame, input.fit, input.captionsPath),
    '-map',
    '[v]',
    '-map',
    '1:a:0',
    '-map_chapters',
    '0',
    ...filmMp4Output(input.durationSeconds, input.outPath),
  ];
}

/** Renders the delivery to `input.outPath`, with progress (0..1); `signal` stops ffmpeg at once. */
export async function renderDelivery(
  input: DeliveryRenderInput,
  options: { onProgress?: (fraction: number) => void; signal?: AbortSignal } = {},
): Promise<void> {
  for (const file of [input.picturePath, input.soundPath])
    if (!(await sniffedMediaType(file)))
      throw new AppError('sequence.delivery_failed', `${path.basename(file)} is not a media file.`);
  await runFfmpegWithProgress(deliveryArgs(input), input.durationSeconds, options, {
    code: 'sequence.delivery_failed',
    doing: 'render the delivery',
    stopped: 'The delivery was cancelled.',
    stoppedCode: 'sequence.delivery_cancelled',
  });
}

/** What a delivered file is, as ffprobe reads it from its content. */
export interface DeliveryFacts {
  width: number | undefined;
  height: number | undefined;
  durationSeconds: number | undefined;
  videoCodec: string | undefined;
  pixelFormat: string | undefined;
  audioCodec: string | undefined;
  sampleRate: number | undefined;
  channels: number | undefined;
  /** The picture's frame rate (frames per second). */
  fps: number | undefined;
  /** Degrees of the display rotation (a `rotate` tag or a display matrix); 0 when none. */
  rotation: number;
}

interface ProbeStream {
  codec_type?: string;
  codec_name?: string;
  width?: number;
  height?: number;
  pix_fmt?: string;
  r_frame_rate?: string;
  sample_rate?: string;
  channels?: number;
  tags?: { rotate?: string };
  side_data_list?: { side_data_type?: string; rotation?: number }[];
}

export async function probeDelivery(file: string): Promise<DeliveryFacts> {
  const data = await ffprobeJson<{ streams?: ProbeStream[]; format?: { duration?: string } }>(file);
  const streams = data.streams ?? [];
  const video = streams.find((s) => s.codec_type === 'video');
  const audio = streams.find((s) => s.codec_type === 'audio');
  const matrix = video?.side_data_list?.find((d) => d.side_data_type === 'Display Matrix');
  const duration = Number(data.format?.duration);
  const [num, den] = (video?.r_frame_rate ?? '').split('/').map(Number);
  const fps = num && den ? num / den : undefined;
  return {
    fps,
    width: video?.width,
    height: video?.height,
    durationSeconds: Number.isFinite(duration) ? duration : undefined,
    videoCodec: video?.codec_name,
    pixelFormat: video?.pix_fmt,
    audioCodec: audio?.codec_name,
    sampleRate: audio?.sample_rate ? Number(audio.sample_rate) : undefined,
    channels: audio?.channels,
    rotation: Math.abs(Number(video?.tags?.rotate ?? 0)) || Math.abs(matrix?.rotation ?? 0),
  };
}
