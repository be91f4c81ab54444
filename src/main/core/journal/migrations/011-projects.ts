import type { Migration } from './migration.js';

/**
 * Projects (issue 14, Team): a creator files work under a project, and a job created on the
 * platform runtime carries it as `resourceAttribution {resourceType: 'project', resourceId}` so
 * the organization's usage can be read per project.
 * - `projects`: the id is the `resourceId` sent to the platform (never reused); a project is
 *   archived, never deleted, so usage already attributed to it keeps its name;
 * - `drafts.project_id`: the project a draft is filed under (NULL: none);
 * - `job_projects`: the project a job intent was created under, gone with its intent.
 */
export const migration011Projects: Migration = {
  version: 11,
  name: 'projects',
  up(db) {
    db.exec(`
      CREATE TABLE projects (
        id           TEXT PRIMARY KEY NOT NULL CHECK (length(id) BETWEEN 1 AND 128),
        name         TEXT NOT NULL CHECK (length(trim(name)) BETWEEN 1 AND 120),
        archived_at  INTEGER,
        created_at   INTEGER NOT NULL,
        updated_at   INTEGER NOT NULL
      ) STRICT;
      CREATE UNIQUE INDEX projects_active_name ON projects (lower(name)) WHERE archived_at IS NULL;

      ALTER TABLE drafts ADD COLUMN project_id TEXT REFERENCES projects (id) ON DELETE SET NULL;

      CREATE TABLE job_projects (
        intent_id   INTEGER PRIMARY KEY NOT NULL REFERENCES job_intents (id) ON DELETE CASCADE,
        project_id  TEXT NOT NULL REFERENCES projects (id) ON DELETE RESTRICT
      ) STRICT;
      CREATE INDEX job_projects_by_project ON job_projects (project_id);
    `);
  },
};
