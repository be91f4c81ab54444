import { z } from 'zod';
import {
  COLLECTION_MAX_ITEMS,
  COLLECTION_NAME_MAX_CHARS,
  NOTE_TEXT_MAX_CHARS,
  isNoteRectInFrame,
} from '../../library-review.js';
import { NoParams } from './app.js';

/**
 * Reviewing takes (issue 41), beside the marks of `library.mark`: notes pinned to a time of a
 * result (optionally a rectangle drawn on its frame) and collections — named, hand-ordered sets of
 * library results that seed a sequence or leave as a review package. Kept per person, in the
 * journal and in each result's sidecar (so `library reindex` restores them). On the platform a
 * person may share a collection with one of their projects; an organization manager then reads it
 * (never changes it), and nothing else of theirs.
 */

const Id = z.string().min(1).max(200);
const JobRowId = z.number().int().positive();
const JobRowIds = z.array(JobRowId).max(COLLECTION_MAX_ITEMS);

/** Fractions of the frame (0..1 from its top-left corner): the same place at any size shown. */
export const NoteRect = z
  .object({
    x: z.number().min(0).max(1),
    y: z.number().min(0).max(1),
    width: z.number().min(0).max(1),
    height: z.number().min(0).max(1),
  })
  .strict()
  .refine(isNoteRectInFrame, { message: 'The rectangle must lie inside the frame.' });
export type NoteRect = z.infer<typeof NoteRect>;

const NoteText = z.string().trim().min(1).max(NOTE_TEXT_MAX_CHARS);
/** A time of the result, in seconds from its start (a still image's notes are at 0). */
const NoteTime = z
  .number()
  .min(0)
  .max(24 * 3600);

export const JobNoteView = z.object({
  id: z.string(),
  jobRowId: z.number().int(),
  atSeconds: z.number(),
  text: z.string(),
  rect: NoteRect.nullable(),
  createdAt: z.number(),
  updatedAt: z.number(),
});
export type JobNoteView = z.infer<typeof JobNoteView>;

const CollectionName = z.string().trim().min(1).max(COLLECTION_NAME_MAX_CHARS);

export const CollectionView = z.object({
  id: z.string(),
  name: z.string(),
  /** The results in it, in the order the person gave them. */
  jobRowIds: z.array(z.number().int()),
  /** The project it is shared with (its managers may read it), or null: the person's own. */
  sharedProjectId: z.string().nullable(),
  createdAt: z.number(),
  updatedAt: z.number(),
});
export type CollectionView = z.infer<typeof CollectionView>;

const CollectionRef = z.object({ collectionId: Id }).strict();

/** A take of a shared collection as a manager reads it: what it is, its marks and notes, no path. */
export const SharedTakeView = z.object({
  title: z.string(),
  prompt: z.string(),
  model: z.string(),
  seed: z.number().nullable(),
  generationMode: z.string().nullable(),
  marks: z.object({
    flag: z.enum(['pick', 'reject']).nullable(),
    stars: z.number().int(),
    label: z.string().nullable(),
  }),
  notes: z.array(JobNoteView.pick({ atSeconds: true, text: true, rect: true })),
  mimeType: z.string().nullable(),
  /** A time-limited, read-only link to the verified file; null when it is no longer stored. */
  mediaUrl: z.string().nullable(),
});
export type SharedTakeView = z.infer<typeof SharedTakeView>;

export const SharedCollectionSummary = z.object({
  /** Opaque: names the member's collection for `collections.shared.get`, never an account id. */
  ref: z.string(),
  name: z.string(),
  ownerName: z.string().nullable(),
  projectId: z.string(),
  projectName: z.string().nullable(),
  takeCount: z.number().int(),
  updatedAt: z.number(),
});
export type SharedCollectionSummary = z.infer<typeof SharedCollectionSummary>;

export const ReviewPackageView = z.object({
  fileName: z.string(),
  takes: z.number().int(),
  /** Where the package was written on this machine (hosts with local folders). */
  folder: z.string().nullable(),
  /** Where the page downloads it as one .zip (the platform). */
  downloadPath: z.string().nullable(),
});
export type ReviewPackageView = z.infer<typeof ReviewPackageView>;

export const reviewMethods = {
  /** A result's notes, in time order. */
  'library.notes.list': {
    params: z.object({ jobRowId: JobRowId }).strict(),
    result: z.object({ items: z.array(JobNoteView) }),
  },
  /** Pins a note to a time of a finished result (and, optionally, a rectangle on its frame). */
  'library.notes.add': {
    params: z
      .object({
        jobRowId: JobRowId,
        atSeconds: NoteTime,
        text: NoteText,
        rect: NoteRect.nullable().optional(),
      })
      .strict(),
    result: JobNoteView,
  },
  /** Each field given replaces that of the note (rect null removes its rectangle). */
  'library.notes.update': {
    params: z
      .object({
        noteId: Id,
        atSeconds: NoteTime.optional(),
        text: NoteText.optional(),
        rect: NoteRect.nullable().optional(),
      })
      .strict(),
    result: JobNoteView,
  },
  'library.notes.delete': {
    params: z.object({ noteId: Id }).strict(),
    result: z.object({ deleted: z.boolean() }),
  },
  'collections.list': { params: NoParams, result: z.object({ items: z.array(CollectionView) }) },
  'collections.get': { params: CollectionRef, result: CollectionView },
  /** A new collection, of these results in this order (a selection), or empty. */
  'collections.create': {
    params: z.object({ name: CollectionName, jobRowIds: JobRowIds.optional() }).strict(),
    result: CollectionView,
  },
  'collections.rename': {
    params: z.object({ collectionId: Id, name: CollectionName }).strict(),
    result: CollectionView,
  },
  /** Removes the collection; its results stay in the library. */
  'collections.delete': { params: CollectionRef, result: z.object({ deleted: z.boolean() }) },
  /** Adds results at the end (those already in it stay where they are). */
  'collections.addItems': {
    params: z.object({ collectionId: Id, jobRowIds: JobRowIds.min(1) }).strict(),
    result: CollectionView,
  },
  'collections.removeItems': {
    params: z.object({ collectionId: Id, jobRowIds: JobRowIds.min(1) }).strict(),
    result: CollectionView,
  },
  /** The collection's new order: exactly the results it holds, each once. */
  'collections.reorder': {
    params: z.object({ collectionId: Id, jobRowIds: JobRowIds }).strict(),
    result: CollectionView,
  },
  /** Shares it with one of the person's projects (its organization's managers may read it), or not (null). */
  'collections.share': {
    params: z.object({ collectionId: Id, projectId: Id.nullable() }).strict(),
    result: CollectionView,
  },
  /**
   * A new sequence whose shots are the collection's video takes, in its order (each shot shows its
   * take's verified result; nothing is generated). Takes that are not videos are skipped and counted.
   */
  'collections.toSequence': {
    params: z.object({ collectionId: Id, name: z.string().trim().min(1).max(120).optional() }).strict(),
    result: z.object({ sequenceId: z.string(), shots: z.number().int(), skipped: z.number().int() }),
  },
  /**
   * A review package: a folder with the takes' files, a contact sheet (index.html and a PNG) and
   * review.csv / review.json of prompts, marks and notes, that opens with no Framewright installed.
   */
  'collections.exportPackage': { params: CollectionRef, result: ReviewPackageView },
  /** Opens a review package's folder in the file manager (hosts with local folders). */
  'collections.revealPackage': {
    params: z.object({ fileName: z.string().min(1).max(255) }).strict(),
    result: z.object({ folder: z.string(), opened: z.boolean() }),
  },
  /** The collections an organization's members shared with their projects (managers only). */
  'collections.shared.list': {
    params: NoParams,
    result: z.object({ items: z.array(SharedCollectionSummary) }),
  },
  /** One shared collection, read-only (managers only). */
  'collections.shared.get': {
    params: z.object({ ref: z.string().min(1).max(500) }).strict(),
    result: SharedCollectionSummary.extend({ takes: z.array(SharedTakeView) }),
  },
} as const;

export const reviewEvents = {} as const;
