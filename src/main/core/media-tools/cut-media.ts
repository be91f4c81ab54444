import { AppError } from '../errors.js';
import { encoderPresetFromEnv } from './film-encoding.js';
import { ffprobeJson, runMediaTool } from './probe-media.js';

/** What the cut must keep: `[startSeconds, endSeconds)` of `source`, written to `output`. */
export interface CutRange {
  source: string;
  output: string;
  startSeconds: number;
  endSeconds: number;
  /**
   * `video`: an H.264/AAC MP4, re-encoded so the cut starts and ends on the frames asked for;
   * `audio`: the audio alone, cut on exact samples (decoded), as WAV (`wav`) or FLAC (`flac`).
   */
  as: 'video' | 'audio-wav' | 'audio-flac';
}

interface StreamFacts {
  codec_type?: string;
  codec_name?: string;
  sample_rate?: string;
  r_frame_rate?: string;
  avg_frame_rate?: string;
  duration?: string;
  duration_ts?: number;
  time_base?: string;
  disposition?: { attached_pic?: number };
}

async function streamsOf(file: string): Promise<StreamFacts[]> {
  const data = await ffprobeJson<{ streams?: StreamFacts[] }>(file, { format: false });
  return data.streams ?? [];
}

function rate(value: string | undefined): number {
  const [n, d] = (value ?? '').split('/').map(Number);
  return n && d ? n / d : Number.NaN;
}

const videoOf = (streams: StreamFacts[]) =>
  streams.find((s) => s.codec_type === 'video' && !s.disposition?.attached_pic);
const audioOf = (streams: StreamFacts[]) => streams.find((s) => s.codec_type === 'audio');

/** The longest a cut may run: a long kept range of a large video re-encodes (default `veryfast`). */
const VIDEO_CUT_TIMEOUT_MS = 20 * 60_000;
/** An audio cut only decodes and writes PCM or FLAC. */
const AUDIO_CUT_TIMEOUT_MS = 5 * 60_000;

/** Encoder version strings and metadata left out, so the same cut gives the same bytes. */
const REPRODUCIBLE = ['-map_metadata', '-1', '-fflags', '+bitexact', '-flags', '+bitexact'];

/**
 * Cuts one range of a media file with ffmpeg (the source is only read) and checks the result with
 * ffprobe: a video within one frame of the range, an audio to the exact sample count (or within a
 * millisecond where the container does not count samples). Returns the cut's measured duration.
 */
export async function cutMediaRange(cut: CutRange): Promise<{ durationSeconds: number }> {
  const kept = cut.endSeconds - cut.startSeconds;
  if (!(cut.startSeconds >= 0 && kept > 0))
    throw new AppError('media.trim_invalid', 'The kept range must start at 0 s or later and keep something.');
  const source = await streamsOf(cut.source);
  if (cut.as === 'video') {
    const video = videoOf(source);
    const fps = rate(video?.avg_frame_rate) || rate(video?.r_frame_rate);
    if (!video || !(fps > 0)) throw new AppError('media.trim_no_stream', 'This file has no video to trim.');
    await runMediaTool(
      'ffmpeg',
      cut.source,
      [
        '-v',
        'error',
        // before -i with a re-encode: ffmpeg decodes from the key frame and drops up to the start frame
        '-ss',
        cut.startSeconds.toFixed(6),
        '-i',
        '{input}',
        '-t',
        kept.toFixed(6),
        '-map',
        '0:v:0',
        '-map',
        '0:a:0?',
        '-c:v',
        'libx264',
        '-preset',
        encoderPresetFromEnv(),
        '-crf',
        '18',
        '-pix_fmt',
        'yuv420p',
        '-c:a',
        'aac',
        '-b:a',
        '160k',
        '-movflags',
        '+faststart',
        ...REPRODUCIBLE,
        '-f',
        'mp4',
        '-y',
        cut.output,
      ],
      { timeoutMs: VIDEO_CUT_TIMEOUT_MS },
    );
    const out = videoOf(await streamsOf(cut.output));
    const measured = Number(out?.duration);
    if (!(Math.abs(measured - kept) <= 1 / fps + 1e-3))
      throw new AppError(
        'media.trim_inexact',
        `The cut lasts ${measured} s instead of ${kept.toFixed(3)} s (more than one frame off); nothing was sent.`,
      );
    return { durationSeconds: measured };
  }
  const audio = audioOf(source);
  const sampleRate = Number(audio?.sample_rate);
  if (!audio || !(sampleRate > 0))
    throw new AppError('media.trim_no_stream', 'This file has no audio to trim.');
  const startSample = Math.round(cut.startSeconds * sampleRate);
  const endSample = Math.round(cut.endSeconds * sampleRate);
  const pcm = audio.codec_name?.startsWith('pcm_') ? audio.codec_name : 'pcm_s16le';
  await runMediaTool(
    'ffmpeg',
    cut.source,
    [
      '-v',
      'error',
      '-i',
      '{input}',
      '-map',
      '0:a:0',
      '-af',
      `atrim=start_sample=${startSample}:end_sample=${endSample},asetpts=PTS-STARTPTS`,
      '-c:a',
      cut.as === 'audio-wav' ? pcm : 'flac',
      ...REPRODUCIBLE,
      '-f',
      cut.as === 'audio-wav' ? 'wav' : 'flac',
      '-y',
      cut.output,
    ],
    { timeoutMs: AUDIO_CUT_TIMEOUT_MS },
  );
  const out = audioOf(await streamsOf(cut.output));
  const expected = endSample - startSample;
  const measured = Number(out?.duration);
  const counted = out?.time_base === `1/${sampleRate}` ? out.duration_ts : undefined;
  if (counted !== undefined ? counted !== expected : !(Math.abs(measured - expected / sampleRate) <= 1e-3))
    throw new AppError(
      'media.trim_inexact',
      `The cut lasts ${measured} s instead of ${(expected / sampleRate).toFixed(6)} s; nothing was sent.`,
    );
  return { durationSeconds: expected / sampleRate };
}
