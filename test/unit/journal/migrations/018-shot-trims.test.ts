import { describe, expect, it } from 'vitest';
import { migrations } from '../../../../src/main/core/journal/migrations/index.js';
import { migration018ShotTrims } from '../../../../src/main/core/journal/migrations/018-shot-trims.js';
import { SequencesRepository } from '../../../../src/main/core/journal/sequences-repository.js';
import { columns, migratedTo, sequenceWithShots, tables } from './schema-helpers.js';

const trim = {
  shotId: 'a',
  sourceSha256: 'a'.repeat(64),
  fpsNum: 24,
  fpsDen: 1,
  inFrame: 12,
  outFrame: 96,
};

describe('migration 018-shot-trims', () => {
  it('is version 18 and adds one table of frame-index in/out points per shot', () => {
    expect(migration018ShotTrims.version).toBe(18);
    expect(migrations[17]).toBe(migration018ShotTrims);
    const before = tables(migratedTo(17));
    const db = migratedTo(18);
    expect(tables(db).filter((t) => !before.includes(t))).toEqual(['sequence_shot_trims']);
    expect(Object.keys(columns(db, 'sequence_shot_trims')).sort()).toEqual(
      ['fps_den', 'fps_num', 'in_frame', 'out_frame', 'shot_id', 'source_sha256', 'updated_at'].sort(),
    );
    expect(columns(db, 'sequence_shot_trims').in_frame!.type).toBe('INTEGER');
  });

  it('keeps, replaces and clears a trim, and touches the sequence each time', () => {
    const db = migratedTo(18);
    let now = 5;
    const repo = new SequencesRepository(db, () => now);
    sequenceWithShots(db, 's1', ['a', 'b']);
    repo.setTrim('s1', trim);
    expect(repo.trimsOf('s1').get('a')).toEqual({ ...trim, updatedAt: 5 });
    expect(repo.get('s1')!.updatedAt).toBe(5);
    now = 6;
    repo.setTrim('s1', { ...trim, inFrame: 0, outFrame: 48 });
    expect(repo.trimsOf('s1').get('a')).toMatchObject({ inFrame: 0, outFrame: 48, updatedAt: 6 });
    expect(repo.trimsOf('s1').size).toBe(1);
    now = 7;
    expect(repo.clearTrim('s1', 'a')).toBe(true);
    expect(repo.clearTrim('s1', 'a')).toBe(false);
    expect(repo.trimsOf('s1').size).toBe(0);
    expect(repo.get('s1')!.updatedAt).toBe(7);
  });

  it('refuses an empty or backwards range and goes with its shot', () => {
    const db = migratedTo(18);
    const repo = new SequencesRepository(db, () => 1);
    sequenceWithShots(db, 's1', ['a']);
    expect(() => repo.setTrim('s1', { ...trim, outFrame: 12 })).toThrow(/CHECK/);
    expect(() => repo.setTrim('s1', { ...trim, inFrame: -1 })).toThrow(/CHECK/);
    expect(() => repo.setTrim('s1', { ...trim, fpsNum: 0 })).toThrow(/CHECK/);
    expect(() => repo.setTrim('s1', { ...trim, shotId: 'nope' })).toThrow(/FOREIGN KEY/);
    repo.setTrim('s1', trim);
    // (the shot's row deleted as version 18 knows it: later versions keep a removed shot aside, 025)
    db.prepare("DELETE FROM sequence_shots WHERE id = 'a'").run();
    expect(db.prepare('SELECT count(*) AS n FROM sequence_shot_trims').get()).toEqual({ n: 0 });
  });
});
