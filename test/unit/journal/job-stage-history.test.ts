import BetterSqlite3 from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import type { JobStatus } from '../../../src/main/core/journal/jobs-repository.js';
import { tempJournal } from './helpers.js';

let t: ReturnType<typeof tempJournal>;
afterEach(() => t.cleanup());

function setup() {
  t = tempJournal(1_000_000);
  t.journal.profiles.create({ id: 'sim', name: 'Simulator', kind: 'simulator' });
  t.journal.profiles.create({ id: 'other', name: 'Other', kind: 'simulator' });
  return t.journal;
}

/** A job accepted now under `key` for `profileId`, `model` and `seconds` (the create body's). */
function accept(key: string, opts: { profileId?: string; model?: string; seconds?: number } = {}) {
  const model = opts.model ?? 'h3';
  t.journal.jobs.recordIntent({
    idempotencyKey: key,
    profileId: opts.profileId ?? 'sim',
    model,
    serviceKind: 'video_generation',
    body: { model, prompt: key, ...(opts.seconds === undefined ? {} : { seconds: opts.seconds }) },
  });
  return t.journal.jobs.markAccepted(key, {
    jobId: `job-${key}`,
    requestId: `req-${key}`,
    status: 'queued',
    stage: 'queued',
    body: {},
  });
}

const poll = (id: number, status: JobStatus, stage?: string) =>
  t.journal.jobs.recordPoll(id, { status, stage, body: {} });

/** Accepted at now, succeeded `ms` later (as this journal saw it). */
function finishedAfter(key: string, ms: number, opts: Parameters<typeof accept>[1] = {}) {
  const job = accept(key, opts);
  t.clock.now += ms;
  poll(job.id, 'succeeded', 'succeeded');
  return job;
}

describe('stage history in the journal', () => {
  it('records when each (status, stage) began: at acceptance, then at each poll that changed it', () => {
    const jobs = setup().jobs;
    const job = accept('a');
    t.clock.now += 2_000;
    poll(job.id, 'queued', 'queued'); // unchanged: no new row
    t.clock.now += 3_000;
    poll(job.id, 'running', 'generating');
    t.clock.now += 1_000;
    poll(job.id, 'running'); // a poll without a stage keeps the stage: unchanged
    t.clock.now += 4_000;
    poll(job.id, 'running', 'encoding');
    t.clock.now += 5_000;
    poll(job.id, 'succeeded', 'succeeded');
    expect(jobs.stageHistory(job.id)).toEqual([
      { status: 'queued', stage: 'queued', startedAt: 1_000_000 },
      { status: 'running', stage: 'generating', startedAt: 1_005_000 },
      { status: 'running', stage: 'encoding', startedAt: 1_010_000 },
      { status: 'succeeded', stage: 'succeeded', startedAt: 1_015_000 },
    ]);
  });

  it('a job without a stage is timed by its status', () => {
    const jobs = setup().jobs;
    const job = accept('b');
    t.clock.now += 1_000;
    t.journal.jobs.recordPoll(job.id, { status: 'running', body: {} });
    expect(jobs.stageHistory(job.id).map((s) => [s.status, s.stage, s.startedAt])).toEqual([
      ['queued', 'queued', 1_000_000],
      ['running', 'queued', 1_001_000], // the stage kept from before; the status changed
    ]);
  });

  it('goes with its job when the job is deleted', () => {
    const jobs = setup().jobs;
    const job = finishedAfter('c', 10_000);
    expect(jobs.stageHistory(job.id)).toHaveLength(2);
    jobs.deleteJob(job.id);
    expect(jobs.stageHistory(job.id)).toEqual([]);
  });
});

describe('succeeded durations (the samples of the expected remaining time)', () => {
  it('only this profile, this model, these seconds, succeeded jobs; newest first', () => {
    const jobs = setup().jobs;
    finishedAfter('s1', 40_000, { seconds: 5 });
    finishedAfter('s2', 60_000, { seconds: 5 });
    finishedAfter('other-seconds', 300_000, { seconds: 10 });
    finishedAfter('other-profile', 500_000, { seconds: 5, profileId: 'other' });
    finishedAfter('other-model', 700_000, { seconds: 5, model: 'h3-b' });
    const failed = accept('failed', { seconds: 5 });
    t.clock.now += 1_000;
    poll(failed.id, 'failed', 'failed');
    accept('running', { seconds: 5 });
    expect(jobs.succeededDurations({ profileId: 'sim', model: 'h3', seconds: 5 })).toEqual([60_000, 40_000]);
    expect(jobs.succeededDurations({ profileId: 'sim', model: 'h3', seconds: 10 })).toEqual([300_000]);
    expect(jobs.succeededDurations({ profileId: 'sim', model: 'h3', seconds: 15 })).toEqual([]);
    expect(jobs.succeededDurations({ profileId: 'other', model: 'h3', seconds: 5 })).toEqual([500_000]);
    expect(jobs.succeededDurations({ profileId: 'sim', model: 'h3', seconds: 5, limit: 1 })).toEqual([
      60_000,
    ]);
  });

  it('a job that requested no seconds matches only such jobs', () => {
    const jobs = setup().jobs;
    finishedAfter('image', 8_000);
    finishedAfter('video', 50_000, { seconds: 5 });
    expect(jobs.succeededDurations({ profileId: 'sim', model: 'h3', seconds: null })).toEqual([8_000]);
  });

  it('jobs recorded without history use the service’s createdAt → completedAt', () => {
    const jobs = setup().jobs;
    const job = finishedAfter('old', 10_000, { seconds: 5 });
    t.journal.jobs.recordPoll(job.id, {
      status: 'succeeded',
      serverCreatedAt: Date.UTC(2026, 0, 1, 12, 0, 0),
      completedAt: Date.UTC(2026, 0, 1, 12, 1, 30),
      body: {},
    });
    // with history: as this journal saw it
    expect(jobs.succeededDurations({ profileId: 'sim', model: 'h3', seconds: 5 })).toEqual([10_000]);
    // a job recorded before migration 013: no history, the service's own times
    const raw = new BetterSqlite3(t.file);
    raw.prepare('DELETE FROM job_stage_history WHERE job_row_id = ?').run(job.id);
    raw.close();
    expect(jobs.succeededDurations({ profileId: 'sim', model: 'h3', seconds: 5 })).toEqual([90_000]);
  });
});
