import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { appendFile, copyFile, mkdir, readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { PassThrough, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { PLAYGROUND_MAX_FILE_BYTES } from '../../../shared/bridge/names.js';
import type { StagePurpose } from '../../../shared/bridge/api.js';
import { PlaygroundFile } from '../../../shared/bridge/domains/playground.js';
import { DraftMedia } from '../../../shared/bridge/domains/studio.js';
import type { ProbedMedia } from '../../../shared/h3/draft.js';
import type { ReferenceTrim } from '../../../shared/h3/reference-trim.js';
import { isProcessAlive } from '../process/process-liveness.js';
import { AppError } from '../errors.js';
import type { StorageQuota } from './storage-usage.js';
import { TrimmedCopies } from './trimmed-copies.js';
import { safeSegment } from '../jobs/library-layout.js';
import type { Journal } from '../journal/open-journal.js';
import { probeMedia, type ProbedFile } from '../media-tools/probe-media.js';

/**
 * The one staging store: every file the renderer hands the core lands under `<dataDir>/staging`,
 * under a UUID the core chose, and is known to the renderer only by that id.
 *
 * Composer files (Create's frames and references):
 * The renderer never names a path. In the browser host it streams the dropped bytes to
 * `POST /bridge/files` (same token, Host and Origin checks as every bridge call); in Electron the
 * preload reads the dropped file's path with `webUtils.getPathForFile` and the shell copies it.
 * Either way the bytes land in `<dataDir>/staging/<uuid>` (a name the core chooses), are probed
 * from their content, and are known to the renderer only by that UUID. Every later use (probe,
 * thumbnail, upload) resolves the UUID inside the staging folder, so no renderer input can reach
 * any other file.
 *
 * Chunked files (the Playground's documents, audio and images, `playground.files.put`): bounded
 * chunks, each continuing exactly where the last ended, into
 * `<dataDir>/staging/chunks/<pid>-<instance>/<uuid>/<name>` (the services send the file's name).
 * Their ids live in this store's memory: an id another process (or an earlier run) issued is
 * unknown here, and the folders of processes that no longer run are removed before first use.
 * A composer id is never a chunked file and a chunked id never a composer file.
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
/** `<pid>-<uuid>`: the chunk folder of one store, named by the process that owns it. */
const OWNER_FOLDER = /^(\d+)-[0-9a-f-]{36}$/;

/** A chunked file being received (or received) by this store. */
interface ChunkedEntry {
  fileName: string;
  received: number;
  complete: boolean;
}

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
  /** The cuts of trimmed references (`<dir>/trims`). */
  private readonly trimmed: TrimmedCopies;
  /** This store's chunked files: `<dir>/chunks/<pid>-<instance>`. */
  private readonly chunkDir: string;
  private readonly chunked = new Map<string, ChunkedEntry>();
  /** The chunk folders of processes that no longer run (and older layouts) are removed first. */
  private readonly chunksReady: Promise<void>;

  constructor(
    dataDir: string,
    private readonly journal: Journal,
    /** The largest chunked file (the Playground's limit, from the contract). */
    private readonly chunkMaxBytes: number = PLAYGROUND_MAX_FILE_BYTES,
    /** The person's storage quota (the platform backend): every write counted, over it refused. */
    private readonly quota?: StorageQuota,
  ) {
    this.dir = path.join(dataDir, 'staging');
    this.trimmed = new TrimmedCopies(path.join(this.dir, 'trims'), quota);
    this.chunkDir = path.join(this.dir, 'chunks', `${process.pid}-${randomUUID()}`);
    this.chunksReady = removeAbandonedChunks(dataDir, path.dirname(this.chunkDir)).catch(() => undefined);
  }

  /**
   * Removes staged files no draft names (every draft, submitted ones included, so "Copy to
   * Create" and a job's details keep their references) once they are older than `graceMs`, with
   * their journal row and poster; the cuts of trimmed references whose source is no longer staged
   * go with them. Returns how many staged files were removed.
   */
  async removeUnnamed(graceMs = UNNAMED_STAGED_GRACE_MS, now = Date.now()): Promise<number> {
    const entries = await readdir(this.dir).catch(() => [] as string[]);
    const candidates = entries.filter((name) => UUID.test(name));
    const removed = await this.removeUnnamedStaged(candidates, graceMs, now);
    const kept = new Set<string>();
    for (const id of candidates) {
      const sha256 = this.journal.localFiles.get(this.pathOf(id))?.sha256;
      if (sha256) kept.add(sha256);
    }
    await this.trimmed.removeUnused(kept, graceMs, now);
    return removed;
  }

  private async removeUnnamedStaged(candidates: string[], graceMs: number, now: number): Promise<number> {
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
      this.quota?.release(info.size, 1);
      removed += 1;
    }
    return removed;
  }

  /**
   * Removes this store's Playground files written more than `graceMs` ago (their ids live in
   * memory; a Playground file is used right after it was added). Returns how many were removed.
   */
  async removeOldChunked(graceMs = UNNAMED_STAGED_GRACE_MS, now = Date.now()): Promise<number> {
    let removed = 0;
    for (const [id, entry] of [...this.chunked]) {
      const file = path.join(this.chunkFolderOf(id), entry.fileName);
      const info = await stat(file).catch(() => undefined);
      if (info && now - info.mtimeMs < graceMs) continue;
      await this.removeChunked(id);
      removed += 1;
    }
    return removed;
  }

  /**
   * Ends this store (its workspace closes): its Playground files are removed, since their ids
   * lived in its memory and no later store could name them.
   */
  async close(): Promise<void> {
    await this.chunksReady;
    for (const id of [...this.chunked.keys()]) await this.removeChunked(id);
    await rm(this.chunkDir, { recursive: true, force: true });
  }

  /** The staging path of an id the core issued; anything else is refused. */
  pathOf(fileId: string): string {
    if (!UUID.test(fileId)) throw new AppError('file.bad_id', 'Not a staged file id.');
    return path.join(this.dir, fileId);
  }

  /**
   * Streams bytes from a host (the browser host's `POST /bridge/files`) into the store: a
   * composer file (probed media, the default) or a Playground file.
   */
  stageStream(source: Readable, fileName: string): Promise<DraftMedia>;
  stageStream(
    source: Readable,
    fileName: string,
    purpose: StagePurpose,
  ): Promise<DraftMedia | PlaygroundFile>;
  async stageStream(
    source: Readable,
    fileName: string,
    purpose: StagePurpose = 'composer',
  ): Promise<DraftMedia | PlaygroundFile> {
    if (purpose === 'playground')
      return this.stagePlaygroundFile(
        fileName,
        (target, name) =>
          streamInto(source, target, this.chunkMaxBytes, () => this.playgroundTooLarge(name), this.quota),
        true,
      );
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    const id = randomUUID();
    await this.quota?.ready;
    this.quota?.admit(0, 1);
    let size: number;
    try {
      size = await streamInto(
        source,
        this.pathOf(id),
        MAX_STAGED_BYTES,
        () => new AppError('file.too_large', 'The file is too large.'),
        this.quota,
      );
    } catch (error) {
      this.quota?.release(0, 1);
      throw error;
    }
    return this.registerCounted(id, fileName, size);
  }

  /** `register`, undoing the quota's count of the file when it is refused (and removed). */
  private async registerCounted(id: string, fileName: string, size: number): Promise<DraftMedia> {
    try {
      return await this.register(id, fileName);
    } catch (error) {
      if (!(await stat(this.pathOf(id)).catch(() => undefined))) this.quota?.release(size, 1);
      throw error;
    }
  }

  /**
   * Copies a local file (Electron: the path of a file the user dropped or picked) into the store:
   * a composer file (probed media, the default) or a Playground file.
   */
  stageCopy(sourcePath: string): Promise<DraftMedia>;
  stageCopy(sourcePath: string, purpose: StagePurpose): Promise<DraftMedia | PlaygroundFile>;
  async stageCopy(
    sourcePath: string,
    purpose: StagePurpose = 'composer',
  ): Promise<DraftMedia | PlaygroundFile> {
    const info = await stat(sourcePath).catch(() => undefined);
    if (!info?.isFile()) throw new AppError('file.not_found', 'The dropped item is not a file.');
    if (purpose === 'playground') {
      if (info.size > this.chunkMaxBytes)
        throw this.playgroundTooLarge(safeSegment(path.basename(sourcePath)));
      return this.stagePlaygroundFile(path.basename(sourcePath), (target) => copyFile(sourcePath, target));
    }
    if (info.size > MAX_STAGED_BYTES) throw new AppError('file.too_large', 'The file is too large.');
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    const id = randomUUID();
    await this.quota?.ready;
    this.quota?.admit(info.size, 1);
    try {
      await copyFile(sourcePath, this.pathOf(id));
    } catch (error) {
      this.quota?.release(info.size, 1);
      await rm(this.pathOf(id), { force: true });
      throw error;
    }
    return this.registerCounted(id, path.basename(sourcePath), info.size);
  }

  /** A whole Playground file, written by `write` into its own folder under its cleaned name. */
  private async stagePlaygroundFile(
    fileName: string,
    write: (target: string, name: string) => Promise<unknown>,
    /** `write` counts the bytes in the quota as they arrive (a stream); else they are counted after. */
    countsBytes = false,
  ): Promise<PlaygroundFile> {
    await this.chunksReady;
    await this.quota?.ready;
    const id = randomUUID();
    const name = safeSegment(fileName, 'file');
    const folder = this.chunkFolderOf(id);
    this.quota?.admit(0, 1);
    let counted = 0;
    try {
      await mkdir(folder, { recursive: true, mode: 0o700 });
      const target = path.join(folder, name);
      await write(target, name);
      // a file that grew past the limit while it was copied is refused too
      const { size } = await stat(target);
      if (countsBytes) counted = size;
      if (size > this.chunkMaxBytes) throw this.playgroundTooLarge(name);
      if (size === 0) throw new AppError('usage.file', `${name} is empty.`);
      if (!countsBytes) {
        this.quota?.admit(size, 0);
        counted = size;
      }
      this.chunked.set(id, { fileName: name, received: size, complete: true });
      return PlaygroundFile.parse({ fileId: id, fileName: name, byteSize: size });
    } catch (error) {
      this.quota?.release(counted, 1);
      await rm(folder, { recursive: true, force: true });
      throw error;
    }
  }

  private playgroundTooLarge(name: string): AppError {
    const max = this.chunkMaxBytes;
    return new AppError(
      'usage.file',
      `${name} is larger than ${max} bytes (${+(max / 1024 / 1024).toFixed(2)} MiB), the most the Playground takes.`,
    );
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
   * probed itself (the renderer's copy of them is never trusted), with the path. With `trim`, a
   * video or audio is the cut of its kept range ({@link TrimmedCopies}).
   */
  async resolve(fileId: string, trim?: ReferenceTrim): Promise<ProbedFile & ProbedMedia> {
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
    // a trimmed reference is its kept range, cut once (the staged file itself never changes)
    return this.trimmed.keptRangeOf({ ...media, path: file, sha256: record.sha256 }, trim);
  }

  private chunkFolderOf(id: string): string {
    if (!UUID.test(id)) throw new AppError('file.bad_id', 'Not a Playground file id.');
    return path.join(this.chunkDir, id);
  }

  /**
   * One chunk of a file (the first one without `uploadId`, at offset 0). The whole file is bounded
   * by `chunkMaxBytes`: past it the partial file is removed and the call refused.
   */
  async putChunk(input: {
    uploadId?: string;
    fileName: string;
    offset: number;
    data: Buffer;
    last: boolean;
  }): Promise<{ uploadId: string; received: number; complete: boolean; fileName: string }> {
    await this.chunksReady;
    let id = input.uploadId;
    let entry = id ? this.chunked.get(id) : undefined;
    if (id && !entry) throw new AppError('file.not_found', 'This upload is unknown; add the file again.');
    if (!id || !entry) {
      if (input.offset !== 0) throw new AppError('file.bad_chunk', 'A new file starts at offset 0.');
      id = randomUUID();
      entry = { fileName: safeSegment(input.fileName, 'file'), received: 0, complete: false };
      await this.quota?.ready;
      this.quota?.admit(0, 1);
      await mkdir(this.chunkFolderOf(id), { recursive: true, mode: 0o700 });
      this.chunked.set(id, entry);
    }
    if (entry.complete) throw new AppError('file.bad_chunk', 'This file is already complete.');
    if (input.offset !== entry.received)
      throw new AppError('file.bad_chunk', `Expected the chunk at ${entry.received}, got ${input.offset}.`);
    if (entry.received + input.data.length > this.chunkMaxBytes) {
      await this.removeChunked(id);
      throw this.playgroundTooLarge(entry.fileName);
    }
    try {
      this.quota?.admit(input.data.length, 0);
    } catch (error) {
      // over the person's quota: this partial file goes, their earlier files stay
      await this.removeChunked(id);
      throw error;
    }
    try {
      await appendFile(path.join(this.chunkFolderOf(id), entry.fileName), input.data, { mode: 0o600 });
    } catch (error) {
      this.quota?.release(input.data.length, 0);
      throw error;
    }
    entry.received += input.data.length;
    if (input.last) {
      if (entry.received === 0) {
        await this.removeChunked(id);
        throw new AppError('usage.file', `${entry.fileName} is empty.`);
      }
      entry.complete = true;
    }
    return { uploadId: id, received: entry.received, complete: entry.complete, fileName: entry.fileName };
  }

  /** The local path of a complete chunked file (for the core's own use; never sent to the renderer). */
  async chunkedPath(id: string): Promise<string> {
    const entry = this.chunked.get(id);
    if (!entry?.complete)
      throw new AppError('file.not_found', 'This file is no longer available; add it again.');
    const file = path.join(this.chunkFolderOf(id), entry.fileName);
    if (!(await stat(file).catch(() => undefined))?.isFile())
      throw new AppError('file.not_found', 'This file is no longer available; add it again.');
    return file;
  }

  async removeChunked(id: string): Promise<void> {
    const entry = this.chunked.get(id);
    this.chunked.delete(id);
    await rm(this.chunkFolderOf(id), { recursive: true, force: true });
    if (entry) this.quota?.release(entry.received, 1);
  }
}

/**
 * Streams `source` into a new file at `target`, refused (and removed) past `maxBytes` or past the
 * person's quota (each chunk counted as it arrives, undone when the file is refused). Returns the size.
 * A refusal stops reading without destroying `source`: its owner (the host) may still answer on
 * the same connection; a source that fails or ends early fails the write.
 */
async function streamInto(
  source: Readable,
  target: string,
  maxBytes: number,
  tooLarge: () => AppError,
  quota?: StorageQuota,
): Promise<number> {
  let size = 0;
  let counted = 0;
  const input = new PassThrough();
  const refuse = (error: Error) => {
    source.unpipe(input);
    input.destroy(error);
  };
  source.on('data', (chunk: Buffer) => {
    if (input.destroyed) return;
    size += chunk.length;
    if (size > maxBytes) return refuse(tooLarge());
    try {
      quota?.admit(chunk.length, 0);
      counted += chunk.length;
    } catch (error) {
      refuse(error as Error);
    }
  });
  source.once('error', (error) => input.destroy(error));
  source.once('close', () => {
    if (!source.readableEnded) input.destroy(new Error('The upload was interrupted.'));
  });
  source.pipe(input);
  try {
    await pipeline(input, createWriteStream(target, { mode: 0o600 }));
    return size;
  } catch (error) {
    await rm(target, { force: true });
    quota?.release(counted, 0);
    if (error instanceof AppError) throw error;
    throw new AppError('file.stage_failed', `The file could not be received: ${String(error)}`);
  }
}

function cleanName(name: string): string {
  // eslint-disable-next-line no-control-regex
  const base = path.basename(name.replace(/\\/g, '/')).replace(/[\u0000-\u001f]/g, '');
  return base.slice(0, 200) || 'file';
}

/**
 * Removes the chunk folders of processes that no longer run (their ids lived in memory), and the
 * Playground's folder of earlier versions (`<dataDir>/playground/files`). Another live process's
 * files (the app beside `framewright serve`) are left alone.
 */
async function removeAbandonedChunks(dataDir: string, chunksRoot: string): Promise<void> {
  await rm(path.join(dataDir, 'playground', 'files'), { recursive: true, force: true });
  const names = await readdir(chunksRoot).catch(() => [] as string[]);
  const abandoned = names.filter((name) => {
    const owner = OWNER_FOLDER.exec(name);
    return !owner || !isProcessAlive(Number(owner[1]));
  });
  await Promise.all(
    abandoned.map((name) => rm(path.join(chunksRoot, name), { recursive: true, force: true })),
  );
}
