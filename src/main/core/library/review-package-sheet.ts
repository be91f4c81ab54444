import { mkdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { AppError } from '../errors.js';
import { runFfmpegWithProgress, type FfmpegFailure } from '../media-tools/ffmpeg-run.js';
import { MEDIA_TOOL_PROTOCOLS, sniffedMediaType } from '../media-tools/probe-media.js';

/**
 * A review package's stills and its `contact-sheet.png`, made with ffmpeg (every run waits its
 * turn in the media-work queue and stops at once on the signal): a video's still (its first
 * frame, when no poster was given), one tile per take (scaled into 320×180, padded), then the
 * tiles in one grid, left to right and top to bottom in the collection's order.
 */

export const TILE_WIDTH = 320;
export const TILE_HEIGHT = 180;
/** Around the grid and between its tiles, in pixels. */
export const SHEET_MARGIN = 8;
export const SHEET_PADDING = 8;

/** Columns of the grid for `count` takes: one row up to 4, then about square, at most 8 wide. */
export function sheetColumns(count: number): number {
  if (count <= 4) return Math.max(1, count);
  return Math.min(8, Math.ceil(Math.sqrt(count)));
}

/** The contact sheet's size in pixels for `count` takes. */
export function sheetSize(count: number): { width: number; height: number; columns: number; rows: number } {
  const columns = sheetColumns(count);
  const rows = Math.max(1, Math.ceil(count / columns));
  const side = (n: number, tile: number) => n * tile + (n - 1) * SHEET_PADDING + 2 * SHEET_MARGIN;
  return { width: side(columns, TILE_WIDTH), height: side(rows, TILE_HEIGHT), columns, rows };
}

const QUIET = ['-v', 'error', '-nostdin', '-y'];
const PROGRESS = ['-progress', 'pipe:1', '-nostats'];
const ONE_PNG = ['-frames:v', '1', '-an', '-sn', '-dn', '-c:v', 'png', '-update', '1', '-f', 'image2'];
const FIT = `scale=${TILE_WIDTH}:${TILE_HEIGHT}:force_original_aspect_ratio=decrease,pad=${TILE_WIDTH}:${TILE_HEIGHT}:(ow-iw)/2:(oh-ih)/2:color=0x202024,setsar=1,format=rgb24`;

function failure(doing: string): FfmpegFailure {
  return {
    code: 'library.package_failed',
    doing,
    stopped: 'The review package was stopped; nothing was written.',
  };
}

async function nonEmpty(file: string): Promise<boolean> {
  const info = await stat(file).catch(() => undefined);
  return info !== undefined && info.size > 0;
}

/** ffmpeg on a take's file only when its content is an image, video or audio (as runMediaTool). */
async function sniffed(file: string, what: string): Promise<void> {
  if (!(await sniffedMediaType(file)))
    throw new AppError(
      'library.package_failed',
      `${what}: the content of ${path.basename(file)} is not a recognised image, video or audio file.`,
    );
}

/** Writes the first decoded frame of `video` (at its own size) to `pngPath`: a video take's still. */
export async function writeVideoStill(
  video: string,
  pngPath: string,
  what: string,
  signal?: AbortSignal,
): Promise<void> {
  await sniffed(video, what);
  await rm(pngPath, { force: true });
  await runFfmpegWithProgress(
    [
      ...QUIET,
      ...MEDIA_TOOL_PROTOCOLS,
      '-i',
      video,
      '-map',
      '0:v:0',
      '-pix_fmt',
      'rgb24',
      ...ONE_PNG,
      ...PROGRESS,
      pngPath,
    ],
    0,
    signal ? { signal } : {},
    failure(`take a still of ${what}`),
  );
  if (!(await nonEmpty(pngPath)))
    throw new AppError('library.package_failed', `No frame could be decoded from ${what}.`);
}

/** What a take's tile shows: a still (an image file or a video's still), a sound's waveform, or nothing. */
export type TileSource =
  { kind: 'still'; file: string } | { kind: 'audio'; file: string } | { kind: 'blank' };

async function writeTile(
  source: TileSource,
  tilePath: string,
  what: string,
  signal?: AbortSignal,
): Promise<void> {
  let input: string[];
  let filter: string;
  if (source.kind === 'blank') {
    input = ['-f', 'lavfi', '-i', `color=c=0x3a3a40:s=${TILE_WIDTH}x${TILE_HEIGHT}:d=1`];
    filter = 'format=rgb24';
  } else {
    await sniffed(source.file, what);
    input = [...MEDIA_TOOL_PROTOCOLS, '-i', source.file];
    filter =
      source.kind === 'audio'
        ? `[0:a:0]showwavespic=s=${TILE_WIDTH}x${TILE_HEIGHT}:colors=0x9ab8ff,pad=${TILE_WIDTH}:${TILE_HEIGHT}:0:0:color=0x202024,format=rgb24`
        : `[0:v:0]${FIT}`;
  }
  await runFfmpegWithProgress(
    [...QUIET, ...input, '-filter_complex', filter, ...ONE_PNG, ...PROGRESS, tilePath],
    0,
    signal ? { signal } : {},
    failure(`make the contact sheet's tile of ${what}`),
  );
  if (!(await nonEmpty(tilePath)))
    throw new AppError('library.package_failed', `The contact sheet's tile of ${what} could not be made.`);
}

/**
 * Writes `sheetPath`: one tile per source, in order, in a grid of {@link sheetSize}. Its tiles are
 * made in `workDir` (created; the caller removes it). Any failure is an AppError
 * (`library.package_failed`) naming the take.
 */
export async function writeContactSheet(
  sources: { source: TileSource; what: string }[],
  sheetPath: string,
  workDir: string,
  signal?: AbortSignal,
): Promise<void> {
  if (sources.length === 0) throw new AppError('library.package_failed', 'A contact sheet needs a take.');
  await mkdir(workDir, { recursive: true });
  for (const [i, { source, what }] of sources.entries())
    await writeTile(source, path.join(workDir, `${String(i + 1).padStart(5, '0')}.png`), what, signal);
  const { columns, rows } = sheetSize(sources.length);
  await runFfmpegWithProgress(
    [
      ...QUIET,
      '-protocol_whitelist',
      'file',
      '-f',
      'image2',
      '-framerate',
      '1',
      '-start_number',
      '1',
      '-i',
      path.join(workDir, '%05d.png'),
      '-vf',
      `tile=${columns}x${rows}:margin=${SHEET_MARGIN}:padding=${SHEET_PADDING}:color=0x101012,format=rgb24`,
      ...ONE_PNG,
      ...PROGRESS,
      sheetPath,
    ],
    0,
    signal ? { signal } : {},
    failure('put the contact sheet together'),
  );
  if (!(await nonEmpty(sheetPath)))
    throw new AppError('library.package_failed', 'The contact sheet could not be put together.');
}
