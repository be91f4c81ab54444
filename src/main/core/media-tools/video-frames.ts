import { rm, stat } from 'node:fs/promises';
import { AppError } from '../errors.js';
import { runMediaTool } from './probe-media.js';

/**
 * Frames of a video as lossless PNGs at full resolution, for chaining shots (issue 15): the last
 * frame of one shot becomes the first frame of the next.
 *
 * The last frame is the last frame ffmpeg decodes: the image2 muxer with `-update 1` rewrites one
 * file for every frame of the final seconds, so what remains is the final decoded frame, whatever
 * the container says the duration is. Pixels are converted once, to rgb24, as any decoder showing
 * the frame would.
 */

/** How far before the end decoding starts; the seek lands on a keyframe before it and decodes on. */
const TAIL_SECONDS = 2;

const PNG_OUT = ['-map', '0:v:0', '-an', '-sn', '-dn', '-c:v', 'png', '-pix_fmt', 'rgb24'] as const;

async function nonEmpty(file: string): Promise<boolean> {
  const info = await stat(file).catch(() => undefined);
  return info !== undefined && info.size > 0;
}

/** Writes the exact last decoded frame of `video` to `pngPath`. */
export async function extractLastFrame(video: string, pngPath: string): Promise<void> {
  await rm(pngPath, { force: true });
  const tail = [
    '-v',
    'error',
    '-y',
    '-sseof',
    `-${TAIL_SECONDS}`,
    '-i',
    '{input}',
    ...PNG_OUT,
    '-update',
    '1',
    '-f',
    'image2',
    pngPath,
  ];
  try {
    await runMediaTool('ffmpeg', video, tail, { timeoutMs: 120_000 });
  } catch (error) {
    if (error instanceof AppError) throw error;
  }
  if (await nonEmpty(pngPath)) return;
  // a clip shorter than the tail, or a container whose end cannot be seeked: decode it all
  await runMediaTool(
    'ffmpeg',
    video,
    ['-v', 'error', '-y', '-i', '{input}', ...PNG_OUT, '-update', '1', '-f', 'image2', pngPath],
    { timeoutMs: 300_000 },
  );
  if (!(await nonEmpty(pngPath)))
    throw new AppError('media.no_frame', 'No video frame could be decoded from this result.');
}

/** Writes the first decoded frame of `video` to `pngPath`. */
export async function extractFirstFrame(video: string, pngPath: string): Promise<void> {
  await rm(pngPath, { force: true });
  await runMediaTool(
    'ffmpeg',
    video,
    ['-v', 'error', '-y', '-i', '{input}', ...PNG_OUT, '-frames:v', '1', '-f', 'image2', pngPath],
    { timeoutMs: 120_000 },
  );
  if (!(await nonEmpty(pngPath)))
    throw new AppError('media.no_frame', 'No video frame could be decoded from this result.');
}

/**
 * Writes frame `index` (0-based, in presentation order) of `video` to `pngPath`: a trimmed shot's
 * out-point frame (continue) or in-point frame (bridge). Decodes from the start and keeps the one
 * frame `select` lets through, so the index is exact whatever the keyframes; shots are short.
 */
export async function extractFrameAt(video: string, index: number, pngPath: string): Promise<void> {
  if (!Number.isInteger(index) || index < 0) throw new Error(`extractFrameAt: bad frame index ${index}`);
  await rm(pngPath, { force: true });
  await runMediaTool(
    'ffmpeg',
    video,
    [
      '-v',
      'error',
      '-y',
      '-i',
      '{input}',
      '-vf',
      `select=eq(n\\,${index})`,
      ...PNG_OUT,
      '-frames:v',
      '1',
      '-f',
      'image2',
      pngPath,
    ],
    { timeoutMs: 300_000 },
  );
  if (!(await nonEmpty(pngPath)))
    throw new AppError('media.no_frame', `Frame ${index} could not be decoded from this result.`);
}
