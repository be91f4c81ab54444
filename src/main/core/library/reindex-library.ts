import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { lstat, readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { z } from 'zod';
import { JobMarksView } from '../../../shared/bridge/domains/studio.js';
import { NoteRect } from '../../../shared/bridge/domains/review.js';
import {
  COLLECTION_MAX_ITEMS,
  COLLECTION_NAME_MAX_CHARS,
  NOTE_TEXT_MAX_CHARS,
  NOTES_PER_RESULT_MAX,
} from '../../../shared/library-review.js';
import { INCOMING_DIR, SIDECAR_NAME } from '../jobs/library-layout.js';
import { JOB_STATUSES } from '../journal/jobs-repository.js';
import type { Journal } from '../journal/open-journal.js';

/** How deep below a library root sidecars are looked for (`<day>/<jobId>/` today, room for more). */
const MAX_DEPTH = 4;

/** The `framewright.json` sidecar written next to verified results (jobs/download-outputs.ts). */
const sidecarSchema = z.object({
  framewright: z.literal(1),
  jobId: z.string().min(1).max(255),
  requestId: z.string().max(255).nullish(),
  profileId: z.string().min(1).max(255),
  model: z.string().min(1).max(255),
  serviceKind: z.string().min(1).max(64),
  status: z.enum(JOB_STATUSES),
  request: z.unknown().optional(),
  effectiveMediaSpec: z.unknown().optional(),
  timings: z
    .object({
      acceptedAt: z.iso.datetime().optional(),
      startedAt: z.iso.datetime().optional(),
      completedAt: z.iso.datetime().optional(),
      elapsedSeconds: z.number().nonnegative().nullish(),
      queuedSeconds: z.number().nonnegative().nullish(),
      runningSeconds: z.number().nonnegative().nullish(),
    })
    .optional(),
  outputs: z
    .array(
      z.object({
        file: z.string().min(1).max(255),
        assetId: z.string().min(1).max(255),
        sha256: z.string().regex(/^[0-9a-f]{64}$/i, 'a sha256 of 64 hex digits'),
        byteSize: z.number().int().nonnegative(),
        mimeType: z.string().min(1).max(255),
      }),
    )
    .max(64),
  /** The person's marks (issue 41); absent in sidecars written before them. */
  marks: JobMarksView.optional(),
  /** The person's notes at its frames (issue 41). */
  notes: z
    .array(
      z.object({
        id: z.string().min(1).max(128),
        atSeconds: z.number().min(0),
        text: z.string().trim().min(1).max(NOTE_TEXT_MAX_CHARS),
        rect: NoteRect.nullable(),
        createdAt: z.iso.datetime(),
        updatedAt: z.iso.datetime(),
      }),
    )
    .max(NOTES_PER_RESULT_MAX)
    .optional(),
  /** The collections it is in, with its place in each (issue 41). */
  collections: z
    .array(
      z.object({
        id: z.string().min(1).max(128),
        name: z.string().trim().min(1).max(COLLECTION_NAME_MAX_CHARS),
        position: z
          .number()
          .int()
          .min(0)
          .max(COLLECTION_MAX_ITEMS * 10),
      }),
    )
    .max(1000)
    .optional(),
});

type Sidecar = z.infer<typeof sidecarSchema>;

export type ReindexOutcome = 'restored' | 'already_indexed' | 'refused';

export interface ReindexEntry {
  /** The sidecar file. */
  readonly sidecar: string;
  readonly outcome: ReindexOutcome;
  readonly jobId?: string;
  readonly profileId?: string;
  /** Why a sidecar was refused. */
  readonly reason?: string;
}

export interface ReindexResult {
  readonly entries: readonly ReindexEntry[];
  readonly restored: number;
  readonly alreadyIndexed: number;
  readonly refused: number;
  /** Collections the journal lacked, made again from the sidecars of their results. */
  readonly collectionsRestored: number;
}

export interface ReindexOptions {
  /** Library roots to walk (the current library and every earlier one). */
  readonly libraryDirs: readonly string[];
  /** Jobs of a profile this journal does not have go to this one; otherwise they are refused. */
  readonly assignToProfileId?: string;
}

/** Every `framewright.json` below `root` (no symbolic links, not `.incoming`), bounded depth. */
async function findSidecars(root: string, depth = 0): Promise<string[]> {
  let names: string[];
  try {
    names = await readdir(root);
  } catch {
    return [];
  }
  const found: string[] = [];
  for (const name of names.sort()) {
    const full = path.join(root, name);
    if (name === SIDECAR_NAME) {
      if ((await lstat(full)).isFile()) found.push(full);
      continue;
    }
    if (name === INCOMING_DIR || name.startsWith('.') || depth >= MAX_DEPTH) continue;
    const stat = await lstat(full);
    if (stat.isDirectory()) found.push(...(await findSidecars(full, depth + 1)));
  }
  return found;
}

async function sha256Of(file: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(createReadStream(file), hash);
  return hash.digest('hex');
}

/** The output file named by a sidecar, if it is a plain file in the sidecar's folder whose bytes verify. */
async function verifyOutput(folder: string, output: Sidecar['outputs'][number]): Promise<string | undefined> {
  if (output.file !== path.basename(output.file) || output.file === '.' || output.file === '..') {
    return `output "${output.file}" is not a file name in the job folder`;
  }
  const file = path.join(folder, output.file);
  let stat;
  try {
    stat = await lstat(file);
  } catch {
    return `output "${output.file}" is missing`;
  }
  if (!stat.isFile()) return `output "${output.file}" is not a regular file`;
  if (stat.size !== output.byteSize) {
    return `output "${output.file}" has ${stat.size} bytes, the sidecar says ${output.byteSize}`;
  }
  const actual = await sha256Of(file);
  if (actual !== output.sha256.toLowerCase()) {
    return `output "${output.file}" does not match its sha256 (${actual} ≠ ${output.sha256.toLowerCase()})`;
  }
  return undefined;
}

const epoch = (iso: string | undefined) => (iso ? Date.parse(iso) : undefined);
const orUndefined = <T>(value: T | null | undefined) => value ?? undefined;

/** The idempotency key of a restored job: stable per profile and jobId, so a second run finds it. */
export function reindexKey(profileId: string, jobId: string): string {
  return `fw-reindex-${createHash('sha256').update(`${profileId}\n${jobId}`).digest('hex').slice(0, 40)}`;
}

/** Writes the job, its intent, its verified outputs, its marks and notes in one transaction. */
function restore(journal: Journal, sidecar: Sidecar, profileId: string, folder: string): number {
  const key = reindexKey(profileId, sidecar.jobId);
  const timings = sidecar.timings ?? {};
  return journal.transaction(() => {
    journal.jobs.recordIntent({
      idempotencyKey: key,
      profileId,
      model: sidecar.model,
      serviceKind: sidecar.serviceKind,
      body: sidecar.request ?? {},
    });
    const job = journal.jobs.markAccepted(key, {
      jobId: sidecar.jobId,
      requestId: sidecar.requestId ?? 'unknown (restored from the library)',
      status: sidecar.status,
      serverCreatedAt: epoch(timings.acceptedAt),
      startedAt: epoch(timings.startedAt),
      completedAt: epoch(timings.completedAt),
      elapsedSeconds: orUndefined(timings.elapsedSeconds),
      queuedSeconds: orUndefined(timings.queuedSeconds),
      runningSeconds: orUndefined(timings.runningSeconds),
      effectiveSpec: sidecar.effectiveMediaSpec,
      outputs: sidecar.outputs.map((o) => ({
        assetId: o.assetId,
        sha256: o.sha256.toLowerCase(),
        byteSize: o.byteSize,
        mimeType: o.mimeType,
      })),
    });
    for (const output of job.outputs) {
      const described = sidecar.outputs[output.position]!;
      journal.outputs.markVerified(output.id, {
        localPath: path.join(folder, described.file),
        sha256: described.sha256.toLowerCase(),
        byteSize: described.byteSize,
        mimeType: described.mimeType,
      });
    }
    if (sidecar.marks) journal.marks.set(job.id, sidecar.marks);
    for (const note of sidecar.notes ?? [])
      if (!journal.notes.get(note.id))
        journal.notes.add({
          id: note.id,
          jobRowId: job.id,
          atSeconds: note.atSeconds,
          text: note.text,
          rect: note.rect,
          createdAt: Date.parse(note.createdAt),
          updatedAt: Date.parse(note.updatedAt),
        });
    return job.id;
  });
}

/** A collection as the sidecars of its results tell it: its name and each result's place. */
interface FoundCollection {
  name: string;
  items: { jobRowId: number; position: number }[];
}

/**
 * Restores the collections the sidecars name: one the journal lacks is made of the results found
 * in it, in their recorded order; one it has gains the results it lacks, at its end (what the
 * person changed since stays as it is).
 */
function restoreCollections(journal: Journal, found: ReadonlyMap<string, FoundCollection>): number {
  let restored = 0;
  for (const [id, collection] of found) {
    const ordered = [...collection.items]
      .sort((a, b) => a.position - b.position || a.jobRowId - b.jobRowId)
      .map((i) => i.jobRowId)
      .slice(0, COLLECTION_MAX_ITEMS);
    const known = journal.collections.get(id);
    if (!known) {
      journal.collections.create({ id, name: collection.name, jobRowIds: ordered });
      restored += 1;
      continue;
    }
    const missing = ordered.filter((jobRowId) => !known.jobRowIds.includes(jobRowId));
    if (missing.length > 0)
      journal.collections.setItems(id, [...known.jobRowIds, ...missing].slice(0, COLLECTION_MAX_ITEMS));
  }
  return restored;
}

/**
 * Rebuilds the journal's job and output rows from the library's `framewright.json` sidecars (after
 * a damaged journal was moved aside, or to adopt a copied library). Idempotent: a job the journal
 * already has (same profile and jobId) is left as it is, so running it twice changes nothing.
 * A sidecar is refused, and nothing of it written, when it does not parse, names a profile this
 * journal does not have (unless `assignToProfileId`), or any of its files is missing or does not
 * match its recorded size and sha256.
 */
export async function reindexLibrary(journal: Journal, options: ReindexOptions): Promise<ReindexResult> {
  if (options.assignToProfileId && !journal.profiles.get(options.assignToProfileId)) {
    throw new RangeError(`There is no profile "${options.assignToProfileId}" to assign jobs to.`);
  }
  const entries: ReindexEntry[] = [];
  const seen = new Set<string>();
  const collections = new Map<string, FoundCollection>();
  for (const root of options.libraryDirs) {
    for (const sidecarPath of await findSidecars(path.resolve(root))) {
      if (seen.has(sidecarPath)) continue;
      seen.add(sidecarPath);
      const { entry, jobRowId, inCollections } = await reindexOne(journal, sidecarPath, options);
      entries.push(entry);
      if (jobRowId === undefined) continue;
      for (const c of inCollections ?? []) {
        const collection = collections.get(c.id) ?? { name: c.name, items: [] };
        collection.items.push({ jobRowId, position: c.position });
        collections.set(c.id, collection);
      }
    }
  }
  const collectionsRestored = journal.transaction(() => restoreCollections(journal, collections));
  const count = (outcome: ReindexOutcome) => entries.filter((e) => e.outcome === outcome).length;
  return {
    entries,
    restored: count('restored'),
    alreadyIndexed: count('already_indexed'),
    refused: count('refused'),
    collectionsRestored,
  };
}

async function reindexOne(
  journal: Journal,
  sidecarPath: string,
  options: ReindexOptions,
): Promise<{ entry: ReindexEntry; jobRowId?: number; inCollections?: Sidecar['collections'] }> {
  const refuse = (reason: string, sidecar?: Sidecar) => ({
    entry: {
      sidecar: sidecarPath,
      outcome: 'refused' as const,
      jobId: sidecar?.jobId,
      profileId: sidecar?.profileId,
      reason,
    },
  });
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readFile(sidecarPath, 'utf8'));
  } catch (error) {
    return refuse(`not readable JSON (${error instanceof Error ? error.message : String(error)})`);
  }
  const checked = sidecarSchema.safeParse(parsed);
  if (!checked.success) {
    const issue = checked.error.issues[0];
    return refuse(`not a Framewright sidecar (${issue?.path.join('.') || 'root'}: ${issue?.message})`);
  }
  const sidecar = checked.data;
  const profileId = journal.profiles.get(sidecar.profileId) ? sidecar.profileId : options.assignToProfileId;
  if (!profileId) {
    return refuse(
      `its profile "${sidecar.profileId}" is not in this journal (assign it to one with --assign-to PROFILE)`,
      sidecar,
    );
  }
  const known = journal.jobs.getJobByJobId(profileId, sidecar.jobId);
  if (known) {
    return {
      entry: { sidecar: sidecarPath, outcome: 'already_indexed', jobId: sidecar.jobId, profileId },
      jobRowId: known.id,
      inCollections: sidecar.collections,
    };
  }
  const folder = path.dirname(sidecarPath);
  for (const output of sidecar.outputs) {
    const problem = await verifyOutput(folder, output);
    if (problem) return refuse(problem, sidecar);
  }
  const jobRowId = restore(journal, sidecar, profileId, folder);
  return {
    entry: { sidecar: sidecarPath, outcome: 'restored', jobId: sidecar.jobId, profileId },
    jobRowId,
    inCollections: sidecar.collections,
  };
}
