import { describe, expect, it } from 'vitest';
import { migration010EventCursors } from '../../../../src/main/core/journal/migrations/010-event-cursors.js';
import { EventCursorsRepository } from '../../../../src/main/core/journal/event-cursors-repository.js';
import { columns, migratedTo, tables } from './schema-helpers.js';

describe('migration 010-event-cursors', () => {
  it('is version 10 and adds event_cursors: one numeric cursor per stream', () => {
    expect(migration010EventCursors.version).toBe(10);
    const before = tables(migratedTo(9));
    const db = migratedTo(10);
    expect(tables(db).filter((t) => !before.includes(t))).toEqual(['event_cursors']);
    expect(Object.keys(columns(db, 'event_cursors'))).toEqual(['stream', 'cursor', 'updated_at']);
    expect(columns(db, 'event_cursors').stream).toMatchObject({ pk: true });

    const insert = db.prepare('INSERT INTO event_cursors (stream, cursor, updated_at) VALUES (?, ?, 0)');
    insert.run('events', '42');
    expect(() => insert.run('events', '43')).toThrow(/UNIQUE|PRIMARY KEY/);
    // a job id is never a cursor
    expect(() => insert.run('other', 'pjob_123')).toThrow(/CHECK/);
    expect(() => insert.run('other', '-1')).toThrow(/CHECK/);
    expect(() => insert.run('other', '')).toThrow(/CHECK/);
  });

  it('the repository keeps the last acknowledged cursor and refuses a non-numeric one', () => {
    const repo = new EventCursorsRepository(migratedTo(10), () => 5);
    expect(repo.get('events')).toBeUndefined();
    repo.set('events', '7');
    repo.set('events', '12345678901234567890');
    expect(repo.get('events')).toBe('12345678901234567890');
    expect(() => repo.set('events', 'pjob_1')).toThrow(/non-negative integer/);
    expect(repo.get('events')).toBe('12345678901234567890');
  });
});
