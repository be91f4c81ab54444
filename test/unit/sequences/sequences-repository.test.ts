import { describe, expect, it } from 'vitest';
import { SequencesRepository } from '../../../src/main/core/journal/sequences-repository.js';
import { migrations } from '../../../src/main/core/journal/migrations/index.js';
import { migratedTo } from '../journal/migrations/schema-helpers.js';

function repository() {
  const db = migratedTo(migrations.length);
  let now = 1_000;
  const repo = new SequencesRepository(db, () => (now += 1));
  const addDraft = db.prepare(
    "INSERT INTO drafts (id, body_json, created_at, updated_at) VALUES (?, '{}', 0, 0)",
  );
  repo.create('s1', 'Harbour');
  const add = (id: string, position?: number) => {
    addDraft.run(`draft-${id}`);
    repo.insertShot({
      id,
      sequenceId: 's1',
      draftId: `draft-${id}`,
      origin: 'new',
      sourceShotIds: [],
      position,
    });
  };
  const order = () => repo.shots('s1').map((s) => `${s.position}:${s.id}`);
  return { repo, add, order };
}

describe('SequencesRepository', () => {
  it('inserts at the end or at a position, shifting the later shots', () => {
    const { add, order } = repository();
    add('a');
    add('b');
    add('c', 1);
    add('d', 99);
    add('e', 0);
    expect(order()).toEqual(['0:e', '1:a', '2:c', '3:b', '4:d']);
  });

  it('moves a shot left and right and closes gaps when one is removed', () => {
    const { repo, add, order } = repository();
    for (const id of ['a', 'b', 'c', 'd']) add(id);
    expect(repo.moveShot('s1', 'd', 0)).toBe(true);
    expect(order()).toEqual(['0:d', '1:a', '2:b', '3:c']);
    expect(repo.moveShot('s1', 'd', 2)).toBe(true);
    expect(order()).toEqual(['0:a', '1:b', '2:d', '3:c']);
    expect(repo.moveShot('s1', 'a', 50)).toBe(true);
    expect(order()).toEqual(['0:b', '1:d', '2:c', '3:a']);
    expect(repo.moveShot('s1', 'zzz', 0)).toBe(false);
    expect(repo.removeShot('s1', 'd')).toBe(true);
    expect(order()).toEqual(['0:b', '1:c', '2:a']);
    expect(repo.removeShot('s1', 'd')).toBe(false);
    expect(repo.list()).toEqual([expect.objectContaining({ id: 's1', shotCount: 3 })]);
  });

  it('finds an assembly by fingerprint (not a failed one) and keeps its facts', () => {
    const { repo } = repository();
    repo.startAssembly({ id: 'a1', sequenceId: 's1', fingerprint: 'f1', crossfadeSeconds: 0.5 });
    expect(repo.assemblyWithFingerprint('s1', 'f1')?.state).toBe('assembling');
    repo.failAssembly('a1', 'ffmpeg stopped');
    expect(repo.assemblyWithFingerprint('s1', 'f1')).toBeUndefined();
    expect(repo.latestAssembly('s1')).toMatchObject({
      id: 'a1',
      state: 'failed',
      errorMessage: 'ffmpeg stopped',
    });
    repo.startAssembly({ id: 'a2', sequenceId: 's1', fingerprint: 'f1', crossfadeSeconds: 0.5 });
    repo.finishAssembly('a2', {
      localPath: '/lib/sequences/harbour.mp4',
      sidecarPath: '/lib/sequences/harbour.json',
      sha256: 'ab',
      byteSize: 10,
      durationSeconds: 14,
      chapters: [{ title: 'Shot 1', startSeconds: 0, endSeconds: 14 }],
    });
    expect(repo.assemblyWithFingerprint('s1', 'f1')).toMatchObject({
      id: 'a2',
      state: 'ready',
      durationSeconds: 14,
      chapters: [{ title: 'Shot 1', startSeconds: 0, endSeconds: 14 }],
    });
    expect(repo.latestAssembly('s1')?.id).toBe('a2');
    expect(
      repo
        .assembliesOf('s1')
        .map((a) => a.id)
        .sort(),
    ).toEqual(['a1', 'a2']);
    expect(repo.delete('s1')).toBe(true);
    expect(repo.assembly('a2')).toBeUndefined();
  });
});
