import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { batchReadAtResume } from '../../../../src/main/core/jobs/batch-read-at-resume.js';
import { acceptanceOf } from '../../../../src/main/core/jobs/job-snapshot.js';
import type { MediaJobTransport } from '../../../../src/main/core/jobs/media-job-transport.js';
import { openJournal, type Journal } from '../../../../src/main/core/journal/open-journal.js';
import { tempFolder } from '../../../support/worlds/temp-folder.js';

const journals: Journal[] = [];
afterEach(() => {
  for (const j of journals.splice(0)) j.close();
});

function journalWithRunningJob(): Journal {
  const dir = tempFolder('fw-batch-');
  const journal = openJournal({ path: path.join(dir, 'journal.sqlite') });
  journals.push(journal);
  journal.profiles.create({ id: 'p', name: 'P', kind: 'simulator' });
  journal.jobs.recordIntent({
    idempotencyKey: 'k',
    profileId: 'p',
    model: 'h3-video',
    serviceKind: 'video_generation',
    body: { clientTaskId: 'c' },
  });
  journal.jobs.markAccepted('k', acceptanceOf({ jobId: 'job_1', requestId: 'job_1', status: 'running' }));
  return journal;
}

const transport = (getJobs?: MediaJobTransport['getJobs']): MediaJobTransport =>
  ({ clock: { now: () => 0, sleep: async () => undefined }, getJobs }) as unknown as MediaJobTransport;

describe('batchReadAtResume', () => {
  it('records the batch answers as polls, so finished jobs leave the poll list', async () => {
    const journal = journalWithRunningJob();
    const recorded = await batchReadAtResume(journal, journal.jobs.listUnfinished().jobsToPoll, async () =>
      transport(async (ids) =>
        ids.map((id) => ({
          job: { jobId: id, requestId: id, status: 'failed', errorCode: 'x' },
          retryAfterSeconds: undefined,
        })),
      ),
    );
    expect(recorded).toBe(1);
    expect(journal.jobs.listUnfinished().jobsToPoll).toEqual([]);
  });

  it('leaves the jobs to their single reads when there is no session, no batching, or no transport', async () => {
    const journal = journalWithRunningJob();
    const jobs = journal.jobs.listUnfinished().jobsToPoll;
    expect(await batchReadAtResume(journal, jobs, async () => transport(async () => null))).toBe(0);
    expect(await batchReadAtResume(journal, jobs, async () => transport(undefined))).toBe(0);
    expect(
      await batchReadAtResume(journal, jobs, async () => {
        throw new Error('no key for this profile');
      }),
    ).toBe(0);
    expect(journal.jobs.listUnfinished().jobsToPoll).toHaveLength(1);
  });
});
