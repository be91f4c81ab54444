/** Create's project picker slice: new drafts use the last project; choosing and creating file the draft. */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fake } from './fake-bridge.js';

vi.mock('../../../src/renderer/src/bridge', () => import('./fake-bridge.js'));

interface State {
  [name: string]: unknown;
  projects: { id: string; name: string }[];
  draftProjectId: string | null;
  projectsError: string | null;
  loadProjects(draftId: string): Promise<void>;
  chooseProject(draftId: string, projectId: string | null): Promise<void>;
  createProject(draftId: string, name: string): Promise<boolean>;
}
interface Store {
  getState(): State;
  setState(state: Record<string, unknown>, replace?: boolean): void;
}
const storeModule = '../../../src/renderer/src/store/index.js';
const { useStudio } = (await import(storeModule)) as { useStudio: Store };
const initial = useStudio.getState();
const film = { id: 'prj_film', name: 'Film', archived: false };

beforeEach(() => {
  useStudio.setState(initial, true);
  fake.reset();
  fake.answers.set('projects.fileDraft', (p) => ({ draftId: p.draftId, projectId: p.projectId }));
});

describe('project picker', () => {
  it('files a new draft (no project yet) under the last project chosen', async () => {
    fake.answers.set('projects.list', () => ({
      projects: [film],
      lastProjectId: film.id,
      draftProjectId: null,
    }));
    await useStudio.getState().loadProjects('d2');
    expect(fake.calls.at(-1)).toEqual({
      method: 'projects.fileDraft',
      params: { draftId: 'd2', projectId: film.id },
    });
    expect(useStudio.getState().draftProjectId).toBe(film.id);
  });

  it('leaves a draft that already has a project as it is', async () => {
    fake.answers.set('projects.list', () => ({
      projects: [film],
      lastProjectId: 'prj_other',
      draftProjectId: film.id,
    }));
    await useStudio.getState().loadProjects('d1');
    expect(fake.calls.map((c) => c.method)).toEqual(['projects.list']);
    expect(useStudio.getState().draftProjectId).toBe(film.id);
  });

  it('creates a project and files the draft under it; a refused name is shown and nothing is filed', async () => {
    fake.answers.set('projects.create', (p) => ({ id: 'prj_new', name: p.name, archived: false }));
    expect(await useStudio.getState().createProject('d1', 'Ads')).toBe(true);
    expect(useStudio.getState().projects.map((p) => p.name)).toEqual(['Ads']);
    expect(useStudio.getState().draftProjectId).toBe('prj_new');

    fake.answers.set('projects.create', () => {
      throw new Error('There is already a project named “Ads”.');
    });
    fake.calls.length = 0;
    expect(await useStudio.getState().createProject('d1', 'ads')).toBe(false);
    expect(useStudio.getState().projectsError).toContain('already a project');
    expect(fake.calls.map((c) => c.method)).toEqual(['projects.create']);
    expect(useStudio.getState().draftProjectId).toBe('prj_new');
  });

  it('choosing "no project" files the draft under none', async () => {
    await useStudio.getState().chooseProject('d1', null);
    expect(fake.calls.at(-1)!.params).toEqual({ draftId: 'd1', projectId: null });
    expect(useStudio.getState().draftProjectId).toBeNull();
  });
});
