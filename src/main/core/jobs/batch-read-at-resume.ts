import type { Journal } from '../journal/open-journal.js';
import type { Job } from '../journal/jobs-repository.js';
import { snapshotOf } from './job-snapshot.js';
import type { MediaJobTransport } from './media-job-transport.js';

/**
 * A resume's first read of the unfinished jobs, batched where the transport can (the runtime's
 * `:batch-get`, ≤ 100 ids per call, with the user's session): each answer is recorded in the
 * journal as a poll, so the jobs found finished go straight to their download. A transport that
 * cannot batch (no session, or the public API) leaves the jobs to their one-by-one reads; a batch
 * that fails, or a transport that cannot be had, is not an error of the resume (the single reads follow). Jobs the batch reports
 * `missing` are left as they are: missing never licenses recreation.
 */
export async function batchReadAtResume(
  journal: Journal,
  jobs: readonly Job[],
  transportFor: (profileId: string) => Promise<MediaJobTransport>,
): Promise<number> {
  const byProfile = new Map<string, Job[]>();
  for (const job of jobs) byProfile.set(job.profileId, [...(byProfile.get(job.profileId) ?? []), job]);
  let recorded = 0;
  for (const [profileId, list] of byProfile) {
    // a profile whose transport cannot be had (no key…) is reported by its jobs' own runs
    const transport = await transportFor(profileId).catch(() => undefined);
    if (!transport?.getJobs) continue;
    const read = await transport.getJobs(list.map((job) => job.jobId)).catch(() => null);
    if (!read) continue;
    const byJobId = new Map(list.map((job) => [job.jobId, job]));
    for (const answer of read) {
      const job = byJobId.get(answer.job.jobId);
      if (!job) continue;
      journal.jobs.recordPoll(job.id, snapshotOf(answer.job, answer.retryAfterSeconds));
      recorded += 1;
    }
  }
  return recorded;
}
