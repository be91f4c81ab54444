import type { Database, Statement } from 'better-sqlite3';

/** A project work is filed under; its `id` is the `resourceId` of the platform's `resourceAttribution`. */
export interface Project {
  readonly id: string;
  readonly name: string;
  /** Epoch ms when archived; undefined while active. */
  readonly archivedAt: number | undefined;
  readonly createdAt: number;
  readonly updatedAt: number;
}

interface ProjectRow {
  id: string;
  name: string;
  archived_at: number | null;
  created_at: number;
  updated_at: number;
}

const toProject = (row: ProjectRow): Project => ({
  id: row.id,
  name: row.name,
  archivedAt: row.archived_at ?? undefined,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

/** SQLite's answer when an active project already has this name (`projects_active_name`). */
export function isDuplicateProjectName(error: unknown): boolean {
  return (
    error instanceof Error && /UNIQUE constraint failed: index 'projects_active_name'/.test(error.message)
  );
}

/** Projects, the project of a draft and the project of a job intent (migration 011). */
export class ProjectsRepository {
  private readonly insertStmt: Statement;
  private readonly renameStmt: Statement;
  private readonly archiveStmt: Statement;
  private readonly getStmt: Statement<[string], ProjectRow>;
  private readonly listActiveStmt: Statement<[], ProjectRow>;
  private readonly listAllStmt: Statement<[], ProjectRow>;
  private readonly setDraftStmt: Statement;
  private readonly draftStmt: Statement<[string], { project_id: string | null }>;
  private readonly setJobStmt: Statement;
  private readonly jobStmt: Statement<[number], { project_id: string }>;

  constructor(
    db: Database,
    private readonly now: () => number = Date.now,
  ) {
    this.insertStmt = db.prepare(
      'INSERT INTO projects (id, name, created_at, updated_at) VALUES (@id, @name, @now, @now)',
    );
    this.renameStmt = db.prepare('UPDATE projects SET name = @name, updated_at = @now WHERE id = @id');
    this.archiveStmt = db.prepare(
      'UPDATE projects SET archived_at = @now, updated_at = @now WHERE id = @id AND archived_at IS NULL',
    );
    this.getStmt = db.prepare('SELECT * FROM projects WHERE id = ?');
    this.listActiveStmt = db.prepare(
      'SELECT * FROM projects WHERE archived_at IS NULL ORDER BY lower(name), id',
    );
    this.listAllStmt = db.prepare('SELECT * FROM projects ORDER BY archived_at IS NOT NULL, lower(name), id');
    this.setDraftStmt = db.prepare('UPDATE drafts SET project_id = @projectId WHERE id = @draftId');
    this.draftStmt = db.prepare('SELECT project_id FROM drafts WHERE id = ?');
    this.setJobStmt = db.prepare(
      `INSERT INTO job_projects (intent_id, project_id) VALUES (@intentId, @projectId)
       ON CONFLICT (intent_id) DO NOTHING`,
    );
    this.jobStmt = db.prepare('SELECT project_id FROM job_projects WHERE intent_id = ?');
  }

  /** Adds a project; throws SQLite's UNIQUE error when an active project has this name. */
  create(id: string, name: string): Project {
    this.insertStmt.run({ id, name, now: this.now() });
    return this.get(id)!;
  }

  rename(id: string, name: string): Project | undefined {
    this.renameStmt.run({ id, name, now: this.now() });
    return this.get(id);
  }

  /** Archives an active project (an archived one is left as it was). */
  archive(id: string): Project | undefined {
    this.archiveStmt.run({ id, now: this.now() });
    return this.get(id);
  }

  get(id: string): Project | undefined {
    const row = this.getStmt.get(id);
    return row && toProject(row);
  }

  /** Active projects by name; with `includeArchived`, the archived ones after them. */
  list(options: { includeArchived?: boolean } = {}): Project[] {
    return (options.includeArchived ? this.listAllStmt : this.listActiveStmt).all().map(toProject);
  }

  /** Files a draft under a project (undefined: none). False when the draft does not exist. */
  setDraftProject(draftId: string, projectId: string | undefined): boolean {
    return this.setDraftStmt.run({ draftId, projectId: projectId ?? null }).changes === 1;
  }

  draftProject(draftId: string): string | undefined {
    return this.draftStmt.get(draftId)?.project_id ?? undefined;
  }

  /** Records the project a job intent is created under; the first one recorded stays. */
  setJobProject(intentId: number, projectId: string): void {
    this.setJobStmt.run({ intentId, projectId });
  }

  jobProject(intentId: number): string | undefined {
    return this.jobStmt.get(intentId)?.project_id;
  }
}
