import type { Database } from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migration012Sequences } from '../../../../src/main/core/journal/migrations/012-sequences.js';
import { columns, foreignKeys, migratedTo, tables } from './schema-helpers.js';

const draft = (db: Database, id: string) =>
  db.prepare("INSERT INTO drafts (id, body_json, created_at, updated_at) VALUES (?, '{}', 0, 0)").run(id);

describe('migration 012-sequences', () => {
  it('is version 12 and adds sequences, their shots and their assemblies', () => {
    expect(migration012Sequences.version).toBe(12);
    const before = tables(migratedTo(11));
    const db = migratedTo(12);
    expect(tables(db).filter((t) => !before.includes(t))).toEqual([
      'sequence_assemblies',
      'sequence_shots',
      'sequences',
    ]);
    expect(Object.keys(columns(db, 'sequence_shots'))).toEqual([
      'id',
      'sequence_id',
      'position',
      'draft_id',
      'origin',
      'source_shot_ids_json',
      'created_at',
    ]);
    expect(foreignKeys(db, 'sequence_shots')).toEqual(
      expect.arrayContaining([
        { table: 'sequences', from: 'sequence_id', on_delete: 'CASCADE' },
        { table: 'drafts', from: 'draft_id', on_delete: 'RESTRICT' },
      ]),
    );
    expect(foreignKeys(db, 'sequence_assemblies')).toEqual([
      { table: 'sequences', from: 'sequence_id', on_delete: 'CASCADE' },
    ]);
  });

  it('keeps one shot per position, a known origin, and a draft that a shot names', () => {
    const db = migratedTo(12);
    draft(db, 'd1');
    db.prepare(
      "INSERT INTO sequences (id, name, created_at, updated_at) VALUES ('s1', 'Harbour', 0, 0)",
    ).run();
    const shot = db.prepare(
      "INSERT INTO sequence_shots (id, sequence_id, position, draft_id, origin, created_at) VALUES (?, 's1', ?, 'd1', ?, 0)",
    );
    shot.run('a', 0, 'new');
    expect(() => shot.run('b', 0, 'new')).toThrow(/UNIQUE/);
    expect(() => shot.run('c', 1, 'remix')).toThrow(/CHECK/);
    expect(() => shot.run('d', -1, 'new')).toThrow(/CHECK/);
    // the draft of a shot cannot be deleted under it
    expect(() => db.prepare("DELETE FROM drafts WHERE id = 'd1'").run()).toThrow(/FOREIGN KEY/);
    expect(() =>
      db.prepare("INSERT INTO sequences (id, name, created_at, updated_at) VALUES ('s2', '  ', 0, 0)").run(),
    ).toThrow(/CHECK/);
  });

  it('requires the file facts of a ready assembly; deleting a sequence removes its shots and assemblies', () => {
    const db = migratedTo(12);
    draft(db, 'd1');
    db.prepare(
      "INSERT INTO sequences (id, name, created_at, updated_at) VALUES ('s1', 'Harbour', 0, 0)",
    ).run();
    db.prepare(
      "INSERT INTO sequence_shots (id, sequence_id, position, draft_id, origin, created_at) VALUES ('a', 's1', 0, 'd1', 'new', 0)",
    ).run();
    const add = db.prepare(
      `INSERT INTO sequence_assemblies (id, sequence_id, fingerprint, state, crossfade_seconds, local_path, sha256, byte_size, created_at, updated_at)
       VALUES (?, 's1', 'f', ?, 0.5, ?, ?, ?, 0, 0)`,
    );
    expect(() => add.run('x', 'ready', null, null, null)).toThrow(/CHECK/);
    add.run('y', 'ready', '/lib/a.mp4', 'ab', 10);
    add.run('z', 'assembling', null, null, null);
    db.prepare("DELETE FROM sequences WHERE id = 's1'").run();
    expect(db.prepare('SELECT count(*) AS n FROM sequence_shots').get()).toEqual({ n: 0 });
    expect(db.prepare('SELECT count(*) AS n FROM sequence_assemblies').get()).toEqual({ n: 0 });
    expect(db.prepare("SELECT count(*) AS n FROM drafts WHERE id = 'd1'").get()).toEqual({ n: 1 });
  });
});
