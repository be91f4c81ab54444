import type { Database } from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrations } from '../../../../src/main/core/journal/migrations/index.js';
import { migration021JobMarks } from '../../../../src/main/core/journal/migrations/021-job-marks.js';
import { MarksRepository } from '../../../../src/main/core/journal/marks-repository.js';
import { migratedTo, tables, withSucceededJobs } from './schema-helpers.js';

/** A fresh journal migrated up to (and, unless `before`, including) 021, with two jobs. */
function journal(before = false): Database {
  const db = migratedTo(before ? 20 : 21);
  withSucceededJobs(db, [1, 2]);
  return db;
}

describe('migration 021-job-marks', () => {
  it('is version 21 and adds the marks of results', () => {
    expect(migration021JobMarks.version).toBe(21);
    expect(migrations).toContain(migration021JobMarks);
    const added = tables(journal()).filter((t) => !tables(journal(true)).includes(t));
    expect(added).toEqual(['job_marks']);
  });

  it('keeps a job’s flag, stars and label; the defaults leave no row; read for a page at once', () => {
    const db = journal();
    const marks = new MarksRepository(db, () => 7);
    expect(marks.get(1)).toEqual({ flag: null, stars: 0, label: null });
    expect(marks.set(1, { flag: 'pick', stars: 4, label: 'green' })).toEqual({
      flag: 'pick',
      stars: 4,
      label: 'green',
    });
    marks.set(2, { flag: 'reject', stars: 0, label: null });
    expect(marks.forJobs([1, 2, 3])).toEqual(
      new Map([
        [1, { flag: 'pick', stars: 4, label: 'green' }],
        [2, { flag: 'reject', stars: 0, label: null }],
      ]),
    );
    marks.set(2, { flag: null, stars: 0, label: null });
    expect(db.prepare('SELECT job_row_id FROM job_marks').all()).toEqual([{ job_row_id: 1 }]);
  });

  it('refuses what is not a mark, and a job’s marks go with it', () => {
    const db = journal();
    const marks = new MarksRepository(db);
    expect(() => marks.set(1, { flag: null, stars: 6, label: null })).toThrow(/CHECK/);
    expect(() => marks.set(1, { flag: 'maybe' as 'pick', stars: 1, label: null })).toThrow(/CHECK/);
    expect(() => marks.set(1, { flag: null, stars: 1, label: 'pink' as 'red' })).toThrow(/CHECK/);
    expect(() => marks.set(99, { flag: 'pick', stars: 1, label: null })).toThrow(/FOREIGN KEY/);
    marks.set(1, { flag: 'pick', stars: 5, label: null });
    db.prepare('DELETE FROM jobs WHERE id = 1').run();
    expect(marks.forJobs([1]).size).toBe(0);
  });
});
