import { afterEach, describe, expect, it } from 'vitest';
import { ProjectsFeature } from '../../../src/main/core/projects/projects-feature.js';
import { resourceAttributionFor } from '../../../src/main/core/projects/resource-attribution.js';
import { tempJournal } from '../journal/helpers.js';

let env: ReturnType<typeof tempJournal> | undefined;
afterEach(() => env?.cleanup());

function setup() {
  env = tempJournal();
  return { journal: env.journal, projects: new ProjectsFeature(env.journal) };
}

describe('ProjectsFeature', () => {
  it('creates, renames, archives and lists projects; archived ones leave the active list', () => {
    const { projects } = setup();
    const film = projects.create('  Launch film ');
    const ads = projects.create('Ads');
    expect(film).toMatchObject({ name: 'Launch film', archivedAt: undefined });
    expect(film.id).toMatch(/^prj_[0-9a-f-]{36}$/);
    expect(projects.list().map((p) => p.name)).toEqual(['Ads', 'Launch film']);

    expect(projects.rename(ads.id, 'Adverts').name).toBe('Adverts');
    projects.archive(film.id);
    expect(projects.list().map((p) => p.name)).toEqual(['Adverts']);
    expect(projects.list({ includeArchived: true }).map((p) => [p.name, p.archivedAt !== undefined])).toEqual(
      [
        ['Adverts', false],
        ['Launch film', true],
      ],
    );
  });

  it('refuses a blank, too long or duplicate name and an unknown or archived project with a clear error', () => {
    const { projects } = setup();
    expect(() => projects.create('   ')).toThrow(expect.objectContaining({ code: 'project.invalid_name' }));
    expect(() => projects.create('x'.repeat(121))).toThrow(
      expect.objectContaining({ code: 'project.invalid_name' }),
    );
    expect(() => projects.create('a\nb')).toThrow(expect.objectContaining({ code: 'project.invalid_name' }));
    const film = projects.create('Film');
    expect(() => projects.create('FILM')).toThrow(
      expect.objectContaining({ code: 'project.name_taken', message: expect.stringContaining('FILM') }),
    );
    const other = projects.create('Other');
    expect(() => projects.rename(other.id, 'film')).toThrow(
      expect.objectContaining({ code: 'project.name_taken' }),
    );
    expect(projects.list().map((p) => p.name)).toEqual(['Film', 'Other']); // nothing lost
    expect(() => projects.rename('prj_nope', 'X')).toThrow(
      expect.objectContaining({ code: 'project.not_found' }),
    );
    projects.archive(film.id);
    expect(() => projects.rename(film.id, 'Again')).toThrow(
      expect.objectContaining({ code: 'project.archived' }),
    );
  });

  it('files a draft under a project and new drafts use the last one chosen, while it is active', () => {
    const { journal, projects } = setup();
    journal.drafts.save('d1', { prompt: 'a' });
    expect(projects.projectForNewDraft()).toBeUndefined();
    const film = projects.create('Film');
    const ads = projects.create('Ads');
    expect(projects.projectForNewDraft()).toBe(ads.id); // the one just created
    projects.fileDraft('d1', film.id);
    expect(projects.draftProject('d1')).toBe(film.id);
    expect(projects.projectForNewDraft()).toBe(film.id);
    expect(() => projects.fileDraft('missing', film.id)).toThrow(
      expect.objectContaining({ code: 'draft.not_found' }),
    );
    projects.archive(film.id);
    expect(projects.projectForNewDraft()).toBeUndefined();
    expect(() => projects.fileDraft('d1', film.id)).toThrow(
      expect.objectContaining({ code: 'project.archived' }),
    );
    projects.fileDraft('d1', undefined);
    expect(projects.draftProject('d1')).toBeUndefined();
  });

  it('records the project of a job intent once', () => {
    const { journal, projects } = setup();
    journal.profiles.create({ id: 'sim', name: 'Simulator', kind: 'simulator' });
    const film = projects.create('Film');
    const ads = projects.create('Ads');
    const intent = journal.jobs.recordIntent({
      idempotencyKey: 'k1',
      profileId: 'sim',
      model: 'h3',
      serviceKind: 'video_generation',
      body: { prompt: 'p' },
    });
    projects.fileJob(intent.id, film.id);
    projects.fileJob(intent.id, ads.id);
    expect(projects.jobProject(intent.id)).toBe(film.id);
  });

  it("a submitted draft's job intent carries the draft's project, none when the draft has none", () => {
    const { journal, projects } = setup();
    journal.profiles.create({ id: 'sim', name: 'Simulator', kind: 'simulator' });
    const film = projects.create('Film');
    journal.drafts.save('with', {});
    journal.drafts.save('without', {});
    projects.fileDraft('with', film.id);
    const intent = (key: string) =>
      journal.jobs.recordIntent({
        idempotencyKey: key,
        profileId: 'sim',
        model: 'h3',
        serviceKind: 'video_generation',
        body: { prompt: key },
      });
    const a = intent('a');
    const b = intent('b');
    projects.fileJobOfDraft(a.id, 'with');
    projects.fileJobOfDraft(b.id, 'without');
    expect(projects.jobProject(a.id)).toBe(film.id);
    expect(projects.jobProject(b.id)).toBeUndefined();
  });
});

describe('resourceAttributionFor', () => {
  it('is the project resource of the job, or nothing without a project', () => {
    expect(resourceAttributionFor('prj_1')).toEqual({ resourceType: 'project', resourceId: 'prj_1' });
    expect(resourceAttributionFor(undefined)).toBeUndefined();
    expect(resourceAttributionFor('')).toBeUndefined();
  });
});
