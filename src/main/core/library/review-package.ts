import { randomBytes } from 'node:crypto';
import { constants as fsConstants } from 'node:fs';
import { copyFile, mkdir, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { COLLECTION_MAX_ITEMS, isNoteRectInFrame } from '../../../shared/library-review.js';
import { AppError } from '../errors.js';
import { sha256OfFile } from '../media-tools/probe-media.js';
import {
  renderCsv,
  renderIndexHtml,
  renderJson,
  renderReadme,
  type PackageFacts,
  type PackagedTake,
  type ReviewedTake,
} from './review-package-html.js';
import { writeContactSheet, writeVideoStill, type TileSource } from './review-package-sheet.js';
import { writeZip, type ZipEntry } from './review-package-zip.js';

/**
 * A review package (issue 41): a folder that opens with no Framewright installed — each take's
 * file copied into `takes/` in the collection's order, a still of each video in `posters/`, the
 * contact sheet as `index.html` (every take, its marks and notes; no script, nothing fetched) and
 * `contact-sheet.png` (every thumbnail in one grid), `review.csv` / `review.json` of prompts,
 * marks and notes, and a `README.txt`. It is written into a hidden sibling folder and renamed into
 * place when complete: a failure or a stop removes it, so no folder is ever half there. Library
 * files are only read (copied, never moved). The contact sheet PNG is part of the package: when
 * ffmpeg cannot make it, the export fails (`library.package_failed`) and nothing is left.
 */

/** One take of the collection, as the collections feature hands it over. */
export interface ReviewPackageTake extends ReviewedTake {
  /** The verified file (its sha256 is checked on the copy when given); null: not stored any more. */
  file: { path: string; mimeType: string; sha256: string | null } | null;
  /** A still PNG of a video (its poster) when one is known; else the first frame is taken. */
  posterPath?: string | null;
  acceptedAt: number;
  jobId: string;
}

export interface WriteReviewPackageInput {
  collectionName: string;
  /** In the collection's order. */
  takes: ReviewPackageTake[];
  /** The folder the package's folder is made in (it must exist). */
  parentDir: string;
  /** The export's time (its folder name and header); default now. */
  now?: Date;
  /** Stops the export: what was written is removed, and it rejects with `library.package_failed`. */
  signal?: AbortSignal;
}

export interface WrittenReviewPackage {
  /** The package's folder (absolute). */
  folder: string;
  /** Its name, e.g. `review-night-market-2026-11-29-1523`. */
  fileName: string;
  takes: number;
}

const SLUG_MAX = 60;
const TAKE_SLUG_MAX = 40;

/**
 * A safe file-name part: letters and digits of any script (lower-cased), runs of anything else
 * one `-`; never `.`, `/`, `\` or a reserved character, so never a path of its own.
 */
export function slugOf(text: string, fallback: string, max = SLUG_MAX): string {
  const slug = Array.from(
    text
      .normalize('NFKD')
      .replace(/\p{M}+/gu, '')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}]+/gu, '-')
      .replace(/^-+|-+$/g, ''),
  )
    .slice(0, max)
    .join('')
    .replace(/-+$/g, '');
  return slug || fallback;
}

function stamp(date: Date): string {
  const two = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${two(date.getMonth() + 1)}-${two(date.getDate())}-${two(date.getHours())}${two(date.getMinutes())}`;
}

const EXTENSIONS: Record<string, string> = {
  'video/mp4': 'mp4',
  'video/quicktime': 'mov',
  'video/webm': 'webm',
  'video/x-matroska': 'mkv',
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/webp': 'webp',
  'image/gif': 'gif',
  'audio/mpeg': 'mp3',
  'audio/wav': 'wav',
  'audio/x-wav': 'wav',
  'audio/wave': 'wav',
  'audio/flac': 'flac',
  'audio/ogg': 'ogg',
  'audio/mp4': 'm4a',
  'audio/aac': 'aac',
};

function extensionOf(file: { path: string; mimeType: string }): string {
  const known = EXTENSIONS[file.mimeType.toLowerCase()];
  if (known) return known;
  const own = path.extname(file.path).slice(1).toLowerCase();
  return /^[a-z0-9]{1,8}$/.test(own) ? own : 'bin';
}

function failed(message: string): AppError {
  return new AppError('library.package_failed', message);
}

function checkInput(input: WriteReviewPackageInput): void {
  if (!input.collectionName.trim()) throw failed('The collection needs a name to export it.');
  if (input.takes.length === 0) throw failed(`"${input.collectionName}" has no takes to export.`);
  if (input.takes.length > COLLECTION_MAX_ITEMS)
    throw failed(`A review package holds at most ${COLLECTION_MAX_ITEMS} takes.`);
  input.takes.forEach((take, i) => {
    for (const note of take.notes) {
      if (!Number.isFinite(note.atSeconds) || note.atSeconds < 0)
        throw failed(`Take ${i + 1} ("${take.title}") has a note at an invalid time.`);
      if (note.rect && !isNoteRectInFrame(note.rect))
        throw failed(`Take ${i + 1} ("${take.title}") has a note whose rectangle is outside the frame.`);
    }
  });
}

function stopCheck(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw failed('The review package was stopped; nothing was written.');
}

/** Renames `from` to the first free `base`, `base-2`, `base-3`… in `parentDir`; answers the name taken. */
async function renameIntoFreeName(from: string, parentDir: string, base: string): Promise<string> {
  for (let n = 1; n <= 1000; n += 1) {
    const name = n === 1 ? base : `${base}-${n}`;
    const target = path.join(parentDir, name);
    if (await stat(target).catch(() => undefined)) continue;
    try {
      // rename(2) onto an existing non-empty folder fails: a package written at the same moment keeps its name
      await rename(from, target);
      return name;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EEXIST' || code === 'ENOTEMPTY' || code === 'EPERM') continue;
      throw error;
    }
  }
  throw failed(`Too many review packages named ${base} in ${parentDir}.`);
}

/**
 * Writes the review package of a collection into a new folder of `parentDir` and answers where.
 * A second export in the same minute gets its own folder (`…-2`). Errors are AppErrors
 * (`library.package_failed`): no takes, a take's file gone or changed, ffmpeg unable to make the
 * contact sheet, a stop; in every case nothing is left in `parentDir`.
 */
export async function writeReviewPackage(input: WriteReviewPackageInput): Promise<WrittenReviewPackage> {
  checkInput(input);
  const { signal } = input;
  const now = input.now ?? new Date();
  const parentDir = path.resolve(input.parentDir);
  const parent = await stat(parentDir).catch(() => undefined);
  if (!parent?.isDirectory()) throw failed(`The folder to export into does not exist: ${parentDir}`);
  stopCheck(signal);

  const base = `review-${slugOf(input.collectionName, 'collection')}-${stamp(now)}`;
  const partial = path.join(parentDir, `.${base}.partial-${randomBytes(6).toString('hex')}`);
  await mkdir(partial);
  try {
    await mkdir(path.join(partial, 'takes'));
    const width = Math.max(2, String(input.takes.length).length);
    const packaged: PackagedTake[] = [];
    const tiles: { source: TileSource; what: string }[] = [];
    for (const [i, take] of input.takes.entries()) {
      stopCheck(signal);
      const position = i + 1;
      const stem = `${String(position).padStart(width, '0')}-${slugOf(take.title, 'take', TAKE_SLUG_MAX)}`;
      const what = `take ${position} ("${take.title}")`;
      let file: string | null = null;
      let poster: string | null = null;
      let tile: TileSource = { kind: 'blank' };
      if (take.file) {
        const source = take.file.path;
        const info = await stat(source).catch(() => undefined);
        if (!info?.isFile()) throw failed(`The file of ${what} is gone: ${source}`);
        file = `takes/${stem}.${extensionOf(take.file)}`;
        const copy = path.join(partial, file);
        // a copy, never a move: the verified library file stays where it is
        await copyFile(source, copy, fsConstants.COPYFILE_EXCL);
        stopCheck(signal);
        if (take.file.sha256 && (await sha256OfFile(copy)) !== take.file.sha256.toLowerCase())
          throw failed(
            `The file of ${what} is not the verified result any more (its sha256 differs): ${source}`,
          );
        const mime = take.file.mimeType.toLowerCase();
        if (mime.startsWith('video/')) {
          await mkdir(path.join(partial, 'posters'), { recursive: true });
          poster = `posters/${stem}.png`;
          if (take.posterPath) {
            const given = await stat(take.posterPath).catch(() => undefined);
            if (!given?.isFile()) throw failed(`The poster of ${what} is gone: ${take.posterPath}`);
            await copyFile(take.posterPath, path.join(partial, poster), fsConstants.COPYFILE_EXCL);
          } else await writeVideoStill(copy, path.join(partial, poster), what, signal);
          tile = { kind: 'still', file: path.join(partial, poster) };
        } else if (mime.startsWith('image/')) tile = { kind: 'still', file: copy };
        else if (mime.startsWith('audio/')) tile = { kind: 'audio', file: copy };
      }
      tiles.push({ source: tile, what });
      packaged.push({
        position,
        title: take.title,
        prompt: take.prompt,
        model: take.model,
        seed: take.seed,
        generationMode: take.generationMode,
        marks: take.marks,
        notes: [...take.notes].sort((a, b) => a.atSeconds - b.atSeconds),
        file,
        mimeType: take.file?.mimeType ?? null,
        sha256: take.file?.sha256 ?? null,
        poster,
        acceptedAt: take.acceptedAt,
        jobId: take.jobId,
      });
    }

    const tilesDir = path.join(partial, '.tiles');
    await writeContactSheet(tiles, path.join(partial, 'contact-sheet.png'), tilesDir, signal);
    await rm(tilesDir, { recursive: true, force: true });
    stopCheck(signal);

    const facts: PackageFacts = { collectionName: input.collectionName, exportedAt: now, takes: packaged };
    await writeFile(path.join(partial, 'index.html'), renderIndexHtml(facts), { flag: 'wx' });
    await writeFile(path.join(partial, 'review.csv'), renderCsv(packaged), { flag: 'wx' });
    await writeFile(path.join(partial, 'review.json'), renderJson(facts), { flag: 'wx' });
    await writeFile(path.join(partial, 'README.txt'), renderReadme(facts), { flag: 'wx' });
    stopCheck(signal);

    const fileName = await renameIntoFreeName(partial, parentDir, base);
    return { folder: path.join(parentDir, fileName), fileName, takes: packaged.length };
  } catch (error) {
    await rm(partial, { recursive: true, force: true });
    if (error instanceof AppError) throw error;
    throw failed(`The review package could not be written: ${(error as Error).message}`);
  }
}

async function filesUnder(root: string, prefix = ''): Promise<string[]> {
  const entries = await readdir(path.join(root, prefix), { withFileTypes: true });
  const names = entries.map((e) => e.name).sort();
  const out: string[] = [];
  for (const name of names) {
    const relative = prefix ? `${prefix}/${name}` : name;
    const entry = entries.find((e) => e.name === name)!;
    if (entry.isDirectory()) out.push(...(await filesUnder(root, relative)));
    else if (entry.isFile()) out.push(relative);
  }
  return out;
}

/**
 * Zips a written package (the platform's download) into `destinationZipPath`, every file under
 * the package's own folder name, streamed from disk (a video is never held in memory). Written
 * under a temporary name and renamed when complete; an existing destination is never replaced.
 */
export async function zipReviewPackage(
  folder: string,
  destinationZipPath: string,
  options: { signal?: AbortSignal } = {},
): Promise<{ zipPath: string; bytes: number; entries: number }> {
  const root = path.resolve(folder);
  const info = await stat(root).catch(() => undefined);
  if (!info?.isDirectory()) throw failed(`There is no review package at ${root}.`);
  const destination = path.resolve(destinationZipPath);
  if (destination.startsWith(root + path.sep))
    throw failed('The zip cannot be written inside the package it holds.');
  if (await stat(destination).catch(() => undefined)) throw failed(`${destination} already exists.`);
  const top = path.basename(root);
  const entries: ZipEntry[] = (await filesUnder(root)).map((relative) => ({
    name: `${top}/${relative}`,
    file: path.join(root, ...relative.split('/')),
  }));
  const temporary = path.join(
    path.dirname(destination),
    `.${path.basename(destination)}.partial-${randomBytes(6).toString('hex')}`,
  );
  try {
    const written = await writeZip(entries, temporary, options.signal ? { signal: options.signal } : {});
    if (await stat(destination).catch(() => undefined)) throw failed(`${destination} already exists.`);
    await rename(temporary, destination);
    return { zipPath: destination, ...written };
  } catch (error) {
    await rm(temporary, { force: true });
    if (error instanceof AppError) throw error;
    throw failed(`The review package could not be zipped: ${(error as Error).message}`);
  }
}
