import { afterEach, describe, expect, it } from 'vitest';
import { JournalStateError } from '../../../src/main/core/journal/errors.js';
import { tempJournal } from './helpers.js';

let t: ReturnType<typeof tempJournal>;
afterEach(() => t.cleanup());

const body = (prompt: string) => ({ prompt, model: 'h3', generationMode: 't2v', seconds: 5 });

describe('JobsRepository.deleteJob (library delete)', () => {
  it('removes a finished job, its outputs, its intent and its search row; refuses one in progress', () => {
    t = tempJournal();
    const journal = t.journal;
    journal.profiles.create({ id: 'sim', name: 'Simulator', kind: 'simulator' });
    for (const [key, status] of [
      ['done', 'succeeded'],
      ['busy', 'running'],
    ] as const) {
      journal.jobs.recordIntent({
        idempotencyKey: key,
        profileId: 'sim',
        model: 'h3',
        serviceKind: 'video_generation',
        body: body(`a kite over the dunes ${key}`),
      });
      journal.jobs.markAccepted(key, {
        jobId: `job-${key}`,
        requestId: `req-${key}`,
        status,
        outputs: status === 'succeeded' ? [{ assetId: `asset-${key}`, mimeType: 'video/mp4' }] : undefined,
      });
    }
    const done = journal.jobs.getJobByJobId('sim', 'job-done')!;
    const busy = journal.jobs.getJobByJobId('sim', 'job-busy')!;
    expect(done.outputs).toHaveLength(1);
    expect(journal.jobs.searchJobs('kite').map((j) => j.id)).toContain(done.id);
    expect(journal.jobs.deleteJob(done.id)).toBe(true);
    expect(journal.jobs.getJob(done.id)).toBeUndefined();
    expect(journal.outputs.listForJob(done.id)).toEqual([]);
    expect(journal.jobs.getIntent('done')).toBeUndefined();
    expect(journal.jobs.searchJobs('kite').map((j) => j.id)).toEqual([busy.id]);
    expect(() => journal.jobs.deleteJob(busy.id)).toThrow(JournalStateError);
    expect(journal.jobs.getJob(busy.id)).toBeDefined();
    expect(journal.jobs.deleteJob(999_999)).toBe(false);
  });
});
