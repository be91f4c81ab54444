import { describe, expect, it } from 'vitest';
import { migration011Projects } from '../../../../src/main/core/journal/migrations/011-projects.js';
import { columns, foreignKeys, migratedTo, tables } from './schema-helpers.js';

describe('migration 011-projects', () => {
  it('is version 12 and adds projects, job_projects and the project of a draft', () => {
    expect(migration011Projects.version).toBe(11);
    const before = tables(migratedTo(10));
    const db = migratedTo(11);
    expect(tables(db).filter((t) => !before.includes(t))).toEqual(['job_projects', 'projects']);
    expect(Object.keys(columns(db, 'projects'))).toEqual([
      'id',
      'name',
      'archived_at',
      'created_at',
      'updated_at',
    ]);
    expect(columns(db, 'drafts').project_id).toMatchObject({ notnull: false });
    expect(foreignKeys(db, 'drafts')).toEqual([
      { table: 'projects', from: 'project_id', on_delete: 'SET NULL' },
    ]);
    expect(foreignKeys(db, 'job_projects')).toEqual(
      expect.arrayContaining([
        { table: 'job_intents', from: 'intent_id', on_delete: 'CASCADE' },
        { table: 'projects', from: 'project_id', on_delete: 'RESTRICT' },
      ]),
    );
  });

  it('keeps existing drafts (with no project), refuses a duplicate active name and a blank one', () => {
    const db = migratedTo(10);
    db.prepare("INSERT INTO drafts (id, body_json, created_at, updated_at) VALUES ('d1', '{}', 0, 0)").run();
    db.transaction(() => migration011Projects.up(db))();
    expect(db.prepare("SELECT project_id FROM drafts WHERE id = 'd1'").get()).toEqual({ project_id: null });

    const add = db.prepare(
      'INSERT INTO projects (id, name, archived_at, created_at, updated_at) VALUES (?, ?, ?, 0, 0)',
    );
    add.run('p1', 'Launch film', null);
    expect(() => add.run('p2', 'launch FILM', null)).toThrow(/UNIQUE/);
    add.run('p3', 'Launch film', 5); // an archived project frees its name
    expect(() => add.run('p4', '   ', null)).toThrow(/CHECK/);
    expect(() => add.run('', 'Empty id', null)).toThrow(/CHECK/);
  });

  it('ties a job intent to one project, removed with its intent; a used project cannot be deleted', () => {
    const db = migratedTo(11);
    db.exec(`
      INSERT INTO profiles (id, name, kind, created_at, updated_at) VALUES ('p', 'P', 'simulator', 0, 0);
      INSERT INTO job_intents (id, idempotency_key, profile_id, model, service_kind, canonical_body_json,
        created_at, updated_at) VALUES (1, 'k-1', 'p', 'm', 'video_generation', '{}', 0, 0);
      INSERT INTO projects (id, name, created_at, updated_at) VALUES ('prj', 'Film', 0, 0);
      INSERT INTO job_projects (intent_id, project_id) VALUES (1, 'prj');
    `);
    expect(() => db.prepare("INSERT INTO job_projects VALUES (2, 'prj')").run()).toThrow(/FOREIGN KEY/);
    expect(() => db.prepare("INSERT INTO job_projects VALUES (1, 'prj')").run()).toThrow(/UNIQUE|PRIMARY/);
    expect(() => db.prepare("DELETE FROM projects WHERE id = 'prj'").run()).toThrow(/FOREIGN KEY/);
    db.prepare('DELETE FROM job_intents WHERE id = 1').run();
    expect(db.prepare('SELECT count(*) AS n FROM job_projects').get()).toEqual({ n: 0 });
  });
});
