import { afterEach, describe, expect, it } from 'vitest';
import { JobsViews } from '../../../src/main/core/features/jobs/jobs-views.js';
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
  return JobsViews.over(t.journal);
}

const accept = (key: string, profileId: string, jobId: string) => acceptJob(t.journal, key, profileId, jobId);

describe('the jobs views', () => {
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
    expect(views.detail('job-1', 'work')).toMatchObject({
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
    const first = views.page({ limit: 1 });
    expect(first.items.map((j) => j.jobId)).toEqual(['job-b']);
    expect(views.page({ limit: 1, cursor: first.nextCursor }).items.map((j) => j.jobId)).toEqual(['job-a']);
    expect(() => views.calls({ profileId: 'work', limit: 5, cursor: 'not-a-cursor' })).toThrow(
      expect.objectContaining({ code: 'usage' }),
    );
  });
});
