import { describe, expect, it } from 'vitest';
import { migrations } from '../../../../src/main/core/journal/migrations/index.js';
import { migration025RemovedShots } from '../../../../src/main/core/journal/migrations/025-removed-shots.js';
import { SequencesRepository } from '../../../../src/main/core/journal/sequences-repository.js';
import { migratedTo, sequenceWithShots, tables } from './schema-helpers.js';

const trim = {
  shotId: 'b',
  sourceSha256: 'a'.repeat(64),
  fpsNum: 24,
  fpsDen: 1,
  inFrame: 12,
  outFrame: 96,
};

function journal() {
  const db = migratedTo(25);
  sequenceWithShots(db, 's1', ['a', 'b', 'c']);
  const repo = new SequencesRepository(db, () => 9);
  const order = () => repo.shots('s1').map((s) => `${s.position}:${s.id}`);
  return { db, repo, order };
}

describe('migration 025-removed-shots', () => {
  it('is version 25 and adds the removed shots table only', () => {
    expect(migration025RemovedShots.version).toBe(25);
    expect(migrations).toContain(migration025RemovedShots);
    const added = tables(migratedTo(25)).filter((t) => !tables(migratedTo(24)).includes(t));
    expect(added).toEqual(['sequence_removed_shots']);
  });

  it('puts a removed shot back at its place with its draft, origin and trim, once', () => {
    const { repo, order } = journal();
    repo.setTrim('s1', trim);
    expect(repo.removeShot('s1', 'b')).toBe(true);
    expect(order()).toEqual(['0:a', '1:c']);
    expect(repo.trimsOf('s1').size).toBe(0);
    expect(repo.restoreShot('s1', 'b')).toBe(true);
    expect(order()).toEqual(['0:a', '1:b', '2:c']);
    expect(repo.shots('s1')[1]).toMatchObject({ id: 'b', draftId: 'd-b', origin: 'new', sourceShotIds: [] });
    expect(repo.trimsOf('s1').get('b')).toMatchObject({
      inFrame: 12,
      outFrame: 96,
      sourceSha256: trim.sourceSha256,
    });
    // put back once: a second restore, or one of a shot never removed, changes nothing
    expect(repo.restoreShot('s1', 'b')).toBe(false);
    expect(repo.restoreShot('s1', 'a')).toBe(false);
    expect(repo.restoreShot('other', 'b')).toBe(false);
    expect(order()).toEqual(['0:a', '1:b', '2:c']);
  });

  it('puts a shot back at the end when the sequence is shorter now, and goes with its sequence', () => {
    const { db, repo, order } = journal();
    repo.removeShot('s1', 'c');
    repo.removeShot('s1', 'b');
    expect(repo.restoreShot('s1', 'c')).toBe(true);
    expect(order()).toEqual(['0:a', '1:c']);
    db.prepare("DELETE FROM sequences WHERE id = 's1'").run();
    expect(db.prepare('SELECT count(*) FROM sequence_removed_shots').pluck().get()).toBe(0);
  });
});
