import { describe, expect, it } from 'vitest';
import type { Database } from 'better-sqlite3';
import { migrations } from '../../../../src/main/core/journal/migrations/index.js';
import { migration019SequenceSoundtracks } from '../../../../src/main/core/journal/migrations/019-sequence-soundtracks.js';
import { SoundtracksRepository } from '../../../../src/main/core/journal/soundtracks-repository.js';
import { columns, tables } from './schema-helpers.js';
import BetterSqlite3 from 'better-sqlite3';
import { runMigrations } from '../../../../src/main/core/journal/migrator.js';

/** A fresh database migrated up to and including `version` (whatever versions lie below it). */
function migratedTo(version: number): Database {
  const db = new BetterSqlite3(':memory:');
  db.pragma('foreign_keys = ON');
  runMigrations(
    db,
    migrations.filter((m) => m.version <= version),
  );
  return db;
}

function sequence(db: Database, id: string): void {
  db.prepare("INSERT INTO sequences (id, name, created_at, updated_at) VALUES (?, 'Film', 0, 0)").run(id);
}

describe('migration 019-sequence-soundtracks', () => {
  it('is version 19 and adds the sound track tables, with no column for a URL, session or grant', () => {
    expect(migration019SequenceSoundtracks.version).toBe(19);
    expect(migrations).toContain(migration019SequenceSoundtracks);
    const before = tables(migratedTo(18));
    const db = migratedTo(19);
    expect(
      tables(db)
        .filter((t) => !before.includes(t))
        .sort(),
    ).toEqual(['sequence_soundtracks', 'sequence_voice_lines']);
    const all = [
      ...Object.keys(columns(db, 'sequence_soundtracks')),
      ...Object.keys(columns(db, 'sequence_voice_lines')),
    ];
    expect(all.filter((c) => /grant|session|url|token|signature/i.test(c))).toEqual([]);
  });

  it('answers the defaults, keeps the music bed and levels, and lines by time', () => {
    const db = migratedTo(19);
    const repo = new SoundtracksRepository(db, () => 5);
    sequence(db, 's1');
    expect(repo.get('s1')).toMatchObject({ music: null, musicGainDb: -12, duckDb: 12 });
    repo.setMusic('s1', { source: 'generated', prompt: 'calm piano', model: 'm', idempotencyKey: 'k1' });
    repo.setLevels('s1', { duckDb: 18 });
    expect(repo.get('s1')).toEqual({
      sequenceId: 's1',
      music: { source: 'generated', prompt: 'calm piano', model: 'm', idempotencyKey: 'k1' },
      musicGainDb: -12,
      duckDb: 18,
      updatedAt: 5,
    });
    repo.setMusic('s1', { source: 'library', jobRowId: 7 });
    expect(repo.get('s1').music).toEqual({ source: 'library', jobRowId: 7 });
    repo.addVoice({
      id: 'b',
      sequenceId: 's1',
      source: 'generated',
      text: 'Later',
      atSeconds: 4,
      gainDb: 0,
      idempotencyKey: 'kb',
    });
    repo.addVoice({
      id: 'a',
      sequenceId: 's1',
      source: 'file',
      text: '',
      atSeconds: 1,
      gainDb: -3,
      filePath: '/lib/a.wav',
      fileName: 'a.wav',
      fileSha256: 'f'.repeat(64),
    });
    expect(repo.voices('s1').map((v) => v.id)).toEqual(['a', 'b']);
    repo.updateVoice('a', { atSeconds: 6 });
    repo.setTranscript('a', [{ start: 0, end: 1.5, text: 'hello' }]);
    expect(repo.voices('s1').map((v) => v.id)).toEqual(['b', 'a']);
    expect(repo.voice('a')).toMatchObject({
      atSeconds: 6,
      gainDb: -3,
      transcript: [{ start: 0, end: 1.5, text: 'hello' }],
    });
  });

  it('refuses a generated line without its key, a file line without its file, and a negative duck', () => {
    const db = migratedTo(19);
    const repo = new SoundtracksRepository(db, () => 1);
    sequence(db, 's1');
    expect(() =>
      repo.addVoice({ id: 'x', sequenceId: 's1', source: 'generated', text: 'Hi', atSeconds: 0, gainDb: 0 }),
    ).toThrow(/CHECK/);
    expect(() =>
      repo.addVoice({ id: 'y', sequenceId: 's1', source: 'file', text: '', atSeconds: 0, gainDb: 0 }),
    ).toThrow(/CHECK/);
    expect(() => repo.setLevels('s1', { duckDb: -3 })).toThrow(/CHECK/);
  });

  it('goes with its sequence', () => {
    const db = migratedTo(19);
    const repo = new SoundtracksRepository(db, () => 1);
    sequence(db, 's1');
    repo.setLevels('s1', { musicGainDb: -6 });
    repo.addVoice({
      id: 'a',
      sequenceId: 's1',
      source: 'generated',
      text: 'Hi',
      atSeconds: 0,
      gainDb: 0,
      idempotencyKey: 'k',
    });
    db.prepare("DELETE FROM sequences WHERE id = 's1'").run();
    expect(db.prepare('SELECT count(*) FROM sequence_soundtracks').pluck().get()).toBe(0);
    expect(repo.voices('s1')).toEqual([]);
  });
});
