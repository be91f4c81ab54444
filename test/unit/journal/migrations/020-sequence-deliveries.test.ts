import BetterSqlite3 from 'better-sqlite3';
import type { Database } from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { runMigrations } from '../../../../src/main/core/journal/migrator.js';
import { migrations } from '../../../../src/main/core/journal/migrations/index.js';
import { migration020SequenceDeliveries } from '../../../../src/main/core/journal/migrations/020-sequence-deliveries.js';
import { DeliveriesRepository } from '../../../../src/main/core/journal/deliveries-repository.js';
import { tables } from './schema-helpers.js';

/** A fresh journal with every migration up to (and, unless `before`, including) 020. */
function journal(before = false): Database {
  const db = new BetterSqlite3(':memory:');
  db.pragma('foreign_keys = ON');
  runMigrations(
    db,
    migrations.filter((m) => (before ? m.version < 20 : m.version <= 20)),
  );
  db.prepare("INSERT INTO sequences (id, name, created_at, updated_at) VALUES ('s1', 'Film', 0, 0)").run();
  return db;
}

const delivery = {
  id: 'd1',
  sequenceId: 's1',
  preset: '9x16' as const,
  fit: 'crop' as const,
  loudnessTarget: -14,
  burnCaptions: true,
  reuseKey: 'a'.repeat(64),
};

const facts = {
  localPath: '/library/sequences/deliveries/film-9x16.mp4',
  sidecarPath: '/library/sequences/deliveries/film-9x16.json',
  sha256: 'b'.repeat(64),
  byteSize: 1234,
  durationSeconds: 10,
  measuredLufs: -14.2,
};

describe('migration 020-sequence-deliveries', () => {
  it('is version 20 and adds the deliveries of sequences', () => {
    expect(migration020SequenceDeliveries.version).toBe(20);
    expect(migrations).toContain(migration020SequenceDeliveries);
    const added = tables(journal()).filter((t) => !tables(journal(true)).includes(t));
    expect(added).toEqual(['sequence_deliveries']);
  });

  it('records a delivery rendering, then its verified file, and answers it by reuse key', () => {
    const repo = new DeliveriesRepository(journal(), () => 5);
    const started = repo.start(delivery);
    expect(started).toMatchObject({ state: 'rendering', burnCaptions: true, preset: '9x16', fit: 'crop' });
    expect(repo.withReuseKey('s1', delivery.reuseKey)?.id).toBe('d1');
    expect(repo.rendering().map((d) => d.id)).toEqual(['d1']);
    expect(repo.finish('d1', facts)).toBe(true);
    expect(repo.get('d1')).toMatchObject({ state: 'ready', ...facts });
    expect(repo.rendering()).toEqual([]);
    expect(repo.ofSequence('s1').map((d) => d.id)).toEqual(['d1']);
  });

  it('a cancelled delivery is never reused nor finished afterwards', () => {
    const repo = new DeliveriesRepository(journal(), () => 5);
    repo.start(delivery);
    expect(repo.end('d1', 'cancelled', 'The delivery was cancelled.')).toBe(true);
    expect(repo.finish('d1', facts)).toBe(false);
    expect(repo.get('d1')?.state).toBe('cancelled');
    expect(repo.withReuseKey('s1', delivery.reuseKey)).toBeUndefined();
  });

  it('refuses an unknown preset or fit, a ready row without its file, and goes with its sequence', () => {
    const db = journal();
    const repo = new DeliveriesRepository(db, () => 5);
    expect(() => repo.start({ ...delivery, preset: '4x3' as never })).toThrow(/CHECK/);
    expect(() => repo.start({ ...delivery, id: 'd2', fit: 'stretch' as never })).toThrow(/CHECK/);
    repo.start(delivery);
    expect(() => db.prepare("UPDATE sequence_deliveries SET state = 'ready' WHERE id = 'd1'").run()).toThrow(
      /CHECK/,
    );
    db.prepare("DELETE FROM sequences WHERE id = 's1'").run();
    expect(repo.get('d1')).toBeUndefined();
  });
});
