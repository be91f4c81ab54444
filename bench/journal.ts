/**
 * The journal at 100,000 jobs: a page of the queue, a filtered deep page and the resume list
 * (goal < 50 ms each), against the same operations at 1,000 jobs.
 */
import { rmSync } from 'node:fs';
import path from 'node:path';
import { openJournal, type Journal } from '../src/main/core/journal/open-journal.js';
import { prepareRows } from '../src/main/core/journal/row-objects.js';
import { timeSync, type BenchRow } from './measure.js';

const WORK = path.resolve(import.meta.dirname, '.work');

function seedJournal(count: number): Journal {
  const file = path.join(WORK, `journal-${count}.sqlite`);
  for (const suffix of ['', '-wal', '-shm']) rmSync(file + suffix, { force: true });
  const journal = openJournal({ path: file });
  journal.profiles.create({ id: 'sim', name: 'sim', kind: 'simulator' });
  journal.profiles.create({
    id: 'work',
    name: 'work',
    kind: 'personal',
    baseUrl: 'https://example.invalid/v1',
  });
  journal.database.exec(`
    WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < ${count - 1})
    INSERT INTO job_intents (id, idempotency_key, profile_id, model, service_kind, canonical_body_json, state, created_at, updated_at)
    SELECT i + 1, 'bulk-' || i, CASE i % 2 WHEN 1 THEN 'work' ELSE 'sim' END, 'h3', 'video_generation',
      json_object('prompt', 'scene ' || i), 'accepted', 0, 0 FROM n;
    INSERT INTO jobs (id, intent_id, profile_id, model, service_kind, job_id, request_id, status, accepted_at, updated_at)
    SELECT id, id, profile_id, 'h3', 'video_generation', 'job-' || (id - 1), 'req',
      CASE WHEN (id - 1) % 1000 = 0 THEN 'running' ELSE 'succeeded' END, 0, 0 FROM job_intents;
  `);
  return journal;
}

export async function benchJournal(): Promise<BenchRow[]> {
  const small = seedJournal(1_000);
  const large = seedJournal(100_000);
  const ops: [string, (j: Journal) => unknown][] = [
    ['list a page of jobs', (j) => j.jobs.listJobs({ limit: 50 })],
    [
      'list a filtered deep page',
      (j) => {
        const first = j.jobs.listJobs({ status: 'succeeded', profileId: 'work', limit: 50 });
        return j.jobs.listJobs({
          status: 'succeeded',
          profileId: 'work',
          limit: 50,
          cursor: first.nextCursor,
        });
      },
    ],
    ['list unfinished work (resume)', (j) => j.jobs.listUnfinished()],
  ];
  const rows: BenchRow[] = [];
  try {
    for (const [name, op] of ops) {
      const at1k = timeSync(() => op(small));
      const at100k = timeSync(() => op(large));
      rows.push({
        name: `journal at 100,000 jobs: ${name}`,
        ratio: at100k / 50,
        goal: 'goal < 1.00 of 50 ms',
        ok: at100k < 50,
        detail:
          `${at100k.toFixed(2)} ms at 100,000 (${at1k.toFixed(2)} ms at 1,000: ${(at100k / Math.max(at1k, 0.001)).toFixed(1)}×)` +
          // the seed keeps 1 job in 1,000 running, so the unfinished work itself grows 100×; the
          // resume list at equal unfinished work is the CLI bench's row
          (name.startsWith('list unfinished')
            ? `; ${small.jobs.listUnfinished().jobsToPoll.length} vs ${large.jobs.listUnfinished().jobsToPoll.length} unfinished jobs`
            : ''),
      });
    }
    rows.push(compiledRowObjects(small));
  } finally {
    small.close();
    large.close();
  }
  return rows;
}

/**
 * A page of 50 listed jobs read as `prepareRows` (arrays made into objects by a compiled literal,
 * how the journal's lists read) against the same statement's better-sqlite3 row objects.
 */
function compiledRowObjects(journal: Journal): BenchRow {
  const sql = 'SELECT * FROM jobs WHERE id < ? ORDER BY id DESC LIMIT 51';
  const native = journal.database.prepare(sql);
  const compiled = prepareRows(journal.database, sql);
  const tenReads = (read: () => unknown) => () => {
    for (let i = 0; i < 10; i += 1) read();
  };
  const nativeMs =
    timeSync(
      tenReads(() => native.all(Number.MAX_SAFE_INTEGER)),
      200,
    ) / 10;
  const compiledMs =
    timeSync(
      tenReads(() => compiled.all(Number.MAX_SAFE_INTEGER)),
      200,
    ) / 10;
  return {
    name: 'journal: a page of 50 jobs read as compiled row objects vs better-sqlite3’s row objects',
    ratio: compiledMs / nativeMs,
    goal: '≤ 0.75×',
    ok: compiledMs / nativeMs <= 0.75,
    detail: `${(compiledMs * 1000).toFixed(0)} µs vs ${(nativeMs * 1000).toFixed(0)} µs a page`,
  };
}
