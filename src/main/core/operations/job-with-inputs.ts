import type { ServiceEntry } from '../../../shared/api/discovery.js';
import type { JobEngine, RunResult, SubmitRequest, WaitOptions } from '../jobs/job-engine.js';
import type { Journal } from '../journal/open-journal.js';
import type { ProbedFile } from '../media/probe-media.js';
import type { ProfileDirectory } from '../profiles/profile-directory.js';
import { withUploadedInputs } from './inputs.js';

/**
 * What submitting a media job needs from the core: the journal (uploads, intents), the profile's
 * client and the job engine. The composition root passes its parts; nothing here sees the rest.
 */
export interface MediaJobDeps {
  readonly journal: Journal;
  readonly profiles: Pick<ProfileDirectory, 'clientFor'>;
  readonly engine: Pick<JobEngine, 'submit' | 'continueIntent'>;
}

export interface JobWithInputs {
  profileId: string;
  service: ServiceEntry;
  serviceKind: SubmitRequest['serviceKind'];
  idempotencyKey: string;
  /** Checked input files, uploaded (or reused from the journal) in this order. */
  files: readonly ProbedFile[];
  /** The create body naming the inputs' asset ids (in the order of `files`). */
  bodyFor: (assetIds: string[]) => Record<string, unknown>;
  wait?: WaitOptions;
  onStep?: (step: string) => void;
}

/**
 * Uploads a job's inputs and creates it through the job engine. A create answered 404
 * `asset_not_found` for an input taken from the journal left a rejected intent and no job: the
 * intent is forgotten and sent once more, under the same key, with the inputs uploaded again.
 */
export async function submitJobWithInputs(
  core: MediaJobDeps,
  job: JobWithInputs,
): Promise<RunResult & { body: Record<string, unknown> }> {
  const client = await core.profiles.clientFor(job.profileId);
  let body: Record<string, unknown> = {};
  const result = await withUploadedInputs(
    core.journal,
    client,
    job.service,
    job.files,
    (assets) => {
      body = job.bodyFor(assets.map((asset) => asset.assetId));
      job.onStep?.('create');
      return core.engine.submit(
        {
          profileId: job.profileId,
          model: job.service.modelAlias,
          serviceKind: job.serviceKind,
          body,
          idempotencyKey: job.idempotencyKey,
        },
        job.wait,
      );
    },
    {
      mayResend: () => core.journal.jobs.forgetRejectedIntent(job.idempotencyKey),
      onStep: job.onStep,
    },
  );
  return { ...result, body };
}
