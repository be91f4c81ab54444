import type { ObjectStorage } from './object-storage.js';

/**
 * An object younger than this is never collected: it may have just been written for a creation,
 * a dry-run or an export in flight, before any journal row names it. Storing the same bytes again
 * renews it.
 */
export const OBJECT_GRACE_MS = 60 * 60 * 1000;

/** Content addresses in a text (a creation body's `inputs[].sha256`, its readUrls). */
const SHA256_IN_TEXT = /[0-9a-f]{64}/g;

/** What names a person's stored objects: their drafts, their unfinished jobs, their exports in flight. */
export interface ObjectReferences {
  /** Drafts not submitted yet: the staged files they name (ids), whose content becomes an object on Create. */
  openDraftFileIds(): Iterable<string>;
  /** The content address of a staged file (undefined: not staged any more). */
  stagedSha256(fileId: string): string | undefined;
  /** The creation bodies of unfinished work: intents of unknown outcome and jobs not terminal. */
  unfinishedBodies(): Iterable<string>;
  /** The sources of marked exports being made now. */
  exportingSha256(): Iterable<string>;
}

/** Every object a live draft, job or export names. */
export function namedObjects(refs: ObjectReferences): Set<string> {
  const named = new Set<string>();
  for (const id of refs.openDraftFileIds()) {
    const sha256 = refs.stagedSha256(id);
    if (sha256) named.add(sha256);
  }
  for (const body of refs.unfinishedBodies())
    for (const sha256 of body.match(SHA256_IN_TEXT) ?? []) named.add(sha256);
  for (const sha256 of refs.exportingSha256()) named.add(sha256);
  return named;
}

/**
 * Removes the objects (and leftover temporary files) nothing names once they are older than
 * `graceMs`. The references are read after the listing, so an object named while the listing ran
 * is kept. Returns what was removed.
 */
export async function collectObjects(
  storage: Pick<ObjectStorage, 'list' | 'remove'>,
  named: () => ReadonlySet<string>,
  options: { graceMs?: number; now?: number } = {},
): Promise<{ removed: number; bytes: number }> {
  const graceMs = options.graceMs ?? OBJECT_GRACE_MS;
  const now = options.now ?? Date.now();
  const cutoff = now - graceMs;
  const entries = (await storage.list()).filter((entry) => entry.modifiedAt <= cutoff);
  if (entries.length === 0) return { removed: 0, bytes: 0 };
  const live = named();
  let removed = 0;
  let bytes = 0;
  for (const entry of entries) {
    if (entry.sha256 && live.has(entry.sha256)) continue;
    if (!(await storage.remove(entry, cutoff))) continue;
    removed += 1;
    bytes += entry.byteSize;
  }
  return { removed, bytes };
}
