import BetterSqlite3 from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { prepareRows } from '../../../src/main/core/journal/row-objects.js';
import { tempJournal } from './helpers.js';

const db = new BetterSqlite3(':memory:');
db.exec(`
  CREATE TABLE things (id INTEGER PRIMARY KEY, name TEXT, size REAL, data BLOB, note TEXT, "odd ""name"", with: marks" TEXT);
  CREATE TABLE tags (id INTEGER PRIMARY KEY, thing_id INTEGER, name TEXT);
  INSERT INTO things VALUES (1, 'one', 1.5, x'00ff', NULL, 'a'), (2, 'two', NULL, NULL, 'n', NULL);
  INSERT INTO tags VALUES (10, 1, 'tag of one');
`);

/** The same statement read as better-sqlite3's own row objects, the reference. */
const reference = (sql: string, ...params: unknown[]) => db.prepare(sql).all(...params);

describe('rows read as arrays and made into objects by a compiled literal', () => {
  it('are the objects better-sqlite3 makes: every column, its value and type, in order', () => {
    const sql = 'SELECT * FROM things ORDER BY id';
    const rows = prepareRows<Record<string, unknown>>(db, sql).all();
    expect(rows).toEqual(reference(sql));
    expect(rows.map((row) => Object.keys(row))).toEqual(
      reference(sql).map((row) => Object.keys(row as object)),
    );
    expect(rows[0]!.data).toEqual(Buffer.from([0, 255]));
    expect(rows[0]!.note).toBeNull();
    expect(rows[0]!['odd "name", with: marks']).toBe('a');
    expect(Object.getPrototypeOf(rows[0])).toBe(Object.prototype);
  });

  it('take positional and named parameters, and get answers undefined when no row matches', () => {
    const reader = prepareRows<{ id: number; name: string }>(db, 'SELECT id, name FROM things WHERE id = ?');
    expect(reader.get(2)).toEqual({ id: 2, name: 'two' });
    expect(reader.get(3)).toBeUndefined();
    expect(reader.all(3)).toEqual([]);
    const named = prepareRows<{ id: number }>(db, 'SELECT id FROM things WHERE id >= @from ORDER BY id');
    expect(named.all({ from: 1 })).toEqual([{ id: 1 }, { id: 2 }]);
  });

  it('let a later column of the same name override an earlier one, as better-sqlite3 does', () => {
    const sql = 'SELECT things.*, tags.* FROM things JOIN tags ON tags.thing_id = things.id';
    const [row] = prepareRows<Record<string, unknown>>(db, sql).all();
    expect(row).toEqual(reference(sql)[0]);
    expect(row).toMatchObject({ id: 10, name: 'tag of one', size: 1.5 });
  });

  it('refuse a column named __proto__ rather than set the object’s prototype', () => {
    expect(() => prepareRows(db, 'SELECT 1 AS "__proto__"')).toThrow(/__proto__/);
  });

  it('refuse a statement that returns no rows', () => {
    expect(() => prepareRows(db, 'DELETE FROM things WHERE id = 0')).toThrow();
  });
});

describe('the journal’s lists read this way', () => {
  let t: ReturnType<typeof tempJournal>;
  afterEach(() => t.cleanup());

  it('answer every listed job and its outputs as the job read on its own says', () => {
    t = tempJournal();
    const { jobs, outputs, profiles } = t.journal;
    profiles.create({ id: 'sim', name: 'sim', kind: 'simulator' });
    for (let i = 1; i <= 3; i += 1) {
      jobs.recordIntent({
        idempotencyKey: `key-${i}-abcdefgh`,
        profileId: 'sim',
        model: 'lumen-image',
        serviceKind: 'image_generation',
        body: { prompt: `prompt ${i}` },
      });
      jobs.markAccepted(`key-${i}-abcdefgh`, {
        jobId: `job-${i}`,
        requestId: `req-${i}`,
        status: 'running',
        effectiveSpec: { fps: 24 },
        outputs: [
          { assetId: `asset-${i}`, contentUrl: `https://example.invalid/${i}`, mimeType: 'image/png' },
        ],
      });
    }
    const listed = jobs.listJobs({ limit: 50 }).items;
    expect(listed.map((job) => job.jobId)).toEqual(['job-3', 'job-2', 'job-1']);
    for (const job of listed) {
      const { lastBody: _lastBody, outputs: alone, ...read } = jobs.getJob(job.id)!;
      expect(job).toEqual(read);
      expect(outputs.listForJobs([job.id]).get(job.id)).toEqual(alone);
      expect(outputs.listForJob(job.id)).toEqual(alone);
    }
    expect(listed[0]!.effectiveSpec).toEqual({ fps: 24 });
  });
});
