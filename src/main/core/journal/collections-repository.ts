import type { Database, Statement } from 'better-sqlite3';

/** A named, hand-ordered set of library results (migration 023). */
export interface Collection {
  id: string;
  name: string;
  /** Its results, in the person's order. */
  jobRowIds: number[];
  sharedProjectId: string | null;
  createdAt: number;
  updatedAt: number;
}

interface CollectionRow {
  id: string;
  name: string;
  shared_project_id: string | null;
  created_at: number;
  updated_at: number;
  job_row_ids: string;
}

const toCollection = (row: CollectionRow): Collection => ({
  id: row.id,
  name: row.name,
  jobRowIds: JSON.parse(row.job_row_ids) as number[],
  sharedProjectId: row.shared_project_id,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

const SELECT_COLLECTION = `
  SELECT c.*, coalesce((SELECT json_group_array(job_row_id) FROM
           (SELECT job_row_id FROM collection_items i WHERE i.collection_id = c.id ORDER BY position, added_at)),
         '[]') AS job_row_ids
  FROM collections c`;

/** Collections (migration 023): a result may be in several; each one's order is the person's. */
export class CollectionsRepository {
  private readonly getStmt: Statement<[string], CollectionRow>;
  private readonly listStmt: Statement<[], CollectionRow>;
  private readonly countStmt: Statement<[], { n: number }>;
  private readonly insertStmt: Statement;
  private readonly renameStmt: Statement;
  private readonly shareStmt: Statement;
  private readonly touchStmt: Statement;
  private readonly deleteStmt: Statement<[string]>;
  private readonly clearItemsStmt: Statement<[string]>;
  private readonly insertItemStmt: Statement;
  private readonly ofJobStmt: Statement<[number], { collection_id: string; name: string; position: number }>;
  private readonly sharedStmt: Statement<[], CollectionRow>;

  constructor(
    private readonly db: Database,
    private readonly now: () => number = Date.now,
  ) {
    this.getStmt = db.prepare(`${SELECT_COLLECTION} WHERE c.id = ?`);
    this.listStmt = db.prepare(`${SELECT_COLLECTION} ORDER BY lower(c.name), c.created_at, c.id`);
    this.sharedStmt = db.prepare(
      `${SELECT_COLLECTION} WHERE c.shared_project_id IS NOT NULL ORDER BY lower(c.name), c.id`,
    );
    this.countStmt = db.prepare('SELECT count(*) AS n FROM collections');
    this.insertStmt = db.prepare(
      `INSERT INTO collections (id, name, shared_project_id, created_at, updated_at)
       VALUES (@id, @name, @sharedProjectId, @createdAt, @updatedAt)`,
    );
    this.renameStmt = db.prepare('UPDATE collections SET name = @name, updated_at = @now WHERE id = @id');
    this.shareStmt = db.prepare(
      'UPDATE collections SET shared_project_id = @projectId, updated_at = @now WHERE id = @id',
    );
    this.touchStmt = db.prepare('UPDATE collections SET updated_at = @now WHERE id = @id');
    this.deleteStmt = db.prepare('DELETE FROM collections WHERE id = ?');
    this.clearItemsStmt = db.prepare('DELETE FROM collection_items WHERE collection_id = ?');
    this.insertItemStmt = db.prepare(
      `INSERT INTO collection_items (collection_id, job_row_id, position, added_at)
       VALUES (@collectionId, @jobRowId, @position, @addedAt)`,
    );
    this.ofJobStmt = db.prepare(
      `SELECT i.collection_id, c.name, i.position FROM collection_items i
       JOIN collections c ON c.id = i.collection_id WHERE i.job_row_id = ? ORDER BY lower(c.name), c.id`,
    );
  }

  get(id: string): Collection | undefined {
    const row = this.getStmt.get(id);
    return row && toCollection(row);
  }

  list(): Collection[] {
    return this.listStmt.all().map(toCollection);
  }

  /** The collections shared with a project (an organization's managers may read them). */
  shared(): Collection[] {
    return this.sharedStmt.all().map(toCollection);
  }

  count(): number {
    return this.countStmt.get()!.n;
  }

  /**
   * A new collection holding these results in this order (each job must exist: foreign key).
   * Times are kept when given (a reindex restores a collection as it was).
   */
  create(collection: {
    id: string;
    name: string;
    jobRowIds: readonly number[];
    sharedProjectId?: string | null;
    createdAt?: number;
    updatedAt?: number;
  }): Collection {
    const now = this.now();
    this.db.transaction(() => {
      this.insertStmt.run({
        id: collection.id,
        name: collection.name,
        sharedProjectId: collection.sharedProjectId ?? null,
        createdAt: collection.createdAt ?? now,
        updatedAt: collection.updatedAt ?? collection.createdAt ?? now,
      });
      this.writeItems(collection.id, collection.jobRowIds, now);
    })();
    return this.get(collection.id)!;
  }

  rename(id: string, name: string): void {
    this.renameStmt.run({ id, name, now: this.now() });
  }

  share(id: string, projectId: string | null): void {
    this.shareStmt.run({ id, projectId, now: this.now() });
  }

  /** Replaces the collection's results and their order at once (one transaction). */
  setItems(id: string, jobRowIds: readonly number[]): void {
    const now = this.now();
    this.db.transaction(() => {
      this.clearItemsStmt.run(id);
      this.writeItems(id, jobRowIds, now);
      this.touchStmt.run({ id, now });
    })();
  }

  delete(id: string): boolean {
    return this.deleteStmt.run(id).changes > 0;
  }

  /** The collections a result is in, with its place in each (for its sidecar). */
  ofJob(jobRowId: number): { collectionId: string; name: string; position: number }[] {
    return this.ofJobStmt
      .all(jobRowId)
      .map((r) => ({ collectionId: r.collection_id, name: r.name, position: r.position }));
  }

  private writeItems(collectionId: string, jobRowIds: readonly number[], addedAt: number): void {
    jobRowIds.forEach((jobRowId, position) =>
      this.insertItemStmt.run({ collectionId, jobRowId, position, addedAt }),
    );
  }
}
