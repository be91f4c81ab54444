import type { StateCreator } from 'zustand';
import type { ProjectView } from '../../../shared/bridge/contract';
import { bridge } from '../bridge';
import type { StudioState } from './index';

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Create's project picker: the active projects and the project of the open draft. */
export interface ProjectsSlice {
  projects: ProjectView[];
  /** The open draft's project (null: none). */
  draftProjectId: string | null;
  projectsError: string | null;
  /**
   * Reads the projects and the draft's project; a draft with none is filed under the last project
   * chosen (new drafts use the last one).
   */
  loadProjects(draftId: string): Promise<void>;
  chooseProject(draftId: string, projectId: string | null): Promise<void>;
  createProject(draftId: string, name: string): Promise<boolean>;
}

export const createProjectsSlice: StateCreator<StudioState, [], [], ProjectsSlice> = (set) => {
  const file = async (draftId: string, projectId: string | null) => {
    const filed = await bridge.invoke('projects.fileDraft', { draftId, projectId });
    set({ draftProjectId: filed.projectId });
  };
  return {
    projects: [],
    draftProjectId: null,
    projectsError: null,
    async loadProjects(draftId) {
      try {
        const list = await bridge.invoke('projects.list', { draftId });
        set({ projects: list.projects, draftProjectId: list.draftProjectId, projectsError: null });
        if (list.draftProjectId === null && list.lastProjectId !== null)
          await file(draftId, list.lastProjectId);
      } catch (error) {
        set({ projectsError: message(error) });
      }
    },
    async chooseProject(draftId, projectId) {
      try {
        await file(draftId, projectId);
        set({ projectsError: null });
      } catch (error) {
        set({ projectsError: message(error) });
      }
    },
    async createProject(draftId, name) {
      try {
        const project = await bridge.invoke('projects.create', { name });
        set((s) => ({
          projects: [...s.projects, project].sort((a, b) => a.name.localeCompare(b.name)),
          projectsError: null,
        }));
        await file(draftId, project.id);
        return true;
      } catch (error) {
        set({ projectsError: message(error) });
        return false;
      }
    },
  };
};
