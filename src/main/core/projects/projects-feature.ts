import { randomUUID } from 'node:crypto';
import { AppError } from '../errors.js';
import type { Project, ProjectsRepository } from '../journal/projects-repository.js';
import { isDuplicateProjectName } from '../journal/projects-repository.js';
import type { SettingsRepository } from '../journal/settings-repository.js';

export type { Project };

/** The journal parts projects need. */
export interface ProjectsDeps {
  readonly projects: ProjectsRepository;
  readonly settings: Pick<SettingsRepository, 'get' | 'set'>;
}

/** Where the project new drafts are filed under is remembered. */
export const LAST_PROJECT_SETTING = 'projects.last';

export const PROJECT_NAME_MAX = 120;

/** A project name: trimmed, 1..120 characters, no control characters. */
export function projectName(raw: unknown): string {
  const name = typeof raw === 'string' ? raw.trim() : '';
  // eslint-disable-next-line no-control-regex
  if (name.length === 0 || name.length > PROJECT_NAME_MAX || /[\u0000-\u001f\u007f]/.test(name))
    throw new AppError(
      'project.invalid_name',
      `A project name must be 1 to ${PROJECT_NAME_MAX} characters with no line breaks.`,
    );
  return name;
}

/**
 * Projects: create, rename, archive, list; the project a draft is filed under, and the one new
 * drafts use (the last one chosen). A project's id (`prj_` + a UUID) is what the platform sees as
 * the `resourceId` of the job's `resourceAttribution`.
 */
export class ProjectsFeature {
  constructor(private readonly deps: ProjectsDeps) {}

  list(options: { includeArchived?: boolean } = {}): Project[] {
    return this.deps.projects.list(options);
  }

  create(name: unknown): Project {
    const clean = projectName(name);
    const project = this.named(clean, () => this.deps.projects.create(`prj_${randomUUID()}`, clean));
    this.deps.settings.set(LAST_PROJECT_SETTING, project.id);
    return project;
  }

  rename(id: string, name: unknown): Project {
    const clean = projectName(name);
    this.active(id);
    return this.named(clean, () => this.deps.projects.rename(id, clean)!);
  }

  /** Archives a project: it leaves the picker, keeps its jobs and its usage. */
  archive(id: string): Project {
    this.existing(id);
    const project = this.deps.projects.archive(id)!;
    if (this.deps.settings.get<string>(LAST_PROJECT_SETTING) === id)
      this.deps.settings.set(LAST_PROJECT_SETTING, null);
    return project;
  }

  /** Files a draft under an active project (undefined: none), remembered for new drafts. */
  fileDraft(draftId: string, projectId: string | undefined): void {
    if (projectId !== undefined) this.active(projectId);
    if (!this.deps.projects.setDraftProject(draftId, projectId))
      throw new AppError('draft.not_found', `There is no draft ${draftId}.`);
    this.deps.settings.set(LAST_PROJECT_SETTING, projectId ?? null);
  }

  draftProject(draftId: string): string | undefined {
    return this.deps.projects.draftProject(draftId);
  }

  /** The project a new draft is filed under: the last one chosen, while it is active. */
  projectForNewDraft(): string | undefined {
    const id = this.deps.settings.get<string | null>(LAST_PROJECT_SETTING) ?? undefined;
    if (id === undefined) return undefined;
    const project = this.deps.projects.get(id);
    return project && project.archivedAt === undefined ? id : undefined;
  }

  /** Records the project of a job intent at creation (the draft's project). */
  fileJob(intentId: number, projectId: string): void {
    this.active(projectId);
    this.deps.projects.setJobProject(intentId, projectId);
  }

  /**
   * At submission: the job intent carries its draft's project (whatever that project's state now:
   * the draft was filed while it was active). Nothing when the draft has none.
   */
  fileJobOfDraft(intentId: number, draftId: string): void {
    const projectId = this.deps.projects.draftProject(draftId);
    if (projectId !== undefined) this.deps.projects.setJobProject(intentId, projectId);
  }

  jobProject(intentId: number): string | undefined {
    return this.deps.projects.jobProject(intentId);
  }

  private existing(id: string): Project {
    const project = this.deps.projects.get(id);
    if (!project) throw new AppError('project.not_found', `There is no project ${id}.`);
    return project;
  }

  private active(id: string): Project {
    const project = this.existing(id);
    if (project.archivedAt !== undefined)
      throw new AppError('project.archived', `The project “${project.name}” is archived.`);
    return project;
  }

  private named(name: string, write: () => Project): Project {
    try {
      return write();
    } catch (error) {
      if (isDuplicateProjectName(error))
        throw new AppError('project.name_taken', `There is already a project named “${name}”.`);
      throw error;
    }
  }
}
