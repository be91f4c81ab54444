import { describe, expect, it } from 'vitest';
import { migration014JobVariations } from '../../../../src/main/core/journal/migrations/014-job-variations.js';
import { VariationsRepository } from '../../../../src/main/core/journal/variations-repository.js';
import { columns, foreignKeys, migratedTo, tables, withIntents } from './schema-helpers.js';

describe('migration 014-job-variations', () => {
  it('is version 14 and adds job_variations, tied to its job intent', () => {
    expect(migration014JobVariations.version).toBe(14);
    const before = tables(migratedTo(13));
    const db = migratedTo(14);
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
    const db = migratedTo(14);
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
    const db = migratedTo(14);
    withIntents(db, [1, 2]);
    const repo = new VariationsRepository(db);
    repo.record({ intentId: 1, groupId: 'g', position: 0, count: 2 });
    repo.record({ intentId: 2, groupId: 'g', position: 1, count: 2 });
    repo.record({ intentId: 2, groupId: 'g', position: 1, count: 2 });
    expect(repo.group('g').map((v) => v.intentId)).toEqual([1, 2]);
    expect(repo.forIntents([2]).get(2)).toEqual({ intentId: 2, groupId: 'g', position: 1, count: 2 });
    db.prepare('DELETE FROM job_intents WHERE id = 1').run();
    expect(repo.forIntents([1]).get(1)).toBeUndefined();
    expect(repo.group('g').map((v) => v.position)).toEqual([1]);
  });
});
