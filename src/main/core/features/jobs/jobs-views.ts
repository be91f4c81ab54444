import { AppError } from '../../errors.js';
import type { Journal } from '../../journal/open-journal.js';
import type { Job, JobIntent, JobWithOutputs, ListJobsQuery } from '../../journal/jobs-repository.js';
import type { Page } from '../../journal/pagination.js';
import type { ServiceCall, ServiceCallOperation } from '../../journal/service-calls-repository.js';

export type { Job, JobIntent, JobWithOutputs, ServiceCall, ServiceCallOperation };
export { SERVICE_CALL_OPERATIONS } from '../../journal/service-calls-repository.js';

/** What the views read: three tables of the journal, nothing that opens the keychain or the network. */
export interface JobsViewsDeps {
  readonly jobs: Pick<
    Journal['jobs'],
    | 'listJobs'
    | 'getJob'
    | 'getJobByJobId'
    | 'getIntent'
    | 'currentIntent'
    | 'getIntentById'
    | 'getJobForIntent'
  >;
  readonly serviceCalls: Pick<Journal['serviceCalls'], 'list'>;
  readonly profiles: Pick<Journal['profiles'], 'list'>;
}

export interface JobDetail {
  job: JobWithOutputs;
  /** The key the job was created under and the request as sent (absent for a reindexed job). */
  idempotencyKey?: string;
  request?: unknown;
}

/**
 * Read-only views of the journal's jobs and calls, for the CLI's `jobs`, `show`, `calls` and
 * `batch` reports. Built over a journal alone (`JobsViews.over`), so `framewright jobs` opens
 * SQLite and nothing else.
 */
export class JobsViews {
  constructor(private readonly deps: JobsViewsDeps) {}

  static over(journal: Pick<Journal, 'jobs' | 'serviceCalls' | 'profiles'>): JobsViews {
    return new JobsViews(journal);
  }

  /** A page of jobs, newest first (keyset cursor). */
  page(query: ListJobsQuery): Page<Job> {
    return this.deps.jobs.listJobs(query);
  }

  /**
   * A job by its platform job id (looked up under `profileId` first, then every profile) or by
   * its row number in the journal.
   */
  find(ref: string, profileId: string): JobWithOutputs {
    const others = this.deps.profiles.list().map((p) => p.id);
    for (const id of [profileId, ...others]) {
      const job = this.deps.jobs.getJobByJobId(id, ref);
      if (job) return job;
    }
    if (/^\d+$/.test(ref)) {
      const job = this.deps.jobs.getJob(Number(ref));
      if (job) return job;
    }
    throw new AppError('usage', `No job "${ref}" in the journal.`);
  }

  /** A job with the idempotency key and request it was created with. */
  detail(ref: string, profileId: string): JobDetail {
    const job = this.find(ref, profileId);
    const intent = this.deps.jobs.getIntentById(job.intentId);
    return {
      job,
      idempotencyKey: intent?.idempotencyKey,
      request: intent ? (JSON.parse(intent.canonicalBodyJson) as unknown) : undefined,
    };
  }

  /** The idempotency key a job row of the journal was created under (progress reports name jobs by it). */
  keyOfJobRow(jobRowId: number): string | undefined {
    const job = this.deps.jobs.getJob(jobRowId);
    return job ? this.deps.jobs.getIntentById(job.intentId)?.idempotencyKey : undefined;
  }

  /** The job created under an idempotency key, if the platform accepted one. */
  jobForKey(idempotencyKey: string): JobWithOutputs | undefined {
    const intent = this.deps.jobs.currentIntent(idempotencyKey);
    return intent ? this.deps.jobs.getJobForIntent(intent.id) : undefined;
  }

  /** A page of the synchronous calls made as a profile, newest first; a bad cursor is a usage error. */
  calls(query: {
    profileId: string;
    operation?: ServiceCallOperation;
    limit: number;
    cursor?: string;
  }): Page<ServiceCall> {
    try {
      return this.deps.serviceCalls.list(query);
    } catch (error) {
      if (error instanceof RangeError) throw new AppError('usage', error.message);
      throw error;
    }
  }
}
