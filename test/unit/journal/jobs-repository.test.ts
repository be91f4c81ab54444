import { afterEach, describe, expect, it } from 'vitest';
import BetterSqlite3 from 'better-sqlite3';
import { IdempotencyConflictError, JournalStateError } from '../../../src/main/core/journal/errors.js';
import type { Acceptance, NewIntent } from '../../../src/main/core/journal/jobs-repository.js';
import { openJournal } from '../../../src/main/core/journal/open-journal.js';
import { tempJournal, SHA_A } from './helpers.js';

let t: ReturnType<typeof tempJournal>;
afterEach(() => t.cleanup());

function setup() {
  t = tempJournal();
  t.journal.profiles.create({ id: 'sim', name: 'Simulator', kind: 'simulator' });
  t.journal.profiles.create({
    id: 'work',
    name: 'Work',
    kind: 'personal',
    baseUrl: 'https://api.example.com/v1',
  });
  return t.journal;
}

const intent = (key: string, prompt = 'a red kite over the dunes', profileId = 'sim'): NewIntent => ({
  idempotencyKey: key,
  profileId,
  model: 'h3',
  serviceKind: 'video_generation',
  body: {
    prompt,
    model: 'h3',
    seconds: 5,
    orientation: 'landscape',
    generationMode: 't2v',
    resolutionTier: '768p',
  },
  draftId: 'draft-1',
});

const accepted = (jobId: string, extra: Partial<Acceptance> = {}): Acceptance => ({
  jobId,
  requestId: `req-${jobId}`,
  jobUrl: `https://api.example.com/v1/jobs/${jobId}?model=h3`,
  status: 'queued',
  stage: 'queued',
  refreshAfterSeconds: 2,
  retryAfterSeconds: 2,
  body: { jobId, status: 'queued', somethingNew: true },
  ...extra,
});

describe('JobsRepository: intents', () => {
  it('records an intent with its canonical body before anything is sent, readable from a second connection', () => {
    const journal = setup();
    const recorded = journal.jobs.recordIntent(intent('key-1'));
    expect(recorded).toMatchObject({ idempotencyKey: 'key-1', state: 'pending_create', attemptCount: 0 });
    // Keys sorted, no whitespace: the exact bytes that are sent and replayed.
    expect(recorded.canonicalBodyJson).toBe(
      '{"generationMode":"t2v","model":"h3","orientation":"landscape","prompt":"a red kite over the dunes","resolutionTier":"768p","seconds":5}',
    );
    // Committed: another process sees it at once (no open transaction is left behind).
    const other = new BetterSqlite3(t.file, { readonly: true });
    expect(
      other.prepare('SELECT state FROM job_intents WHERE idempotency_key = ?').pluck().get('key-1'),
    ).toBe('pending_create');
    other.close();
    // The durable commit switched synchronous back to NORMAL.
    expect(journal.database.pragma('synchronous', { simple: true })).toBe(1);
  });

  it('is idempotent for the same key and body, and refuses the key for a different body or profile', () => {
    const journal = setup();
    const first = journal.jobs.recordIntent(intent('key-1'));
    const reordered = { ...intent('key-1'), body: { ...(intent('key-1').body as object), seconds: 5 } };
    expect(journal.jobs.recordIntent(reordered).id).toBe(first.id);
    expect(() => journal.jobs.recordIntent(intent('key-1', 'another prompt'))).toThrow(
      IdempotencyConflictError,
    );
    expect(() => journal.jobs.recordIntent(intent('key-1', undefined, 'work'))).toThrow(
      IdempotencyConflictError,
    );
    expect(() => journal.jobs.recordIntent(intent('bad key with spaces'))).toThrow(/visible ASCII/);
  });

  it('counts attempts, marks an unknown outcome, and a rejection ends the intent', () => {
    const journal = setup();
    journal.jobs.recordIntent(intent('key-1'));
    journal.jobs.markAttempt('key-1');
    expect(journal.jobs.markUnknown('key-1', 'socket hang up')).toMatchObject({
      state: 'unknown',
      attemptCount: 1,
      errorMessage: 'socket hang up',
    });
    journal.jobs.markAttempt('key-1');
    const rejected = journal.jobs.markRejected('key-1', {
      statusCode: 402,
      errorCode: 'insufficient_balance',
      errorMessage: 'Top up',
      requestId: 'r1',
      retryable: false,
    });
    expect(rejected).toMatchObject({ state: 'rejected', attemptCount: 2, statusCode: 402, retryable: false });
    expect(() => journal.jobs.markAttempt('key-1')).toThrow(JournalStateError);
    expect(() => journal.jobs.markAccepted('key-1', accepted('job-1'))).toThrow(/rejected/);
    expect(journal.jobs.listUnfinished().intents).toEqual([]);
  });
});

describe('JobsRepository: acceptance, polling, outputs', () => {
  it('commits the acceptance (jobId, requestId, jobUrl) with the intent state in one step', () => {
    const journal = setup();
    journal.jobs.recordIntent(intent('key-1'));
    const job = journal.jobs.markAccepted('key-1', accepted('job-1', { nextPollAt: t.clock.now + 2000 }));
    expect(job).toMatchObject({
      jobId: 'job-1',
      requestId: 'req-job-1',
      jobUrl: 'https://api.example.com/v1/jobs/job-1?model=h3',
      status: 'queued',
      profileId: 'sim',
      model: 'h3',
      nextPollAt: t.clock.now + 2000,
      lastBody: { jobId: 'job-1', status: 'queued', somethingNew: true },
      outputs: [],
    });
    expect(journal.jobs.getIntent('key-1')).toMatchObject({ state: 'accepted', requestId: 'req-job-1' });
    // A replay answered with the same job is harmless; a different jobId is a contradiction.
    expect(journal.jobs.markAccepted('key-1', accepted('job-1')).id).toBe(job.id);
    expect(() => journal.jobs.markAccepted('key-1', accepted('job-2'))).toThrow(JournalStateError);
    expect(journal.jobs.getJobByJobId('sim', 'job-1')?.id).toBe(job.id);
  });

  it('rolls the acceptance back as a whole when part of it fails', () => {
    const journal = setup();
    journal.jobs.recordIntent(intent('key-1'));
    journal.jobs.recordIntent(intent('key-2', 'other'));
    journal.jobs.markAccepted('key-1', accepted('job-1'));
    // Same jobId under the same profile violates UNIQUE(profile_id, job_id) after the intent update ran.
    expect(() => journal.jobs.markAccepted('key-2', accepted('job-1'))).toThrow(/UNIQUE/);
    expect(journal.jobs.getIntent('key-2')?.state).toBe('pending_create');
  });

  it('records polls without losing earlier facts, stops scheduling at a terminal status and never regresses', () => {
    const journal = setup();
    journal.jobs.recordIntent(intent('key-1'));
    const job = journal.jobs.markAccepted('key-1', accepted('job-1'));
    t.clock.now += 2000;
    const running = journal.jobs.recordPoll(job.id, {
      status: 'running',
      stage: 'rendering',
      stageMessage: 'Rendering frames',
      startedAt: t.clock.now - 500,
      refreshAfterSeconds: 5,
      nextPollAt: t.clock.now + 5000,
    });
    expect(running).toMatchObject({
      status: 'running',
      pollCount: 1,
      lastPolledAt: t.clock.now,
      nextPollAt: t.clock.now + 5000,
    });
    const succeeded = journal.jobs.recordPoll(job.id, {
      status: 'succeeded',
      completedAt: t.clock.now,
      effectiveSpec: { width: 1376, height: 768, fps: 24 },
      nextPollAt: t.clock.now + 5000,
      outputs: [
        {
          assetId: 'out-1',
          contentUrl: 'https://api.example.com/v1/assets/out-1/content?model=h3',
          sha256: SHA_A.toUpperCase(),
          byteSize: 10,
          mimeType: 'video/mp4',
          kind: 'video',
        },
      ],
    });
    expect(succeeded).toMatchObject({
      status: 'succeeded',
      stage: 'rendering', // absent from this response: kept
      startedAt: t.clock.now - 500,
      nextPollAt: undefined,
      effectiveSpec: { width: 1376, height: 768, fps: 24 },
    });
    expect(succeeded.outputs).toMatchObject([
      { position: 0, assetId: 'out-1', expectedSha256: SHA_A, downloadState: 'pending', source: 'outputs' },
    ]);
    expect(() => journal.jobs.recordPoll(job.id, { status: 'running' })).toThrow(/already succeeded/);
    // Outputs are recorded once: a later identical poll does not duplicate them.
    expect(
      journal.jobs.recordPoll(job.id, {
        status: 'succeeded',
        outputs: [{ assetId: 'out-1' }, { assetId: 'x' }],
      }).outputs,
    ).toHaveLength(1);
  });

  it('keeps a failed job with its ids, error and retryable=false', () => {
    const journal = setup();
    journal.jobs.recordIntent(intent('key-1'));
    const job = journal.jobs.markAccepted('key-1', accepted('job-1'));
    const failed = journal.jobs.recordPoll(job.id, {
      status: 'failed',
      errorCode: 'content_rejected',
      errorMessage: 'The prompt was rejected',
      statusCode: 422,
      retryable: false,
    });
    expect(failed).toMatchObject({
      jobId: 'job-1',
      requestId: 'req-job-1',
      errorCode: 'content_rejected',
      retryable: false,
    });
    expect(journal.jobs.listUnfinished().jobsToPoll).toEqual([]);
  });

  it('tracks downloads: downloading → retry → verified, and a given-up output leaves the resume list', () => {
    const journal = setup();
    journal.jobs.recordIntent(intent('key-1'));
    const job = journal.jobs.markAccepted(
      'key-1',
      accepted('job-1', {
        status: 'succeeded',
        outputs: [{ assetId: 'a' }, { assetId: 'b' }],
      }),
    );
    const [a, b] = job.outputs;
    expect(journal.outputs.markDownloading(a!.id, '/lib/.tmp/a.part')).toMatchObject({
      downloadState: 'downloading',
      tempPath: '/lib/.tmp/a.part',
      attemptCount: 1,
    });
    expect(journal.outputs.markForRetry(a!.id, 'sha256 mismatch')).toMatchObject({
      downloadState: 'pending',
      tempPath: undefined,
      lastError: 'sha256 mismatch',
    });
    journal.outputs.markDownloading(a!.id, '/lib/.tmp/a.part');
    const verified = journal.outputs.markVerified(a!.id, {
      localPath: '/lib/2026-01-01/job-1/a.mp4',
      sha256: SHA_A,
      byteSize: 10,
      mimeType: 'video/mp4',
    });
    expect(verified).toMatchObject({
      downloadState: 'verified',
      attemptCount: 2,
      verifiedAt: t.clock.now,
      lastError: undefined,
    });
    expect(() => journal.outputs.markDownloading(a!.id, '/x')).toThrow(/verified/);
    expect(
      journal.jobs.listUnfinished().jobsToDownload.map((j) => j.outputs.map((o) => o.downloadState)),
    ).toEqual([['verified', 'pending']]);
    journal.outputs.markFailed(b!.id, 'gave up after 5 reads');
    expect(journal.jobs.listUnfinished().jobsToDownload).toEqual([]);
  });
});

describe('JobsRepository: resume, listing and search', () => {
  it('lists exactly the unfinished work, and it survives reopening the journal', () => {
    const journal = setup();
    journal.jobs.recordIntent(intent('pending'));
    journal.jobs.recordIntent(intent('unknown'));
    journal.jobs.markUnknown('unknown');
    journal.jobs.recordIntent(intent('abandoned'));
    journal.jobs.markAbandoned('abandoned', 'gave up');
    journal.jobs.recordIntent(intent('running'));
    journal.jobs.markAccepted('running', accepted('job-running', { status: 'running', nextPollAt: 5 }));
    journal.jobs.recordIntent(intent('queued'));
    journal.jobs.markAccepted('queued', accepted('job-queued', { nextPollAt: 1 }));
    journal.jobs.recordIntent(intent('done'));
    journal.jobs.markAccepted(
      'done',
      accepted('job-done', { status: 'succeeded', outputs: [{ assetId: 'o' }] }),
    );
    journal.jobs.recordIntent(intent('failed'));
    journal.jobs.markAccepted('failed', accepted('job-failed', { status: 'failed', retryable: false }));
    t.journal.close();

    const reopened = openJournal({ path: t.file });
    try {
      const work = reopened.jobs.listUnfinished();
      expect(work.intents.map((i) => i.idempotencyKey)).toEqual(['pending', 'unknown']);
      expect(work.jobsToPoll.map((j) => j.jobId)).toEqual(['job-queued', 'job-running']);
      expect(work.jobsToDownload.map((j) => j.jobId)).toEqual(['job-done']);
    } finally {
      reopened.close();
    }
    t.journal = openJournal({ path: t.file });
  });

  it('pages through jobs newest first with filters and an opaque cursor', () => {
    const journal = setup();
    for (let i = 0; i < 7; i++) {
      const key = `k${i}`;
      journal.jobs.recordIntent(intent(key, `prompt ${i}`, i % 2 ? 'work' : 'sim'));
      journal.jobs.markAccepted(key, accepted(`job-${i}`, { status: i % 3 === 0 ? 'succeeded' : 'queued' }));
    }
    const first = journal.jobs.listJobs({ limit: 3 });
    expect(first.items.map((j) => j.jobId)).toEqual(['job-6', 'job-5', 'job-4']);
    const second = journal.jobs.listJobs({ limit: 3, cursor: first.nextCursor });
    expect(second.items.map((j) => j.jobId)).toEqual(['job-3', 'job-2', 'job-1']);
    const third = journal.jobs.listJobs({ limit: 3, cursor: second.nextCursor });
    expect(third.items.map((j) => j.jobId)).toEqual(['job-0']);
    expect(third.nextCursor).toBeUndefined();
    expect(journal.jobs.listJobs({ status: 'succeeded' }).items.map((j) => j.jobId)).toEqual([
      'job-6',
      'job-3',
      'job-0',
    ]);
    expect(journal.jobs.listJobs({ profileId: 'work', status: 'queued' }).items.map((j) => j.jobId)).toEqual([
      'job-5',
      'job-1',
    ]);
    expect(() => journal.jobs.listJobs({ cursor: 'garbage' })).toThrow(/cursor/);
    expect(() => journal.jobs.listJobs({ limit: 0 })).toThrow(/Page size/);
  });

  it('finds jobs by words of their prompt, including short terms', () => {
    const journal = setup();
    const prompts = ['A red kite over the dunes', 'Red panda eating bamboo', 'Ocean at night, 4K'];
    prompts.forEach((p, i) => {
      journal.jobs.recordIntent(intent(`k${i}`, p));
      journal.jobs.markAccepted(`k${i}`, accepted(`job-${i}`));
    });
    journal.jobs.recordIntent(intent('not-accepted', 'red herring'));
    expect(
      journal.jobs
        .searchJobs('red')
        .map((j) => j.jobId)
        .sort(),
    ).toEqual(['job-0', 'job-1']);
    expect(journal.jobs.searchJobs('RED bamb').map((j) => j.jobId)).toEqual(['job-1']);
    expect(journal.jobs.searchJobs('4K').map((j) => j.jobId)).toEqual(['job-2']);
    expect(journal.jobs.searchJobs('"; DROP TABLE jobs; --')).toEqual([]);
    expect(journal.jobs.searchJobs('   ')).toEqual([]);
  });

  it('works at 100,000 jobs: a page and the resume list come from indexes, not table scans', () => {
    const journal = setup();
    const db = journal.database;
    // Seeded in SQL (the repository path is covered above); what is checked here is reading at scale.
    db.exec(`
      WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 99999)
      INSERT INTO job_intents (id, idempotency_key, profile_id, model, service_kind, canonical_body_json, state,
        created_at, updated_at)
      SELECT i + 1, 'bulk-' || i, CASE i % 2 WHEN 1 THEN 'work' ELSE 'sim' END, 'h3', 'video_generation',
        json_object('prompt', 'scene ' || i), 'accepted', 0, 0 FROM n;
      INSERT INTO jobs (id, intent_id, profile_id, model, service_kind, job_id, request_id, status, accepted_at, updated_at)
      SELECT id, id, profile_id, 'h3', 'video_generation', 'job-' || (id - 1), 'req',
        CASE WHEN (id - 1) % 10000 = 0 THEN 'running' ELSE 'succeeded' END, 0, 0 FROM job_intents;
    `);
    journal.jobs.recordIntent(intent('fresh'));
    const page = journal.jobs.listJobs({ status: 'succeeded', profileId: 'work', limit: 50 });
    expect(page.items).toHaveLength(50);
    expect(page.items[0]?.jobId).toBe('job-99999');
    const next = journal.jobs.listJobs({
      status: 'succeeded',
      profileId: 'work',
      limit: 50,
      cursor: page.nextCursor,
    });
    expect(next.items[0]?.jobId).toBe('job-99899');
    const work = journal.jobs.listUnfinished();
    expect(work.jobsToPoll).toHaveLength(10);
    expect(work.intents.map((i) => i.idempotencyKey)).toEqual(['fresh']);
    expect(journal.jobs.searchJobs('scene 4242').map((j) => j.jobId)).toContain('job-4242');

    const plan = (sql: string) =>
      (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all() as { detail: string }[])
        .map((r) => r.detail)
        .join(' | ');
    expect(
      plan(
        "SELECT * FROM jobs WHERE status = 'succeeded' AND profile_id = 'work' AND id < 5 ORDER BY id DESC LIMIT 51",
      ),
    ).toMatch(/USING INDEX jobs_by_profile_status/);
    expect(
      plan(
        "SELECT * FROM jobs INDEXED BY jobs_in_progress WHERE status IN ('queued', 'running', 'cancel_requested') ORDER BY next_poll_at NULLS FIRST",
      ),
    ).toBe('SCAN jobs USING INDEX jobs_in_progress');
    expect(
      plan("SELECT * FROM job_intents WHERE state IN ('pending_create', 'unknown') ORDER BY id"),
    ).toMatch(/USING INDEX job_intents_unfinished/);
    expect(
      plan(
        "SELECT DISTINCT job_row_id FROM outputs WHERE download_state IN ('pending', 'downloading') ORDER BY job_row_id",
      ),
    ).toMatch(/USING (COVERING )?INDEX outputs_unverified/);
  });
});
