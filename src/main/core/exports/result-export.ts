import { mkdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { AppError } from '../errors.js';
import type { JobsRepository } from '../journal/jobs-repository.js';
import type { StorageUsage } from '../storage/storage-usage.js';
import type { ObjectStorage } from '../storage/object-storage.js';
import type { MarkedExports } from './marked-export.js';

/** An exported marked copy's file name (its content address and extension). */
const EXPORT_NAME = /^[0-9a-f]{64}\.(png|jpg|webp|mp4)$/;
const EXTENSIONS: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/webp': 'webp',
  'video/mp4': 'mp4',
};

export interface ExportedResult {
  fileName: string;
  byteSize: number;
  downloadPath: string;
}

/**
 * "Download a marked copy" of a library result (the platform's `POST /media/exports`): the result
 * is put in the person's storage (the platform reads it through a signed URL), the marked copy
 * is written to the person's exports folder and counted in their quota. One export per content at
 * a time: a second press joins the first.
 */
export class ResultExports {
  private readonly running = new Map<string, Promise<ExportedResult>>();

  constructor(
    private readonly d: {
      jobs: Pick<JobsRepository, 'getJob'>;
      marked: Pick<MarkedExports, 'exportTo'>;
      storage: Pick<ObjectStorage, 'putFile'>;
      usage: Pick<StorageUsage, 'admit' | 'release' | 'record'>;
      exportsDir: string;
    },
  ) {}

  /** The content addresses being exported now (their objects are kept by the collector). */
  exportingSha256(): IterableIterator<string> {
    return this.running.keys();
  }

  get busy(): boolean {
    return this.running.size > 0;
  }

  /** A marked copy this person exported, by its file name (undefined: none such). */
  fileOf(name: string): string | undefined {
    return EXPORT_NAME.test(name) ? path.join(this.d.exportsDir, name) : undefined;
  }

  exportResult(jobRowId: number, outputIndex = 0): Promise<ExportedResult> {
    const job = this.d.jobs.getJob(jobRowId);
    const output = job?.outputs.filter((o) => o.downloadState === 'verified')[outputIndex];
    if (!job || !output?.localPath || !output.sha256 || !output.mimeType || output.byteSize === undefined)
      throw new AppError('export.invalid_source', 'That result is not in your library.');
    const extension = EXTENSIONS[output.mimeType];
    if (!extension)
      throw new AppError(
        'export.invalid_source',
        `Only PNG, JPEG, WebP and MP4 results can be exported as a marked copy, not ${output.mimeType}.`,
      );
    const { localPath, sha256, mimeType, byteSize } = output;
    let running = this.running.get(sha256);
    if (!running) {
      running = this.exportOnce({ localPath, sha256, mimeType, byteSize }, extension).finally(() =>
        this.running.delete(sha256),
      );
      this.running.set(sha256, running);
    }
    return running;
  }

  private async exportOnce(
    source: { localPath: string; sha256: string; mimeType: string; byteSize: number },
    extension: string,
  ): Promise<ExportedResult> {
    const { localPath, sha256, mimeType, byteSize } = source;
    const { usage } = this.d;
    // the platform reads the source through a signed URL of this person's storage
    await this.d.storage.putFile(localPath);
    await mkdir(this.d.exportsDir, { recursive: true, mode: 0o700 });
    const fileName = `${sha256}.${extension}`;
    const destination = path.join(this.d.exportsDir, fileName);
    // the marked copy counts in the person's quota: the source's size until its own is known
    const previous = await stat(destination).catch(() => undefined);
    usage.admit(byteSize, previous ? 0 : 1);
    let result;
    try {
      result = await this.d.marked.exportTo(
        { sha256, mimeType, byteSize, filename: path.basename(localPath) },
        destination,
      );
    } catch (error) {
      usage.release(byteSize, previous ? 0 : 1);
      throw error;
    }
    usage.release(byteSize + (previous?.size ?? 0), 0);
    usage.record(result.byteSize, 0);
    return { fileName, byteSize: result.byteSize, downloadPath: `/exports/${fileName}` };
  }
}
