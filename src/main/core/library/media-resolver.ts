import { existsSync } from 'node:fs';
import { mkdir, realpath, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { fileTypeFromFile } from 'file-type';
import type { Journal } from '../journal/open-journal.js';
import { FRAME_COUNT, signatureMatches } from './media-urls.js';
import { readMediaFacts, runMediaTool } from '../media-tools/probe-media.js';
import type { StagedFiles } from '../storage/staged-files.js';

/**
 * The only way media reach the player: a request names a journal row (job row id + output id, or
 * a staged file id) and this resolver maps it to a file the core wrote itself. A client-supplied
 * path is never read: the URL grammar has no place for one, and the resolved file must lie inside
 * a library folder (or staging) after resolving symlinks. Used by the browser host's
 * `GET /media/...` route and by the Electron shell's `framewright-media:` protocol.
 */

export interface ResolvedMedia {
  path: string;
  /** The type the core sniffed from the file's bytes (never the server's or the journal's claim). */
  mimeType: string;
  /**
   * `inline` only for sniffed `image/*` (never SVG), `video/*` and `audio/*`; anything else is
   * served as an `application/octet-stream` attachment, so no library file can run as a page.
   */
  disposition: 'inline' | 'attachment';
}

export interface MediaResolverOptions {
  journal: Journal;
  /**
   * The library folders results may lie in: the current one and every one used before (the
   * folder is a setting; verified rows keep their absolute paths). Read at each request.
   */
  libraryDirs: () => readonly string[];
  staged: StagedFiles;
}

/**
 * The route part after the scheme/prefix: `library/<jobRowId>/<outputId>[/poster|/frame/<n>]`,
 * `staged/<uuid>[/poster]`, `assembly/<uuid>[/poster]` (a sequence's assembled file) or
 * `delivery/<uuid>[/poster]` (a sequence's delivery in a format). Frames
 * (the Library card's scrub preview) exist for library videos only.
 */
export const MEDIA_PATH =
  /^\/?(library\/(\d{1,15})\/(\d{1,15})|staged\/([0-9a-f-]{36})|(assembly|delivery)\/([0-9a-f-]{36}))(\/poster|\/frame\/(\d))?$/;

/** The media URLs (`media-urls.ts`), for the resolver's users. */
export { FRAME_COUNT, frameRoute, mediaSignatureOf, mediaUrl } from './media-urls.js';

/** The only types served for display: sniffed images (no SVG: it is a document), videos, audio. */
export function isDisplayableMediaType(mimeType: string): boolean {
  return /^(image|video|audio)\/[\w.+-]+$/.test(mimeType) && mimeType !== 'image/svg+xml';
}

/** What the core's own content detection (`file-type`) says the file is, and how it may be served. */
async function sniff(file: string): Promise<Omit<ResolvedMedia, 'path'>> {
  const detected = await fileTypeFromFile(file).catch(() => undefined);
  return detected && isDisplayableMediaType(detected.mime)
    ? { mimeType: detected.mime, disposition: 'inline' }
    : { mimeType: 'application/octet-stream', disposition: 'attachment' };
}

/**
 * The headers every media response carries, in the browser host and in the Electron protocol: the
 * sniffed type, never sniffed again by the browser, sandboxed with nothing allowed if opened as a
 * page, and anything not displayable as a download.
 */
export function mediaResponseHeaders(
  media: Pick<ResolvedMedia, 'mimeType' | 'disposition'>,
): Record<string, string> {
  return {
    'Content-Type': media.mimeType,
    'X-Content-Type-Options': 'nosniff',
    'Content-Security-Policy': "sandbox; default-src 'none'",
    'Content-Disposition': media.disposition,
  };
}

async function inside(folder: string, file: string): Promise<string | undefined> {
  try {
    const [root, real] = await Promise.all([realpath(folder), realpath(file)]);
    return real.startsWith(root + path.sep) ? real : undefined;
  } catch {
    return undefined;
  }
}

export class MediaResolver {
  private readonly posters = new Map<string, Promise<string | undefined>>();
  private readonly frames = new Map<string, Promise<string[] | undefined>>();
  /** Videos whose frames could not be made in this process: their frame routes serve the poster. */
  private readonly framesFailed = new Set<string>();
  constructor(private readonly options: MediaResolverOptions) {}

  /**
   * Resolves a media route; undefined (= 404) for anything not in the library or staging, and for
   * a library route without its signature (see `mediaUrl`).
   */
  async resolve(route: string, signature?: string | null): Promise<ResolvedMedia | undefined> {
    const match = MEDIA_PATH.exec(route);
    if (!match || !signatureMatches(route, signature)) return undefined;
    const poster = match[7] !== undefined;
    const frame = match[8] === undefined ? undefined : Number(match[8]);
    if (frame !== undefined && (match[2] === undefined || frame >= FRAME_COUNT)) return undefined;
    let source: ResolvedMedia | undefined;
    let posterKey: string;
    let posterDir: string;
    if (match[2] !== undefined) {
      const jobRowId = Number(match[2]);
      const outputId = Number(match[3]);
      const output = this.options.journal.outputs.get(outputId);
      if (!output || output.jobRowId !== jobRowId || output.downloadState !== 'verified' || !output.localPath)
        return undefined;
      const found = await this.insideLibrary(output.localPath);
      if (!found) return undefined;
      source = { path: found.real, ...(await sniff(found.real)) };
      posterKey = `output-${outputId}`;
      posterDir = path.join(found.root, '.posters');
    } else if (match[5] !== undefined) {
      const film =
        match[5] === 'assembly'
          ? this.options.journal.sequences.assembly(match[6]!)
          : this.options.journal.deliveries.get(match[6]!);
      if (film?.state !== 'ready' || !film.localPath) return undefined;
      const found = await this.insideLibrary(film.localPath);
      if (!found) return undefined;
      source = { path: found.real, ...(await sniff(found.real)) };
      posterKey = `${match[5]}-${film.id}`;
      posterDir = path.join(found.root, '.posters');
    } else {
      const id = match[4]!;
      let file: string;
      try {
        file = this.options.staged.pathOf(id);
        this.options.staged.get(id);
      } catch {
        return undefined;
      }
      const real = await inside(this.options.staged.dir, file);
      if (!real) return undefined;
      source = { path: real, ...(await sniff(real)) };
      posterKey = `staged-${id}`;
      posterDir = path.join(this.options.staged.dir, '.posters');
    }
    if (!poster) return source;
    // ffmpeg reads only what sniffed as media; a poster of anything else does not exist
    if (source.disposition !== 'inline') return undefined;
    if (frame !== undefined) {
      // frames are a video's: an image or audio result has none
      if (!source.mimeType.startsWith('video/')) return undefined;
      const frames = await this.videoFrames(source, posterKey, posterDir);
      const file = frames?.[frame];
      if (file) return { path: file, mimeType: 'image/png', disposition: 'inline' };
      // no ffmpeg, or a video it cannot seek: the single poster stands in for every frame
    }
    const made = await this.poster(source, posterKey, posterDir);
    return made ? { path: made, mimeType: 'image/png', disposition: 'inline' } : undefined;
  }

  /** The file's real path when it lies inside one of the library folders (symlinks resolved). */
  private async insideLibrary(file: string): Promise<{ root: string; real: string } | undefined> {
    for (const root of this.options.libraryDirs()) {
      const real = await inside(root, file);
      if (real) return { root, real };
    }
    return undefined;
  }

  /** A poster: the first frame of a video, the image itself, or a waveform for audio; cached. */
  private poster(source: ResolvedMedia, key: string, dir: string): Promise<string | undefined> {
    const target = path.join(dir, `${key}.png`);
    if (existsSync(target)) return Promise.resolve(target);
    let pending = this.posters.get(target);
    if (!pending) {
      pending = makePoster(source, target, dir).finally(() => this.posters.delete(target));
      this.posters.set(target, pending);
    }
    return pending;
  }

  /**
   * The scrub frames of a video: made once (all of them, on the first request of any), cached
   * beside its poster; undefined when they could not be made (then not tried again this process).
   */
  private videoFrames(source: ResolvedMedia, key: string, dir: string): Promise<string[] | undefined> {
    const targets = Array.from({ length: FRAME_COUNT }, (_, n) => path.join(dir, `${key}.frame-${n}.png`));
    if (targets.every((t) => existsSync(t))) return Promise.resolve(targets);
    if (this.framesFailed.has(key)) return Promise.resolve(undefined);
    let pending = this.frames.get(key);
    if (!pending) {
      pending = makeFrames(source, targets, dir)
        .then((made) => {
          if (!made) this.framesFailed.add(key);
          return made;
        })
        .finally(() => this.frames.delete(key));
      this.frames.set(key, pending);
    }
    return pending;
  }
}

/**
 * Frames at the middle of each of `targets.length` equal parts of the video (its duration read by
 * ffprobe), scaled as the poster is; all or none (a partial set is removed).
 */
async function makeFrames(
  source: ResolvedMedia,
  targets: string[],
  dir: string,
): Promise<string[] | undefined> {
  const temps = targets.map((t) => `${t}.${process.pid}.tmp.png`);
  try {
    await mkdir(dir, { recursive: true });
    const duration = (await readMediaFacts(source.path)).durationSeconds;
    if (!duration || duration <= 0) return undefined;
    for (const [n, temp] of temps.entries()) {
      const at = ((duration * (n + 0.5)) / temps.length).toFixed(3);
      await runMediaTool('ffmpeg', source.path, stillArgs(temp, at), { timeoutMs: 30_000 });
      if (!existsSync(temp)) return undefined;
    }
    for (const [n, temp] of temps.entries()) await rename(temp, targets[n]!);
    return targets;
  } catch {
    return undefined;
  } finally {
    await Promise.all(temps.map((t) => rm(t, { force: true })));
  }
}

/**
 * ffmpeg's arguments for one still of a video, scaled as every thumbnail is (320 px wide): at `at`
 * seconds, else its first frame.
 */
function stillArgs(output: string, at?: string): string[] {
  const seek = at === undefined ? [] : ['-ss', at];
  return ['-v', 'error', '-y', ...seek, '-i', '{input}', '-vf', 'scale=320:-2', '-frames:v', '1', output];
}

async function makePoster(source: ResolvedMedia, target: string, dir: string): Promise<string | undefined> {
  await mkdir(dir, { recursive: true });
  const temp = `${target}.${process.pid}.tmp.png`;
  const audio = source.mimeType.startsWith('audio/') || source.mimeType === 'video/quicktime';
  const frame = stillArgs(temp);
  const wave = ['-filter_complex', 'showwavespic=s=320x120:colors=#6d8bff', '-frames:v', '1', temp];
  const args = audio ? ['-v', 'error', '-y', '-i', '{input}', ...wave] : frame;
  // runMediaTool sniffs the content first and lets ffmpeg open local files only
  try {
    await runMediaTool('ffmpeg', source.path, args, { timeoutMs: 30_000 });
    // a .mov may carry only video: fall back to its first frame
  } catch {
    if (!audio) return undefined;
    try {
      await runMediaTool('ffmpeg', source.path, frame, { timeoutMs: 30_000 });
    } catch {
      await rm(temp, { force: true });
      return undefined;
    }
  }
  await rename(temp, target);
  return target;
}
