import path from 'node:path';
import { mediaTools, runTool } from './ffmpeg.js';

export interface ProbeResult {
  durationSeconds?: number;
  hasAudio: boolean;
  hasVideo: boolean;
  width?: number;
  height?: number;
  fps?: number;
  frames?: number;
  audioChannels?: number;
  audioCodec?: string;
  videoCodec?: string;
}

interface FfprobeStream {
  codec_type?: string;
  codec_name?: string;
  width?: number;
  height?: number;
  r_frame_rate?: string;
  nb_frames?: string;
  channels?: number;
  duration?: string;
  disposition?: { attached_pic?: number };
}

/**
 * Probes a media file with ffprobe; undefined when it is not decodable media. Only a local file
 * is opened, and it cannot open anything else: `-protocol_whitelist file` (no http, tcp, data,
 * concat or other protocol, so a playlist cannot reach a URL) and an explicit `file:` input. The
 * routes sniff uploaded bytes (`file-type`) before they probe, so a text playlist never gets here.
 */
export async function probeMedia(file: string): Promise<ProbeResult | undefined> {
  let raw: Buffer;
  try {
    raw = await runTool(mediaTools().ffprobe, [
      '-v',
      'error',
      '-protocol_whitelist',
      'file',
      '-show_entries',
      'format=duration:stream=codec_type,codec_name,width,height,r_frame_rate,nb_frames,channels,duration:stream_disposition=attached_pic',
      '-of',
      'json',
      `file:${path.resolve(file)}`,
    ]);
  } catch {
    return undefined;
  }
  const data = JSON.parse(raw.toString('utf8')) as {
    format?: { duration?: string };
    streams?: FfprobeStream[];
  };
  const streams = data.streams ?? [];
  const video = streams.find((s) => s.codec_type === 'video' && !s.disposition?.attached_pic);
  const audio = streams.find((s) => s.codec_type === 'audio');
  const duration = Number(data.format?.duration ?? audio?.duration ?? video?.duration);
  const result: ProbeResult = { hasAudio: Boolean(audio), hasVideo: Boolean(video) };
  if (Number.isFinite(duration)) result.durationSeconds = duration;
  if (video) {
    result.width = video.width;
    result.height = video.height;
    result.videoCodec = video.codec_name;
    if (video.r_frame_rate) {
      const [n, d] = video.r_frame_rate.split('/').map(Number);
      if (n && d) result.fps = n / d;
    }
    if (video.nb_frames) result.frames = Number(video.nb_frames);
  }
  if (audio) {
    result.audioChannels = audio.channels;
    result.audioCodec = audio.codec_name;
  }
  return result;
}
