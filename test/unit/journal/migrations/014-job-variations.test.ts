import BetterSqlite3 from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migration014JobVariations } from '../../../../src/main/core/journal/migrations/014-job-variations.js';
import { migrations } from '../../../../src/main/core/journal/migrations/index.js';
import { runMigrations } from '../../../../src/main/core/journal/migrator.js';
import { VariationsRepository } from '../../../../src/main/core/journal/variations-repository.js';
import { columns, foreignKeys, tables } from './schema-helpers.js';

/** Every migration before 014, then optionally 014. */
function migrated(with014: boolean) {
  const db = new BetterSqlite3(':memory:');
  db.pragma('foreign_keys = ON');
  runMigrations(
    db,
    migrations.filter((m) => m.version < 14 || (with014 && m.version === 14)),
  );
  return db;
}

function withIntents(db: BetterSqlite3.Database, ids: number[]) {
  db.exec(
    "INSERT INTO profiles (id, name, kind, created_at, updated_at) VALUES ('p', 'P', 'simulator', 0, 0)",
  );
  const add = db.prepare(
    `INSERT INTO job_intents (id, idempotency_key, profile_id, model, service_kind, canonical_body_json,
       created_at, updated_at) VALUES (?, ?, 'p', 'm', 'video_generation', '{}', 0, 0)`,
  );
  for (const id of ids) add.run(id, `k-${id}`);
}

describe('migration 014-job-variations', () => {
  it('is version 14 and adds job_variations, tied to its job intent', () => {
    expect(migration014JobVariations.version).toBe(14);
    const before = tables(migrated(false));
    const db = migrated(true);
    expect(tables(db).filter((t) => !before.includes(t))).toEqual(['job_variations']);
    expect(Object.keys(columns(db, 'job_variations'))).toEqual([
      'intent_id',
      'group_id',
      'position',
      'count',
    ]);
    expect(columns(db, 'job_variations').intent_id).toMatchObject({ pk: true, notnull: true });
    expect(foreignKeys(db, 'job_variations')).toEqual([
      { table: 'job_intents', from: 'intent_id', on_delete: 'CASCADE' },
    ]);
  });

  it('refuses a position outside the group, a group size outside 2..8 and two intents at one place', () => {
    const db = migrated(true);
    withIntents(db, [1, 2, 3]);
    const add = db.prepare('INSERT INTO job_variations VALUES (?, ?, ?, ?)');
    add.run(1, 'g', 0, 3);
    expect(() => add.run(2, 'g', 0, 3)).toThrow(/UNIQUE/);
    expect(() => add.run(2, 'g', 3, 3)).toThrow(/CHECK/);
    expect(() => add.run(2, 'g', -1, 3)).toThrow(/CHECK/);
    expect(() => add.run(2, 'h', 0, 1)).toThrow(/CHECK/);
    expect(() => add.run(2, 'h', 0, 9)).toThrow(/CHECK/);
    expect(() => add.run(9, 'g', 1, 3)).toThrow(/FOREIGN KEY/);
    add.run(2, 'g', 1, 3);
    expect(db.prepare('SELECT count(*) AS n FROM job_variations').get()).toEqual({ n: 2 });
  });

  it('keeps an intent in its first place on a replay, and forgets it with its intent', () => {
    const db = migrated(true);
    withIntents(db, [1, 2]);
    const repo = new VariationsRepository(db);
    repo.record({ intentId: 1, groupId: 'g', position: 0, count: 2 });
    repo.record({ intentId: 2, groupId: 'g', position: 1, count: 2 });
    repo.record({ intentId: 2, groupId: 'g', position: 1, count: 2 });
    expect(repo.group('g').map((v) => v.intentId)).toEqual([1, 2]);
    expect(repo.forIntent(2)).toEqual({ intentId: 2, groupId: 'g', position: 1, count: 2 });
    db.prepare('DELETE FROM job_intents WHERE id = 1').run();
    expect(repo.forIntent(1)).toBeUndefined();
    expect(repo.group('g').map((v) => v.position)).toEqual([1]);
  });
});
