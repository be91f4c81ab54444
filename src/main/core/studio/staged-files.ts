import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { copyFile, mkdir, readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { DraftMedia } from '../../../shared/bridge/domains/studio.js';
import type { ProbedMedia } from '../../../shared/h3/draft.js';
import { AppError } from '../errors.js';
import type { Journal } from '../journal/open-journal.js';
import { probeMedia, type ProbedFile } from '../media/probe-media.js';

/**
 * Staging of the files a creator drops on the composer.
 *
 * The renderer never names a path. In the browser host it streams the dropped bytes to
 * `POST /bridge/files` (same token, Host and Origin checks as every bridge call); in Electron the
 * preload reads the dropped file's path with `webUtils.getPathForFile` and the shell copies it.
 * Either way the bytes land in `<dataDir>/staging/<uuid>` (a name the core chooses), are probed
 * from their content, and are known to the renderer only by that UUID. Every later use (probe,
 * thumbnail, upload) resolves the UUID inside the staging folder, so no renderer input can reach
 * any other file.
 */

/** The largest file the composer accepts (above every H3 upload limit, so the rules explain the refusal). */
export const MAX_STAGED_BYTES = 512 * 1024 * 1024;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const UUIDS = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
/**
 * A staged file no draft names is kept this long after it was written: it may have just been
 * dropped, in this process or another on the data folder, before its draft was saved.
 */
export const UNNAMED_STAGED_GRACE_MS = 24 * 60 * 60 * 1000;

interface StagedProbe {
  fileName: string;
  mimeType: string;
  kind: string;
  width?: number;
  height?: number;
  durationSeconds?: number;
  hasAudioTrack?: boolean;
}

export class StagedFiles {
  readonly dir: string;
  constructor(
    dataDir: string,
    private readonly journal: Journal,
  ) {
    this.dir = path.join(dataDir, 'staging');
  }

  /**
   * Removes staged files no draft names (every draft, submitted ones included, so "Copy to
   * Create" and a job's details keep their references) once they are older than `graceMs`, with
   * their journal row and poster. Returns how many were removed.
   */
  async removeUnnamed(graceMs = UNNAMED_STAGED_GRACE_MS, now = Date.now()): Promise<number> {
    const entries = await readdir(this.dir).catch(() => [] as string[]);
    const candidates = entries.filter((name) => UUID.test(name));
    if (candidates.length === 0) return 0;
    const named = new Set<string>();
    for (const draft of this.journal.drafts.list(Number.MAX_SAFE_INTEGER))
      for (const id of JSON.stringify(draft.body).match(UUIDS) ?? []) named.add(id);
    let removed = 0;
    for (const id of candidates) {
      if (named.has(id)) continue;
      const file = this.pathOf(id);
      const info = await stat(file).catch(() => undefined);
      if (!info?.isFile() || now - info.mtimeMs < graceMs) continue;
      await rm(file, { force: true });
      await rm(path.join(this.dir, '.posters', `staged-${id}.png`), { force: true });
      this.journal.localFiles.forget(file);
      removed += 1;
    }
    return removed;
  }

  /** The staging path of an id the core issued; anything else is refused. */
  pathOf(fileId: string): string {
    if (!UUID.test(fileId)) throw new AppError('file.bad_id', 'Not a staged file id.');
    return path.join(this.dir, fileId);
  }

  /** Streams bytes into a new staged file, then probes it. */
  async stageStream(source: Readable, fileName: string): Promise<DraftMedia> {
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    const id = randomUUID();
    const target = this.pathOf(id);
    let size = 0;
    source.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_STAGED_BYTES) source.destroy(new AppError('file.too_large', 'The file is too large.'));
    });
    try {
      await pipeline(source, createWriteStream(target, { mode: 0o600 }));
    } catch (error) {
      await rm(target, { force: true });
      if (error instanceof AppError) throw error;
      throw new AppError('file.stage_failed', `The file could not be received: ${String(error)}`);
    }
    return this.register(id, fileName);
  }

  /** Copies a local file (Electron: a dropped file's path) into staging, then probes it. */
  async stageCopy(sourcePath: string): Promise<DraftMedia> {
    const info = await stat(sourcePath).catch(() => undefined);
    if (!info?.isFile()) throw new AppError('file.not_found', 'The dropped item is not a file.');
    if (info.size > MAX_STAGED_BYTES) throw new AppError('file.too_large', 'The file is too large.');
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    const id = randomUUID();
    await copyFile(sourcePath, this.pathOf(id));
    return this.register(id, path.basename(sourcePath));
  }

  private async register(id: string, fileName: string): Promise<DraftMedia> {
    const file = this.pathOf(id);
    let probed: ProbedFile;
    try {
      probed = await probeMedia(file);
    } catch (error) {
      await rm(file, { force: true });
      // name the creator's file, never the staging path
      if (error instanceof AppError)
        throw new AppError(
          error.code,
          error.message.split(file).join(cleanName(fileName)).split(id).join(cleanName(fileName)),
        );
      throw error;
    }
    if (probed.kind === 'document') {
      await rm(file, { force: true });
      throw new AppError(
        'file.not_media',
        `${cleanName(fileName)} is ${probed.mimeType}; the composer takes images, videos and audio.`,
      );
    }
    const info = await stat(file);
    const facts: StagedProbe = {
      fileName: cleanName(fileName),
      mimeType: probed.mimeType,
      kind: probed.kind,
      width: probed.width,
      height: probed.height,
      durationSeconds: probed.durationSeconds,
      hasAudioTrack: probed.hasAudioTrack,
    };
    this.journal.localFiles.record({
      path: file,
      sha256: probed.sha256,
      byteSize: info.size,
      modifiedAt: info.mtimeMs,
      detectedMime: probed.mimeType,
      kind: probed.kind,
      probe: facts,
    });
    return this.get(id);
  }

  /** What the renderer may know of a staged file, checked against the contract (the renderer trusts it). */
  get(fileId: string): DraftMedia {
    const record = this.journal.localFiles.get<StagedProbe>(this.pathOf(fileId));
    if (!record?.probe) throw new AppError('file.not_found', 'This file is no longer staged; add it again.');
    const p = record.probe;
    return DraftMedia.parse({
      id: fileId,
      fileName: p.fileName,
      mimeType: p.mimeType,
      byteSize: record.byteSize,
      kind: p.kind as DraftMedia['kind'],
      ...(p.width !== undefined ? { width: p.width } : {}),
      ...(p.height !== undefined ? { height: p.height } : {}),
      ...(p.durationSeconds !== undefined ? { durationSeconds: p.durationSeconds } : {}),
      ...(p.hasAudioTrack !== undefined ? { hasAudioTrack: p.hasAudioTrack } : {}),
      sha256: record.sha256,
    });
  }

  /**
   * The main-side truth about a staged file, for the guard and the upload: the facts the core
   * probed itself (the renderer's copy of them is never trusted), with the path.
   */
  async resolve(fileId: string): Promise<ProbedFile & ProbedMedia> {
    const file = this.pathOf(fileId);
    const info = await stat(file).catch(() => undefined);
    const record = info
      ? this.journal.localFiles.getCurrent<StagedProbe>(file, {
          byteSize: info.size,
          modifiedAt: info.mtimeMs,
        })
      : undefined;
    if (!record?.probe)
      throw new AppError('file.not_found', 'A reference file is no longer staged; add it again.');
    const media = this.get(fileId);
    return { ...media, path: file, sha256: record.sha256 };
  }
}

function cleanName(name: string): string {
  // eslint-disable-next-line no-control-regex
  const base = path.basename(name.replace(/\\/g, '/')).replace(/[\u0000-\u001f]/g, '');
  return base.slice(0, 200) || 'file';
}
