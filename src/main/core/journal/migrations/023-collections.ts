import type { Migration } from './migration.js';

/**
 * Collections (issue 41): named sets of library results, ordered by hand; a result may be in
 * several. `collections` holds the name and the project it is shared with (null: the person's
 * own; on the platform an organization's managers may read a shared one); `collection_items`
 * one row per result in it, read in `position` order (0-based; a deleted result leaves a gap that the next change closes). An item goes
 * with its job, a collection's items with it; a project's removal unshares.
 */
export const migration023Collections: Migration = {
  version: 23,
  name: 'collections',
  up(db) {
    db.exec(`
      CREATE TABLE collections (
        id                 TEXT PRIMARY KEY NOT NULL CHECK (length(id) BETWEEN 1 AND 128),
        name               TEXT NOT NULL CHECK (length(trim(name)) BETWEEN 1 AND 120),
        shared_project_id  TEXT REFERENCES projects (id) ON DELETE SET NULL,
        created_at         INTEGER NOT NULL,
        updated_at         INTEGER NOT NULL
      ) STRICT;

      CREATE TABLE collection_items (
        collection_id  TEXT NOT NULL REFERENCES collections (id) ON DELETE CASCADE,
        job_row_id     INTEGER NOT NULL REFERENCES jobs (id) ON DELETE CASCADE,
        position       INTEGER NOT NULL CHECK (position >= 0),
        added_at       INTEGER NOT NULL,
        PRIMARY KEY (collection_id, job_row_id)
      ) STRICT, WITHOUT ROWID;
      CREATE INDEX collection_items_by_job ON collection_items (job_row_id);
    `);
  },
};
