import type { Database } from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrations } from '../../../../src/main/core/journal/migrations/index.js';
import { migration023Collections } from '../../../../src/main/core/journal/migrations/023-collections.js';
import { CollectionsRepository } from '../../../../src/main/core/journal/collections-repository.js';
import { migratedTo, tables, withSucceededJobs } from './schema-helpers.js';

/** A fresh journal migrated up to (and, unless `before`, including) 023, with three jobs and a project. */
function journal(before = false): Database {
  const db = migratedTo(before ? 22 : 23);
  withSucceededJobs(db, [1, 2, 3]);
  db.exec("INSERT INTO projects (id, name, created_at, updated_at) VALUES ('proj', 'Spring', 0, 0)");
  return db;
}

describe('migration 023-collections', () => {
  it('is version 23 and adds collections and their items', () => {
    expect(migration023Collections.version).toBe(23);
    expect(migrations).toContain(migration023Collections);
    const added = tables(journal()).filter((t) => !tables(journal(true)).includes(t));
    expect(added.sort()).toEqual(['collection_items', 'collections']);
  });

  it('keeps each collection’s order; a result may be in several; shared ones are listed apart', () => {
    const collections = new CollectionsRepository(journal(), () => 9);
    collections.create({ id: 'sel', name: 'Selects', jobRowIds: [3, 1] });
    collections.create({ id: 'cli', name: 'client', jobRowIds: [1] });
    expect(collections.get('sel')).toMatchObject({ jobRowIds: [3, 1], sharedProjectId: null, updatedAt: 9 });
    collections.setItems('sel', [1, 2, 3]);
    expect(collections.get('sel')!.jobRowIds).toEqual([1, 2, 3]);
    expect(collections.list().map((c) => c.name)).toEqual(['client', 'Selects']);
    expect(collections.ofJob(1)).toEqual([
      { collectionId: 'cli', name: 'client', position: 0 },
      { collectionId: 'sel', name: 'Selects', position: 0 },
    ]);
    collections.share('sel', 'proj');
    expect(collections.shared().map((c) => c.id)).toEqual(['sel']);
    expect(collections.count()).toBe(2);
  });

  it('an item goes with its job, the items with their collection; a project gone unshares', () => {
    const db = journal();
    const collections = new CollectionsRepository(db);
    collections.create({ id: 'sel', name: 'Selects', jobRowIds: [1, 2, 3], sharedProjectId: 'proj' });
    expect(() => collections.create({ id: 'bad', name: 'Bad', jobRowIds: [99] })).toThrow(/FOREIGN KEY/);
    expect(collections.get('bad')).toBeUndefined(); // the transaction left nothing
    expect(() => collections.create({ id: 'blank', name: '  ', jobRowIds: [] })).toThrow(/CHECK/);
    db.prepare('DELETE FROM jobs WHERE id = 2').run();
    expect(collections.get('sel')!.jobRowIds).toEqual([1, 3]);
    db.prepare("DELETE FROM projects WHERE id = 'proj'").run();
    expect(collections.get('sel')!.sharedProjectId).toBeNull();
    expect(collections.delete('sel')).toBe(true);
    expect(db.prepare('SELECT count(*) AS n FROM collection_items').get()).toEqual({ n: 0 });
  });
});
