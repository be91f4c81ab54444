import type { Database } from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrations } from '../../../../src/main/core/journal/migrations/index.js';
import { migration022JobNotes } from '../../../../src/main/core/journal/migrations/022-job-notes.js';
import { NotesRepository } from '../../../../src/main/core/journal/notes-repository.js';
import { migratedTo, tables, withSucceededJobs } from './schema-helpers.js';

/** A fresh journal migrated up to (and, unless `before`, including) 022, with two jobs. */
function journal(before = false): Database {
  const db = migratedTo(before ? 21 : 22);
  withSucceededJobs(db, [1, 2]);
  return db;
}

describe('migration 022-job-notes', () => {
  it('is version 22 and adds the notes of results', () => {
    expect(migration022JobNotes.version).toBe(22);
    expect(migrations).toContain(migration022JobNotes);
    const added = tables(journal()).filter((t) => !tables(journal(true)).includes(t));
    expect(added).toEqual(['job_notes']);
  });

  it('keeps notes in time order with or without a rectangle, edits, deletes and finds them by text', () => {
    const notes = new NotesRepository(journal(), () => 5);
    notes.add({
      id: 'b',
      jobRowId: 1,
      atSeconds: 3.2,
      text: 'The hand melts',
      rect: { x: 0.1, y: 0.2, width: 0.3, height: 0.4 },
    });
    notes.add({ id: 'a', jobRowId: 1, atSeconds: 0.5, text: 'Nice 100% light', rect: null });
    notes.add({ id: 'c', jobRowId: 2, atSeconds: 1, text: 'melts too', rect: null });
    expect(notes.forJob(1).map((n) => [n.id, n.atSeconds, n.rect])).toEqual([
      ['a', 0.5, null],
      ['b', 3.2, { x: 0.1, y: 0.2, width: 0.3, height: 0.4 }],
    ]);
    expect(notes.update('b', { atSeconds: 4, text: 'Still melts', rect: null })).toMatchObject({
      atSeconds: 4,
      rect: null,
    });
    expect(notes.update('nope', { atSeconds: 1, text: 'x', rect: null })).toBeUndefined();
    expect(notes.jobsWithText('MELTS')).toEqual([2, 1]);
    // % and _ are text, not wildcards
    expect(notes.jobsWithText('100%')).toEqual([1]);
    expect(notes.jobsWithText('_')).toEqual([]);
    expect(notes.delete('a')).toBe(true);
    expect(notes.count(1)).toBe(1);
  });

  it('refuses a note off the frame, half a rectangle, empty text or no job; notes go with their job', () => {
    const db = journal();
    const notes = new NotesRepository(db);
    const add = (over: Partial<Parameters<NotesRepository['add']>[0]>) =>
      notes.add({ id: String(Math.random()), jobRowId: 1, atSeconds: 1, text: 'x', rect: null, ...over });
    expect(() => add({ rect: { x: 0.9, y: 0, width: 0.2, height: 0.1 } })).toThrow(/CHECK/);
    expect(() => add({ text: '   ' })).toThrow(/CHECK/);
    expect(() => add({ atSeconds: -1 })).toThrow(/CHECK/);
    expect(() =>
      db
        .prepare(
          "INSERT INTO job_notes (id, job_row_id, at_seconds, text, rect_x, created_at, updated_at) VALUES ('h', 1, 0, 'x', 0.1, 0, 0)",
        )
        .run(),
    ).toThrow(/CHECK/);
    expect(() => add({ jobRowId: 99 })).toThrow(/FOREIGN KEY/);
    add({ id: 'kept' });
    db.prepare('DELETE FROM jobs WHERE id = 1').run();
    expect(notes.get('kept')).toBeUndefined();
  });
});
