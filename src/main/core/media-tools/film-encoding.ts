/**
 * The film's encoding, shared by the assembly and the deliveries: how ffmpeg is started (no banner,
 * no stdin, errors only, overwrite) and the MP4 it writes (H.264 yuv420p / AAC 48 kHz stereo,
 * +faststart), with its `-progress` on stdout for `ffmpeg-run.ts`.
 */

/** ffmpeg's first arguments: no banner, no stdin, errors only, overwrite the output. */
export const FFMPEG_QUIET = ['-hide_banner', '-nostdin', '-v', 'error', '-y'];

/**
 * The output half of ffmpeg's arguments: H.264 (veryfast, CRF 20, yuv420p) and AAC (192k, stereo,
 * 48 kHz), exactly `durationSeconds` long, +faststart MP4 at `outPath`, progress on stdout.
 */
export function filmMp4Output(durationSeconds: number, outPath: string): string[] {
  return [
    '-c:v',
    'libx264',
    '-preset',
    'veryfast',
    '-crf',
    '20',
    '-pix_fmt',
    'yuv420p',
    '-c:a',
    'aac',
    '-b:a',
    '192k',
    '-ac',
    '2',
    '-ar',
    '48000',
    '-t',
    durationSeconds.toFixed(3),
    '-movflags',
    '+faststart',
    '-progress',
    'pipe:1',
    '-nostats',
    '-f',
    'mp4',
    outPath,
  ];
}
