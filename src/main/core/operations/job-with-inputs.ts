import type { ServiceEntry } from '../../../shared/api/discovery.js';
import type { JobEngine, RunResult, SubmitRequest, WaitOptions } from '../jobs/job-engine.js';
import type { Journal } from '../journal/open-journal.js';
import type { ProbedFile } from '../media-tools/probe-media.js';
import type { ProfileDirectory } from '../profiles/profile-directory.js';
import { refusedForUnknownAsset, resendIdempotencyKey } from '../journal/jobs-repository.js';
import { forgetAssetsNamedIn, forgetCachedAssets, isAssetNotFound } from '../uploads/upload-cache.js';
import type { UploadedInput } from '../uploads/upload-input.js';
import { uploadChecked } from './inputs.js';

/**
 * What submitting a media job needs from the core: the journal (uploads, intents), the profile's
 * client and the job engine. The composition root passes its parts; nothing here sees the rest.
 */
export interface MediaJobDeps {
  readonly journal: Journal;
  readonly profiles: Pick<ProfileDirectory, 'clientFor'>;
  readonly engine: Pick<JobEngine, 'submit' | 'continueIntent' | 'createOrContinue'>;
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
 * Uploads a job's inputs and creates it through the job engine; a key the journal already holds is
 * continued by the engine ({@link JobEngine.createOrContinue}) with nothing uploaded again. A create
 * answered 404 `asset_not_found` for an input taken from the journal left a rejected intent and no
 * job: the inputs are uploaded again and the create sent once more as a new business attempt under
 * the key derived from the first ({@link resendIdempotencyKey}, attempt 2), recorded with its link
 * to the first — the first key never carries the second body. The same submission again (a restart
 * between the refusal and the resend included) continues that derived intent, never a third.
 */
export async function submitJobWithInputs(
  core: MediaJobDeps,
  job: JobWithInputs,
): Promise<RunResult & { body: Record<string, unknown> }> {
  const firstKey = job.idempotencyKey;
  const refused = core.journal.jobs.getIntent(firstKey);
  let attempt = 1;
  if (refused && refusedForUnknownAsset(refused)) {
    const resend = core.journal.jobs.latestResendOf(firstKey);
    if (resend) {
      const result = await core.engine.continueIntent(resend.intent, job.wait);
      return { ...result, body: JSON.parse(resend.intent.canonicalBodyJson) as Record<string, unknown> };
    }
    // refused, then stopped before the resend was recorded: upload again, send the resend
    forgetAssetsNamedIn(core.journal, job.profileId, refused.model, refused.canonicalBodyJson);
    attempt = 2;
  }
  let assets: UploadedInput[] = [];
  let body: Record<string, unknown> | undefined;
  const createAs = (n: number) =>
    core.engine.createOrContinue(
      n === 1 ? firstKey : resendIdempotencyKey(firstKey, n),
      async () => {
        const client = await core.profiles.clientFor(job.profileId);
        assets = [];
        for (const file of job.files) {
          job.onStep?.(`upload ${file.fileName}`);
          assets.push(await uploadChecked(core.journal, client, job.service, file));
        }
        body = job.bodyFor(assets.map((asset) => asset.assetId));
        job.onStep?.('create');
        return {
          profileId: job.profileId,
          model: job.service.modelAlias,
          serviceKind: job.serviceKind,
          body,
          ...(n === 1 ? {} : { resendOf: { firstIdempotencyKey: firstKey, attempt: n } }),
        };
      },
      job.wait,
    );
  const withBody = (result: RunResult) => ({
    ...result,
    body: body ?? (JSON.parse(result.intent.canonicalBodyJson) as Record<string, unknown>),
  });
  try {
    return withBody(await createAs(attempt));
  } catch (error) {
    // a 404 for inputs taken from the journal: they are forgotten; the first attempt is resent once
    const cached = assets.filter((asset) => asset.fromJournal).map((asset) => asset.assetId);
    if (cached.length === 0 || !isAssetNotFound(error)) throw error;
    forgetCachedAssets(core.journal, job.profileId, job.service.modelAlias, cached);
    const first = core.journal.jobs.getIntent(firstKey);
    if (attempt !== 1 || !first || !refusedForUnknownAsset(first)) throw error;
    attempt = 2;
    return withBody(await createAs(attempt));
  }
}
