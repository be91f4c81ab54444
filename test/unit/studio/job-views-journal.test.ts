import { afterEach, describe, expect, it } from 'vitest';
import { JobViews } from '../../../src/main/core/library/job-views.js';
import type { Output } from '../../../src/main/core/journal/outputs-repository.js';
import type { StudioDrafts } from '../../../src/main/core/creating/drafts.js';
import { BROWSER_HOST } from '../../../src/main/core/library/studio-host.js';
import { acceptJob, tempJournal } from '../journal/helpers.js';

let t: ReturnType<typeof tempJournal>;
afterEach(() => t.cleanup());

function setup() {
  t = tempJournal();
  for (const id of ['sim', 'work'])
    t.journal.profiles.create({
      id,
      name: id,
      kind: id === 'sim' ? 'simulator' : 'personal',
      ...(id === 'work' ? { baseUrl: 'https://api.example.com/v1' } : {}),
    });
  return JobViews.over(t.journal);
}

const accept = (key: string, profileId: string, jobId: string) => acceptJob(t.journal, key, profileId, jobId);

describe('the job views over the journal alone (the CLI, the calls log)', () => {
  it('finds a job by its job id under the chosen profile first, then any profile, then by row number', () => {
    const views = setup();
    const mine = accept('k-work', 'work', 'job-1');
    const theirs = accept('k-sim', 'sim', 'job-1');
    const other = accept('k-other', 'sim', 'job-2');
    expect(views.find('job-1', 'work').id).toBe(mine.id);
    expect(views.find('job-1', 'sim').id).toBe(theirs.id);
    expect(views.find('job-2', 'work').id).toBe(other.id);
    expect(views.find(String(other.id), 'work').jobId).toBe('job-2');
    expect(() => views.find('job-9', 'work')).toThrow(expect.objectContaining({ code: 'usage' }));
  });

  it('shows a job with the key and request it was created with', () => {
    const views = setup();
    accept('k-work', 'work', 'job-1');
    expect(views.record('job-1', 'work')).toMatchObject({
      job: { jobId: 'job-1' },
      idempotencyKey: 'k-work',
      request: { prompt: 'prompt of k-work', model: 'h3' },
    });
  });

  it('names the job created under an idempotency key, and none for an unknown key', () => {
    const views = setup();
    accept('k-work', 'work', 'job-1');
    expect(views.jobForKey('k-work')?.jobId).toBe('job-1');
    expect(views.jobForKey('k-none')).toBeUndefined();
  });

  it('pages jobs newest first and refuses a malformed calls cursor as a usage error', () => {
    const views = setup();
    accept('a', 'work', 'job-a');
    accept('b', 'work', 'job-b');
    const first = views.rows({ limit: 1 });
    expect(first.items.map((j) => j.jobId)).toEqual(['job-b']);
    expect(views.rows({ limit: 1, cursor: first.nextCursor }).items.map((j) => j.jobId)).toEqual(['job-a']);
    expect(() => views.calls({ profileId: 'work', limit: 5, cursor: 'not-a-cursor' })).toThrow(
      expect.objectContaining({ code: 'usage' }),
    );
  });
});

describe('one class of job views for the CLI and the studio', () => {
  /** The studio's job views (browser host, no drafts or staged files) over the `setup()` journal. */
  const studioViews = () => {
    setup();
    return new JobViews(t.journal, {
      drafts: { find: () => undefined } as Pick<StudioDrafts, 'find'>,
      staged: { get: () => ({}) as never },
      host: BROWSER_HOST,
    });
  };

  it('answers the CLI and the Queue from one instance: the row `find` names is the job `listJobs` and `jobDetail` show', () => {
    const views = studioViews();
    const job = accept('k-work', 'work', 'job-1');
    expect(views.find('job-1', 'work').id).toBe(job.id);
    expect(views.keyOfJobRow(job.id)).toBe('k-work');
    expect(views.listJobs({ profileId: 'work' }).items).toEqual([
      expect.objectContaining({ rowId: job.id, jobId: 'job-1', title: 'prompt of k-work' }),
    ]);
    expect(views.jobDetail(job.id)).toMatchObject({
      rowId: job.id,
      requested: views.record('job-1', 'work').request,
    });
  });

  it('offers a poster of a picture, a video or a sound, never of a document parse’s JSON result', () => {
    const views = studioViews();
    const job = accept('k-work', 'work', 'job-1');
    const verified = (mimeType: string | undefined): Output => ({
      id: 7,
      jobRowId: job.id,
      position: 0,
      source: 'outputs',
      assetId: 'asset_1',
      downloadState: 'verified',
      localPath: '/library/result',
      sha256: 'a'.repeat(64),
      byteSize: 10,
      ...(mimeType ? { mimeType } : {}),
      attemptCount: 1,
      createdAt: 1,
      updatedAt: 1,
    });
    for (const mimeType of ['video/mp4', 'image/png', 'audio/mpeg', undefined])
      expect(views.outputView(job.id, verified(mimeType)).posterUrl).toMatch(/\/poster/);
    const parsed = views.outputView(job.id, verified('application/json'));
    expect(parsed.posterUrl).toBeNull();
    expect(parsed.frameUrls).toEqual([]);
    // the result itself stays reachable (the Library offers it to open)
    expect(parsed.mediaUrl).toMatch(/library\/\d+\/7/);
  });

  it('lists a page of jobs with one read of each table, each job with its own intent, outputs, variation and stage', () => {
    const views = studioViews();
    const jobs = Array.from({ length: 12 }, (_, n) => accept(`k-${n}`, 'work', `job-${n}`));
    // every third job has two outputs, one a variation of a group, every other one a later stage
    jobs.forEach((job, n) => {
      if (n % 3 === 0)
        t.journal.jobs.recordPoll(job.id, {
          status: 'succeeded',
          outputs: [0, 1].map((i) => ({ assetId: `out-${n}-${i}`, mimeType: 'video/mp4', kind: 'video' })),
        });
      else if (n % 2 === 0) t.journal.jobs.recordPoll(job.id, { status: 'running', stage: `stage-${n}` });
    });
    t.journal.variations.record({ intentId: jobs[4]!.intentId, groupId: 'g-1', position: 1, count: 3 });
    // the raw body of the last poll stays with the job read on its own, not in a page of jobs
    expect(t.journal.jobs.getJob(jobs[0]!.id)!.lastBody).toBeDefined();
    const listed = t.journal.jobs.listJobs({ profileId: 'work' }).items.find((j) => j.id === jobs[0]!.id);
    expect((listed as { lastBody?: unknown }).lastBody).toBeUndefined();

    const reads = new Map<string, number>();
    const counted = <T extends object>(table: string, target: T): T =>
      new Proxy(target, {
        get: (object, name) => {
          const value = Reflect.get(object, name) as unknown;
          if (typeof value !== 'function') return value;
          return (...args: unknown[]) => {
            reads.set(`${table}.${String(name)}`, (reads.get(`${table}.${String(name)}`) ?? 0) + 1);
            return (value as (...a: unknown[]) => unknown).apply(object, args);
          };
        },
      });
    const countedViews = new JobViews(
      {
        ...t.journal,
        jobs: counted('jobs', t.journal.jobs),
        outputs: counted('outputs', t.journal.outputs),
        variations: counted('variations', t.journal.variations),
      },
      {
        drafts: { find: () => undefined } as Pick<StudioDrafts, 'find'>,
        staged: { get: () => ({}) as never },
        host: BROWSER_HOST,
      },
    );
    const page = countedViews.listJobs({ profileId: 'work' }).items;
    expect(reads).toEqual(
      new Map([
        ['jobs.listJobs', 1],
        ['jobs.intentsByIds', 1],
        ['outputs.listForJobs', 1],
        ['variations.forIntents', 1],
        ['jobs.latestStageStarts', 1],
        // the estimate of each job still in progress (from succeeded jobs of its model): 8 of 12
        ['jobs.succeededDurations', 8],
      ]),
    );
    // the same as each job shown on its own
    expect(page).toEqual(jobs.toReversed().map((job) => views.jobView(t.journal.jobs.getJob(job.id)!)));
    // a request never changes once recorded: polled again, the page reads no intent
    reads.clear();
    expect(countedViews.listJobs({ profileId: 'work' }).items).toEqual(page);
    expect(reads.has('jobs.intentsByIds')).toBe(false);
    const byJob = new Map(page.map((view) => [view.jobId, view]));
    expect(byJob.get('job-3')!.outputs.map((o) => o.position)).toEqual([0, 1]);
    expect(byJob.get('job-4')).toMatchObject({ stage: 'stage-4', variation: { groupId: 'g-1', index: 1 } });
    expect(byJob.get('job-5')).toMatchObject({ outputs: [], variation: null, title: 'prompt of k-5' });
  });

  it('shows a new job whose intent reuses a deleted one’s row number with its own request', () => {
    const views = studioViews();
    const first = accept('k-first', 'work', 'job-first');
    t.journal.jobs.recordPoll(first.id, { status: 'succeeded', outputs: [] });
    expect(views.listJobs({ profileId: 'work' }).items[0]).toMatchObject({ title: 'prompt of k-first' });
    expect(t.journal.jobs.deleteJob(first.id)).toBe(true);
    const second = accept('k-second', 'work', 'job-second');
    expect(second.intentId).toBe(first.intentId); // SQLite gave the freed row number again
    expect(views.listJobs({ profileId: 'work' }).items).toEqual([
      expect.objectContaining({
        jobId: 'job-second',
        title: 'prompt of k-second',
        prompt: 'prompt of k-second',
      }),
    ]);
  });

  it("refuses the studio's views when built over the journal alone, rather than answering without media URLs", () => {
    const views = setup();
    const job = accept('k-work', 'work', 'job-1');
    expect(views.find('job-1', 'work').id).toBe(job.id);
    for (const studioView of [
      () => views.jobView(job),
      () => views.listJobs({}),
      () => views.jobDetail(job.id),
      () => views.outputView(job.id, views.find('job-1', 'work').outputs[0]!),
    ])
      expect(studioView).toThrow(expect.objectContaining({ code: 'internal' }));
  });
});
