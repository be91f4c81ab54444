import { randomUUID } from 'node:crypto';
import type { CollectionView, ReviewPackageView } from '../../../shared/bridge/domains/review.js';
import {
  COLLECTION_MAX_ITEMS,
  COLLECTION_NAME_MAX_CHARS,
  COLLECTIONS_MAX,
} from '../../../shared/library-review.js';
import { AppError } from '../errors.js';
import type { Collection, CollectionsRepository } from '../journal/collections-repository.js';
import type { JobWithOutputs } from '../journal/jobs-repository.js';
import type { ProjectsRepository } from '../journal/projects-repository.js';
import type { SidecarWrites } from './sidecar-writes.js';
import type { ReviewPackageTake } from './review-package.js';
import type { ReviewPackages } from './review-packages.js';

/** A new sequence of these takes, as shots showing their results (the Sequences feature makes it). */
export type SequenceFromTakes = (
  name: string,
  jobRowIds: readonly number[],
) => Promise<{ sequenceId: string; shots: number; skipped: number }>;

export interface StudioCollectionsDeps {
  collections: Pick<
    CollectionsRepository,
    'get' | 'list' | 'count' | 'create' | 'rename' | 'share' | 'setItems' | 'delete'
  >;
  getJob: (jobRowId: number) => JobWithOutputs | undefined;
  projects: Pick<ProjectsRepository, 'get'>;
  sidecars: Pick<SidecarWrites, 'rewriteAll'>;
  sequenceFromTakes: SequenceFromTakes;
  /** A take as a review package lists it: what it is, its marks and notes, its verified file. */
  takeOf: (jobRowId: number) => ReviewPackageTake;
  /** Where review packages go (a folder here, a download on the platform). */
  packages: ReviewPackages;
}

/**
 * Collections (issue 41): named sets of library results — the selects for a sequence, the takes to
 * show a client — ordered by hand; a result may be in several. Only finished results of the
 * library go in. Every change is in the journal at once, then in its results' sidecars (each
 * lists the collections it is in and its place there), so `library reindex` restores them.
 */
export class StudioCollections {
  constructor(private readonly d: StudioCollectionsDeps) {}

  list(): { items: CollectionView[] } {
    return { items: this.d.collections.list() };
  }

  get(collectionId: string): CollectionView {
    return this.require(collectionId);
  }

  async create(name: string, jobRowIds: readonly number[] = []): Promise<CollectionView> {
    if (this.d.collections.count() >= COLLECTIONS_MAX)
      throw new AppError(
        'collection.too_many',
        `You have ${COLLECTIONS_MAX} collections, the most one studio keeps; nothing was created.`,
      );
    const items = this.results(unique(jobRowIds));
    const created = this.d.collections.create({ id: randomUUID(), name: cleanName(name), jobRowIds: items });
    await this.d.sidecars.rewriteAll(items);
    return created;
  }

  async rename(collectionId: string, name: string): Promise<CollectionView> {
    const collection = this.require(collectionId);
    this.d.collections.rename(collection.id, cleanName(name));
    await this.d.sidecars.rewriteAll(collection.jobRowIds);
    return this.require(collectionId);
  }

  async delete(collectionId: string): Promise<{ deleted: boolean }> {
    const collection = this.d.collections.get(collectionId);
    if (!collection) return { deleted: false };
    const deleted = this.d.collections.delete(collectionId);
    await this.d.sidecars.rewriteAll(collection.jobRowIds);
    return { deleted };
  }

  /** Adds results at the end; those already in it stay where they are. */
  async addItems(collectionId: string, jobRowIds: readonly number[]): Promise<CollectionView> {
    const collection = this.require(collectionId);
    const added = this.results(unique(jobRowIds)).filter((id) => !collection.jobRowIds.includes(id));
    return this.setItems(collection, [...collection.jobRowIds, ...added], added);
  }

  async removeItems(collectionId: string, jobRowIds: readonly number[]): Promise<CollectionView> {
    const collection = this.require(collectionId);
    const removed = new Set(jobRowIds);
    return this.setItems(
      collection,
      collection.jobRowIds.filter((id) => !removed.has(id)),
      collection.jobRowIds.filter((id) => removed.has(id)),
    );
  }

  /** The new order: exactly the results the collection holds, each once. */
  async reorder(collectionId: string, jobRowIds: readonly number[]): Promise<CollectionView> {
    const collection = this.require(collectionId);
    const held = new Set(collection.jobRowIds);
    if (
      jobRowIds.length !== held.size ||
      new Set(jobRowIds).size !== jobRowIds.length ||
      jobRowIds.some((id) => !held.has(id))
    )
      throw new AppError(
        'collection.invalid',
        'The new order must list exactly the results of the collection, each once (it may have changed meanwhile: reload it).',
      );
    return this.setItems(collection, jobRowIds, jobRowIds);
  }

  /** Shares it with one of the person's active projects, or not (null). */
  share(collectionId: string, projectId: string | null): CollectionView {
    const collection = this.require(collectionId);
    if (projectId !== null) {
      const project = this.d.projects.get(projectId);
      if (!project || project.archivedAt !== undefined)
        throw new AppError('collection.invalid', 'A collection is shared with one of your active projects.');
    }
    this.d.collections.share(collection.id, projectId);
    return this.require(collectionId);
  }

  /** A new sequence whose shots are the collection's video takes, in its order. */
  async toSequence(
    collectionId: string,
    name?: string,
  ): Promise<{ sequenceId: string; shots: number; skipped: number }> {
    const collection = this.requireTakes(collectionId);
    return this.d.sequenceFromTakes(name?.trim() || collection.name, collection.jobRowIds);
  }

  /**
   * A review package of the collection, in its order: the takes' files, a contact sheet (page and
   * PNG), the CSV and JSON of prompts, marks and notes; it opens with no Framewright installed.
   */
  async exportPackage(collectionId: string): Promise<ReviewPackageView> {
    const collection = this.requireTakes(collectionId);
    const takes = collection.jobRowIds.map((id) => this.d.takeOf(id));
    return this.d.packages.write(collection.name, takes);
  }

  private async setItems(
    collection: Collection,
    jobRowIds: readonly number[],
    touched: readonly number[],
  ): Promise<CollectionView> {
    if (jobRowIds.length > COLLECTION_MAX_ITEMS)
      throw new AppError(
        'collection.too_many',
        `A collection holds at most ${COLLECTION_MAX_ITEMS} results; nothing was added.`,
      );
    this.d.collections.setItems(collection.id, jobRowIds);
    // a reorder moves every result's place; an add or a removal those it names
    await this.d.sidecars.rewriteAll(touched);
    return this.require(collection.id);
  }

  /** Each id, checked: a finished result of the library (in the order given). */
  private results(jobRowIds: readonly number[]): number[] {
    if (jobRowIds.length > COLLECTION_MAX_ITEMS)
      throw new AppError(
        'collection.too_many',
        `A collection holds at most ${COLLECTION_MAX_ITEMS} results.`,
      );
    for (const id of jobRowIds) {
      const job = this.d.getJob(id);
      if (!job) throw new AppError('job.not_found', `There is no result ${id} in the library.`);
      if (job.status !== 'succeeded' || !job.outputs.some((o) => o.downloadState === 'verified'))
        throw new AppError('library.not_a_result', `Job ${id} is not a verified result of the library.`);
    }
    return [...jobRowIds];
  }

  /** A collection with at least one take (a sequence or a package of none is refused). */
  private requireTakes(collectionId: string): Collection {
    const collection = this.require(collectionId);
    if (collection.jobRowIds.length === 0)
      throw new AppError('collection.invalid', 'This collection is empty: add takes to it first.');
    return collection;
  }

  private require(collectionId: string): Collection {
    const collection = this.d.collections.get(collectionId);
    if (!collection)
      throw new AppError('collection.not_found', 'There is no such collection (it may have been deleted).');
    return collection;
  }
}

const unique = (ids: readonly number[]) => [...new Set(ids)];

function cleanName(name: string): string {
  const clean = name.replace(/\s+/g, ' ').trim();
  if (!clean || clean.length > COLLECTION_NAME_MAX_CHARS)
    throw new AppError(
      'collection.invalid',
      `A collection's name is 1 to ${COLLECTION_NAME_MAX_CHARS} characters.`,
    );
  return clean;
}
