import BetterSqlite3 from 'better-sqlite3';
import type { Database, Statement } from 'better-sqlite3';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Journal } from '../../../src/main/core/journal/open-journal.js';
import type { JobStatus, LeaseOwner } from '../../../src/main/core/journal/jobs-repository.js';
import { tempJournal } from './helpers.js';

let t: ReturnType<typeof tempJournal>;
afterEach(() => t.cleanup());

const OWNER: LeaseOwner = { id: 'cli:1:a', pid: 4242, host: 'here' };
const alive = () => true;

/** Tables that grow with the library: a plan may read them by key or range, never whole. */
const GROWING_TABLES = ['jobs', 'job_intents', 'outputs'];

/** Every SQL statement `work` executes, with its arguments, as the journal's data layer ran it. */
function statementsRunBy(work: () => void): { sql: string; args: unknown[] }[] {
  const proto = Object.getPrototypeOf(new BetterSqlite3(':memory:').prepare('SELECT 1')) as Statement;
  const spies = (['run', 'get', 'all', 'iterate'] as const).map((method) => vi.spyOn(proto, method));
  try {
    work();
    return spies.flatMap((spy) =>
      spy.mock.contexts.map((statement, i) => ({
        sql: (statement as Statement).source,
        args: spy.mock.calls[i]!,
      })),
    );
  } finally {
    for (const spy of spies) spy.mockRestore();
  }
}

function plan(db: Database, sql: string, args: unknown[]): string[] {
  return (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...args) as { detail: string }[]).map((r) => r.detail);
}

/** Names of partial indexes: they hold only the rows their WHERE keeps (unfinished work). */
function partialIndexes(db: Database): Set<string> {
  const rows = db
    .prepare("SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL")
    .all() as { name: string; sql: string }[];
  return new Set(rows.filter((r) => /\bWHERE\b/i.test(r.sql)).map((r) => r.name));
}

/** The plan lines that read a growing table whole (a SCAN not through a partial index). */
function fullScans(db: Database, lines: string[]): string[] {
  const partial = partialIndexes(db);
  return lines.filter((line) => {
    const scan = /^SCAN (\w+)(?: USING (?:COVERING )?INDEX (\w+))?/.exec(line);
    if (!scan || !GROWING_TABLES.includes(scan[1]!)) return false;
    return !(scan[2] && partial.has(scan[2]));
  });
}

/** A journal with finished jobs (verified outputs), and unfinished work of every kind. */
function seeded(): Journal {
  t = tempJournal();
  const journal = t.journal;
  journal.profiles.create({ id: 'sim', name: 'Simulator', kind: 'simulator' });
  journal.profiles.create({
    id: 'work',
    name: 'Work',
    kind: 'personal',
    baseUrl: 'https://api.example.com/v1',
  });
  const accept = (key: string, status: JobStatus, profileId = 'sim') => {
    journal.jobs.recordIntent({
      idempotencyKey: key,
      profileId,
      model: 'h3',
      serviceKind: 'video_generation',
      body: { prompt: key },
    });
    return journal.jobs.markAccepted(key, {
      jobId: `job-${key}`,
      requestId: `req-${key}`,
      status,
      outputs: status === 'succeeded' ? [{ assetId: `asset-${key}`, mimeType: 'video/mp4' }] : undefined,
    });
  };
  for (let i = 0; i < 30; i += 1) {
    const job = accept(`done-${i}`, 'succeeded', i % 2 ? 'work' : 'sim');
    journal.outputs.markVerified(job.outputs[0]!.id, {
      localPath: `/library/done-${i}.mp4`,
      sha256: 'a'.repeat(64),
      byteSize: 10,
      mimeType: 'video/mp4',
    });
  }
  accept('running', 'running');
  const downloading = accept('downloading', 'succeeded');
  journal.outputs.markDownloading(downloading.outputs[0]!.id, '/library/.incoming/downloading.part');
  journal.jobs.acquireLease(downloading.intentId, OWNER, 30_000, alive);
  journal.jobs.recordIntent({
    idempotencyKey: 'unsent',
    profileId: 'sim',
    model: 'h3',
    serviceKind: 'video_generation',
    body: { prompt: 'unsent' },
  });
  return journal;
}

describe('the journal reads unfinished work and pages without scanning the jobs it has finished', () => {
  it('runs the resume list, queue pages, filtered pages and the lease sweep through indexes (EXPLAIN QUERY PLAN)', () => {
    const journal = seeded();
    const firstPage = journal.jobs.listJobs({ limit: 5 });
    const operations: Record<string, () => unknown> = {
      'resume list': () => {
        const work = journal.jobs.listUnfinished();
        expect(work.intents.map((i) => i.idempotencyKey)).toEqual(['unsent']);
        expect(work.jobsToPoll.map((j) => j.jobId)).toEqual(['job-running']);
        expect(work.jobsToDownload.map((j) => j.jobId)).toEqual(['job-downloading']);
      },
      'unfinished optimizations': () => journal.optimizations.listUnfinished(),
      'queue page': () => expect(journal.jobs.listJobs({ limit: 5 }).items).toHaveLength(5),
      'next queue page': () =>
        expect(journal.jobs.listJobs({ limit: 5, cursor: firstPage.nextCursor }).items).toHaveLength(5),
      'page by status': () =>
        expect(journal.jobs.listJobs({ status: 'succeeded', limit: 5 }).items).toHaveLength(5),
      'page by profile': () =>
        expect(journal.jobs.listJobs({ profileId: 'work', limit: 5 }).items).toHaveLength(5),
      'deep page by profile and status': () => {
        const first = journal.jobs.listJobs({ profileId: 'work', status: 'succeeded', limit: 5 });
        const next = journal.jobs.listJobs({
          profileId: 'work',
          status: 'succeeded',
          limit: 5,
          cursor: first.nextCursor,
        });
        expect(next.items).toHaveLength(5);
      },
      'lease sweep': () =>
        expect([...journal.jobs.liveDownloadTempPaths(alive)]).toEqual([
          '/library/.incoming/downloading.part',
        ]),
      'lease take, renew, read and release': () => {
        const intentId = journal.jobs.getIntent('running')!.id;
        expect(journal.jobs.acquireLease(intentId, OWNER, 30_000, alive)).toEqual({ acquired: true });
        expect(journal.jobs.renewLease(intentId, OWNER, 30_000)).toBe(true);
        expect(journal.jobs.getLease(intentId)?.id).toBe(OWNER.id);
        journal.jobs.releaseLease(intentId, OWNER);
      },
    };
    const scans: Record<string, string[]> = {};
    for (const [name, operation] of Object.entries(operations)) {
      const statements = statementsRunBy(operation);
      expect(statements.length, name).toBeGreaterThan(0);
      for (const { sql, args } of statements) {
        const found = fullScans(journal.database, plan(journal.database, sql, args));
        if (found.length) scans[`${name}: ${sql.replace(/\s+/g, ' ')}`] = found;
      }
    }
    expect(scans).toEqual({});
  });

  it('reads the jobs to poll from the in-progress index, already in due order', () => {
    const journal = seeded();
    const statements = statementsRunBy(() => journal.jobs.listUnfinished());
    const poll = statements.find((s) => /FROM jobs\b/.test(s.sql) && /running/.test(s.sql));
    expect(plan(journal.database, poll!.sql, poll!.args)).toEqual(['SCAN jobs USING INDEX jobs_in_progress']);
  });
});
