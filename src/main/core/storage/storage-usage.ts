import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { AppError } from '../errors.js';

/**
 * What one person may store on the platform backend: staged and Playground files, objects,
 * exports, their library (results, assemblies, deliveries, sound tracks) and their drafts' bytes
 * in the journal.
 */
export interface StorageLimits {
  /** Bytes in all. */
  maxBytes: number;
  /** Files in all. */
  maxFiles: number;
}

/** 20 GiB and 10 000 files per person (and context): a studio's working set, not an archive. */
export const DEFAULT_STORAGE_LIMITS: StorageLimits = {
  maxBytes: 20 * 1024 * 1024 * 1024,
  maxFiles: 10_000,
};

/** The error a person over their quota reads: what they use, and the limit. */
export const QUOTA_EXCEEDED_CODE = 'quota.exceeded';

/** What a store's writes and removals tell the quota (StagedFiles, ObjectStorage, the exports). */
export interface StorageQuota {
  /** Resolved once the usage was counted from the folders (wait for it before the first `admit`). */
  readonly ready: Promise<void>;
  /** Counts `bytes` and `files` more, or throws `quota.exceeded` (nothing counted) when past a limit. */
  admit(bytes: number, files: number): void;
  /** Counts `bytes` and `files` less (a file removed, a refused write undone). */
  release(bytes: number, files: number): void;
}

/** A quota that also counts what was written already, without a check (a render, a download). */
export interface RecordingQuota extends StorageQuota {
  record(bytes: number, files: number): void;
}

/** Quota held for work whose output size is known only at its end (see {@link holdQuota}). */
export interface QuotaHold {
  /** The work wrote `bytes` in `files`: they count instead of what was held. */
  settle(bytes: number, files: number): void;
  /** The work wrote nothing (failed, cancelled): what was held is released. */
  cancel(): void;
}

/**
 * Holds `bytes` and `files` of the person's quota for a render before it starts: refused with
 * `quota.exceeded` (no work done) when that would pass a limit. Without a quota (the desktop)
 * nothing is counted.
 */
export async function holdQuota(
  quota: RecordingQuota | undefined,
  bytes: number,
  files: number,
): Promise<QuotaHold> {
  if (!quota) return { settle: () => undefined, cancel: () => undefined };
  await quota.ready;
  quota.admit(bytes, files);
  let held = true;
  const release = () => {
    if (held) quota.release(bytes, files);
    held = false;
  };
  return {
    settle(written, writtenFiles) {
      release();
      quota.record(written, writtenFiles);
    },
    cancel: release,
  };
}

export interface StorageUsageView {
  usedBytes: number;
  usedFiles: number;
  maxBytes: number;
  maxFiles: number;
}

function formatBytes(bytes: number): string {
  const units = ['bytes', 'KiB', 'MiB', 'GiB', 'TiB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return unit === 0 ? `${value} bytes` : `${+value.toFixed(2)} ${units[unit]}`;
}

/** `quota.exceeded`, saying what the person uses and the limit (details carry the numbers). */
export function quotaExceeded(view: StorageUsageView, wanted: { bytes: number; files: number }): AppError {
  const overFiles = view.usedFiles + wanted.files > view.maxFiles;
  const what = overFiles
    ? `${view.usedFiles} of ${view.maxFiles} files`
    : `${formatBytes(view.usedBytes)} of ${formatBytes(view.maxBytes)}`;
  return new AppError(
    QUOTA_EXCEEDED_CODE,
    `Your storage here is full: you use ${what}. Nothing of yours was removed; files no draft, job or ` +
      `export needs are cleaned up over time. Remove drafts you no longer need, or ask your ` +
      `administrator for a larger quota.`,
    view,
  );
}

/**
 * One person's storage usage, kept in memory: counted once from their folders when the workspace
 * opens (files and bytes under each, `.posters` thumbnails left out), then moved by every write and
 * removal, so no request walks the disk. Concurrent writes are counted as their bytes arrive, so
 * two uploads at once cannot both pass the limit.
 */
export class StorageUsage implements RecordingQuota {
  private bytes = 0;
  private files = 0;
  readonly ready: Promise<void>;

  constructor(
    readonly limits: StorageLimits,
    folders: readonly string[],
  ) {
    this.ready = Promise.all(folders.map(countFolder)).then((counts) => {
      for (const count of counts) {
        this.bytes += count.bytes;
        this.files += count.files;
      }
    });
  }

  view(): StorageUsageView {
    return {
      usedBytes: this.bytes,
      usedFiles: this.files,
      maxBytes: this.limits.maxBytes,
      maxFiles: this.limits.maxFiles,
    };
  }

  admit(bytes: number, files: number): void {
    if (this.bytes + bytes > this.limits.maxBytes || this.files + files > this.limits.maxFiles)
      throw quotaExceeded(this.view(), { bytes, files });
    this.bytes += bytes;
    this.files += files;
  }

  /** Counts what was written already (a marked copy whose size is known once it arrived). */
  record(bytes: number, files: number): void {
    this.bytes += bytes;
    this.files += files;
  }

  release(bytes: number, files: number): void {
    this.bytes = Math.max(0, this.bytes - bytes);
    this.files = Math.max(0, this.files - files);
  }
}

/** The regular files under `folder` (recursively, `.posters` left out): their count and bytes. */
async function countFolder(folder: string): Promise<{ bytes: number; files: number }> {
  let bytes = 0;
  let files = 0;
  const walk = async (dir: string): Promise<void> => {
    const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== '.posters') await walk(full);
      } else if (entry.isFile()) {
        const info = await stat(full).catch(() => undefined);
        if (!info) continue;
        bytes += info.size;
        files += 1;
      }
    }
  };
  await walk(folder);
  return { bytes, files };
}
