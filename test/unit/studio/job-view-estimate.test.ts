import { afterEach, describe, expect, it } from 'vitest';
import { median, estimateFromDurations } from '../../../src/main/core/jobs/expected-duration.js';
import { JobViews } from '../../../src/main/core/library/job-views.js';
import type { StudioDrafts } from '../../../src/main/core/creating/drafts.js';
import { tempJournal } from '../journal/helpers.js';
import { BROWSER_HOST } from '../../../src/main/core/library/studio-host.js';

let t: ReturnType<typeof tempJournal>;

function setup() {
  t = tempJournal(1_000_000);
  t.journal.profiles.create({ id: 'sim', name: 'Simulator', kind: 'simulator' });
  t.journal.profiles.create({ id: 'other', name: 'Other', kind: 'simulator' });
  return new JobViews(t.journal, {
    drafts: {} as StudioDrafts,
    staged: { get: () => ({}) as never },
    host: BROWSER_HOST,
    now: () => t.clock.now,
  });
}

function accept(key: string, seconds: number, profileId = 'sim') {
  t.journal.jobs.recordIntent({
    idempotencyKey: key,
    profileId,
    model: 'h3',
    serviceKind: 'video_generation',
    body: { model: 'h3', prompt: key, seconds },
  });
  return t.journal.jobs.markAccepted(key, {
    jobId: `job-${key}`,
    requestId: `req-${key}`,
    status: 'queued',
    stage: 'queued',
    body: {},
  });
}

function finishedAfter(key: string, ms: number, seconds: number, profileId = 'sim') {
  const job = accept(key, seconds, profileId);
  t.clock.now += ms;
  t.journal.jobs.recordPoll(job.id, { status: 'succeeded', stage: 'succeeded', body: {} });
}

describe('the estimate from earlier durations', () => {
  it('is the median (odd and even counts); none without a duration', () => {
    expect(median([30, 10, 20])).toBe(20);
    expect(median([40, 10, 20, 30])).toBe(25);
    expect(estimateFromDurations([])).toBeNull();
    expect(estimateFromDurations([90_000, 30_000])).toEqual({ expectedTotalSeconds: 60, samples: 2 });
  });
});

describe('the expected remaining time of a job in the Queue', () => {
  afterEach(() => t.cleanup());

  it('no history: no estimate', () => {
    const views = setup();
    const job = accept('first', 5);
    expect(views.jobView(job)).toMatchObject({
      expectedTotalSeconds: null,
      expectedRemainingSeconds: null,
      estimateBasis: null,
      stageStartedAt: 1_000_000,
    });
  });

  it('other seconds and another profile’s history are ignored; the same model and seconds give the median minus the elapsed time', () => {
    const views = setup();
    finishedAfter('ten-seconds', 500_000, 10);
    finishedAfter('other-profile', 900_000, 5, 'other');
    const lone = accept('lone', 5);
    expect(views.jobView(lone).estimateBasis).toBeNull();

    finishedAfter('a', 40_000, 5);
    finishedAfter('b', 100_000, 5);
    finishedAfter('c', 60_000, 5);
    const job = accept('now', 5);
    t.clock.now += 15_000;
    t.journal.jobs.recordPoll(job.id, { status: 'running', stage: 'generating', body: {} });
    t.clock.now += 5_000;
    const view = views.jobView(t.journal.jobs.getJob(job.id)!);
    expect(view.estimateBasis).toEqual({ samples: 3, model: 'h3', seconds: 5 });
    expect(view.expectedTotalSeconds).toBe(60); // median of 40, 60, 100
    expect(view.expectedRemainingSeconds).toBe(40); // 60 − 20 s since acceptance
    expect(view.stageStartedAt).toBe(t.clock.now - 5_000); // "generating" began 5 s ago

    t.clock.now += 120_000; // past the median: any moment now, never negative
    expect(views.jobView(t.journal.jobs.getJob(job.id)!).expectedRemainingSeconds).toBe(0);
  });

  it('a finished job has no estimate; its detail lists how long each stage lasted', () => {
    const views = setup();
    finishedAfter('earlier', 30_000, 5);
    const job = accept('done', 5);
    t.clock.now += 4_000;
    t.journal.jobs.recordPoll(job.id, { status: 'running', stage: 'generating', body: {} });
    t.clock.now += 26_000;
    t.journal.jobs.recordPoll(job.id, { status: 'succeeded', stage: 'succeeded', body: {} });
    const finished = t.journal.jobs.getJob(job.id)!;
    expect(views.jobView(finished).expectedRemainingSeconds).toBeNull();
    // the detail needs a draft-less intent: no references are looked up
    expect(views.jobDetail(finished.id).stages).toEqual([
      { status: 'queued', stage: 'queued', startedAt: 1_030_000, seconds: 4 },
      { status: 'running', stage: 'generating', startedAt: 1_034_000, seconds: 26 },
      { status: 'succeeded', stage: 'succeeded', startedAt: 1_060_000, seconds: null },
    ]);
  });
});

describe('the title of a job in the Queue', () => {
  it('is its prompt, else the text it speaks, else its instruction; empty when the body names none', async () => {
    const { jobTitleOf } = await import('../../../src/main/core/library/job-views.js');
    expect(jobTitleOf({ model: 'h3', prompt: ' A kite ' })).toBe('A kite');
    expect(jobTitleOf({ model: 'cadence-speech', text: 'Welcome to the harbour' })).toBe(
      'Welcome to the harbour',
    );
    expect(
      jobTitleOf({
        model: 'cadence-voice',
        voiceMode: 'voice_design',
        instruct: 'A calm narrator',
        text: '',
      }),
    ).toBe('A calm narrator');
    expect(jobTitleOf({ model: 'img', params: { prompt: 'Nested prompt' } })).toBe('Nested prompt');
    expect(jobTitleOf({ model: 'parse', input_asset_id: 'asset_1' })).toBe('');
  });

  it('is the name of the document a platform document_parse job parses', async () => {
    const { jobTitleOf } = await import('../../../src/main/core/library/job-views.js');
    expect(
      jobTitleOf({
        model: 'folio-parse',
        serviceKind: 'document_parse',
        mediaSpec: { original_name: 'report.pdf' },
      }),
    ).toBe('report.pdf');
  });
});

describe('the requested length of a job, for the Library card', () => {
  afterEach(() => t.cleanup());

  it('is the request’s seconds, at its top or in a platform body’s mediaSpec; null when it names none', () => {
    const views = setup();
    expect(views.jobView(accept('five', 5)).seconds).toBe(5);
    const record = (key: string, body: Record<string, unknown>) => {
      t.journal.jobs.recordIntent({
        idempotencyKey: key,
        profileId: 'sim',
        model: 'h3',
        serviceKind: 'video_generation',
        body,
      });
      return t.journal.jobs.markAccepted(key, { jobId: key, requestId: key, status: 'queued', body: {} });
    };
    const platform = record('platform', { model: 'h3', params: { prompt: 'p' }, mediaSpec: { seconds: 10 } });
    expect(views.jobView(platform).seconds).toBe(10);
    expect(views.jobView(record('image', { model: 'h3', prompt: 'a still' })).seconds).toBeNull();
  });
});
