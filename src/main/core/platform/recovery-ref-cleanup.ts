import type { EngineChange } from '../jobs/job-engine.js';
import type { Journal } from '../journal/open-journal.js';
import { isTerminalStatus, TERMINAL_JOB_STATUSES, type JobWithOutputs } from '../journal/jobs-repository.js';
import type { RecoveryRefs } from '../secrets/recovery-refs.js';

/**
 * Whether a job needs nothing more from the platform: terminal (succeeded, failed or canceled)
 * and no output still to download (each verified in the library, or given up for good). Its
 * recovery reference — whose last use is reading a job and its outputs without a session — can go.
 */
export function isFinishedWith(job: Pick<JobWithOutputs, 'status' | 'outputs'>): boolean {
  return (
    isTerminalStatus(job.status) &&
    job.outputs.every((output) => output.downloadState === 'verified' || output.downloadState === 'failed')
  );
}

/**
 * The engine's change listener that forgets a job's recovery reference once the job is finished
 * with (the platform workspace learns it here: after the last download, or when a job fails or
 * is canceled with nothing to download).
 */
export function forgetRecoveryRefsOnFinish(
  refs: RecoveryRefs,
  profileId: string,
  onError: (error: unknown) => void,
): (change: EngineChange) => void {
  return (change) => {
    if (change.type !== 'job' || change.job.profileId !== profileId || !isFinishedWith(change.job)) return;
    refs.forget(change.job.jobId).catch(onError);
  };
}

/**
 * At resume: forgets the references still stored for the profile's finished jobs (a stop between
 * the last download and the forget, or jobs finished before references were forgotten). Reads the
 * journal a page at a time; a job without a stored reference costs one lookup. Returns how many
 * were forgotten.
 */
export async function forgetFinishedRecoveryRefs(
  journal: Journal,
  refs: RecoveryRefs,
  profileId: string,
): Promise<number> {
  const unverified = new Set(journal.outputs.jobsWithUnverifiedOutputs());
  let forgotten = 0;
  for (const status of TERMINAL_JOB_STATUSES) {
    let cursor: string | undefined;
    do {
      const page = journal.jobs.listJobs({ status, profileId, limit: 500, cursor });
      for (const job of page.items)
        if (!unverified.has(job.id) && (await refs.forget(job.jobId))) forgotten += 1;
      cursor = page.nextCursor;
    } while (cursor);
  }
  return forgotten;
}
