import { randomUUID } from 'node:crypto';
import { link, mkdir, readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { ProbedMedia } from '../../../shared/h3/draft.js';
import { normalizeMimeType, referenceKind } from '../../../shared/h3/draft.js';
import { trimFits, type ReferenceTrim } from '../../../shared/h3/reference-trim.js';
import { AppError } from '../errors.js';
import { cutMediaRange } from '../media-tools/cut-media.js';
import { probeMedia, type ProbedFile } from '../media-tools/probe-media.js';
import type { StorageQuota } from './storage-usage.js';

/**
 * The name the cut is sent under: the source's, with the extension of what the cut is where that
 * changed (an `.mp3` cut is FLAC, a `.mov`'s sound is FLAC), so name and content agree.
 */
function nameWithExtension(fileName: string, ext: string): string {
  const current = path.extname(fileName);
  if (current.toLowerCase() === `.${ext}` || (ext === 'wav' && current.toLowerCase() === '.wave'))
    return fileName;
  return `${current ? fileName.slice(0, -current.length) : fileName}.${ext}`;
}

/** `<source sha256>-<start ms>-<end ms>.<ext>`: one cut. */
const CUT_NAME = /^([0-9a-f]{64})-\d+-\d+\.\w+$/;

/** A staged file as the core resolved it (its own probe, its path). */
export type ResolvedMedia = ProbedFile & ProbedMedia;

/**
 * The kept range of a trimmed reference, cut once and kept under `<dir>/<source sha256>-<start
 * ms>-<end ms>.<ext>`: every later resolve of the same source and range (a resubmit, a replay
 * after a restart, the admission check before it) reads the same bytes, so the same asset is
 * reused and the creation body does not change. The source file is only read.
 */
export class TrimmedCopies {
  /** Cuts under way in this process, by cache name: two resolves of one range share one cut. */
  private readonly cutting = new Map<string, Promise<string>>();

  constructor(
    readonly dir: string,
    /** The person's storage quota (the platform backend): each cut counted, over it refused. */
    private readonly quota?: StorageQuota,
  ) {}

  /**
   * `source` as only its kept range: a video or audio reference whose `trim` fits inside it and
   * keeps less than the whole file is replaced by its cut (same id; its name with the cut's
   * extension; the cut's own probed facts and sha256). A range outside the file, or keeping
   * nothing, is refused (`media.trim_invalid`); an image or a file of unknown length is itself.
   */
  async keptRangeOf(source: ResolvedMedia, trim: ReferenceTrim | undefined): Promise<ResolvedMedia> {
    const duration = source.durationSeconds;
    if (!trim || source.kind === 'image' || typeof duration !== 'number') return source;
    const startMs = Math.round(trim.startSeconds * 1000);
    const endMs = Math.round(trim.endSeconds * 1000);
    const range = { startSeconds: startMs / 1000, endSeconds: endMs / 1000 };
    if (!trimFits(range, duration))
      throw new AppError(
        'media.trim_invalid',
        `${source.fileName}: the kept range ${range.startSeconds}–${range.endSeconds} s must lie within its ${duration} s and keep something.`,
      );
    if (startMs === 0 && endMs >= Math.round(duration * 1000)) return source; // keeps the whole file
    const as =
      referenceKind(source) === 'video'
        ? 'video'
        : normalizeMimeType(source.mimeType) === 'audio/wav'
          ? 'audio-wav'
          : 'audio-flac';
    const ext = as === 'video' ? 'mp4' : as.slice(6);
    const name = `${source.sha256}-${startMs}-${endMs}.${ext}`;
    let cutting = this.cutting.get(name);
    if (!cutting) {
      cutting = this.cutOnce(source.path, name, { ...range, as }).finally(() => this.cutting.delete(name));
      this.cutting.set(name, cutting);
    }
    const cut = await probeMedia(await cutting);
    return {
      ...cut,
      id: source.id,
      fileName: nameWithExtension(source.fileName, ext),
      kind: as === 'video' ? 'video' : 'audio',
    };
  }

  private async cutOnce(
    source: string,
    name: string,
    range: ReferenceTrim & { as: 'video' | 'audio-wav' | 'audio-flac' },
  ): Promise<string> {
    const file = path.join(this.dir, name);
    if ((await stat(file).catch(() => undefined))?.isFile()) return file;
    await mkdir(this.dir, { recursive: true });
    // written beside and linked into place whole: a crash or a failed check leaves no half cut
    const partial = path.join(this.dir, `.${randomUUID()}.part`);
    try {
      await cutMediaRange({ source, output: partial, ...range });
      const { size } = await stat(partial);
      await this.quota?.ready;
      this.quota?.admit(size, 1);
      await link(partial, file).catch((error: NodeJS.ErrnoException) => {
        this.quota?.release(size, 1);
        if (error.code !== 'EEXIST') throw error; // another process cut it first: theirs is kept
      });
    } finally {
      await rm(partial, { force: true });
    }
    return file;
  }

  /**
   * Removes the cuts of sources no longer staged (`kept`: the sha256 of every staged file) and
   * cut leftovers of a crash, once older than `graceMs`.
   */
  async removeUnused(kept: ReadonlySet<string>, graceMs: number, now: number): Promise<number> {
    let removed = 0;
    for (const name of await readdir(this.dir).catch(() => [] as string[])) {
      const cut = CUT_NAME.exec(name);
      if (cut ? kept.has(cut[1]!) : !name.endsWith('.part')) continue;
      const file = path.join(this.dir, name);
      const info = await stat(file).catch(() => undefined);
      if (!info?.isFile() || now - info.mtimeMs < graceMs || this.cutting.has(name)) continue;
      await rm(file, { force: true });
      if (cut) this.quota?.release(info.size, 1);
      removed += 1;
    }
    return removed;
  }
}
