import type { z } from 'zod';
import type { SubmitResult } from '../../../shared/bridge/domains/studio.js';
import { isEngineStopped } from '../jobs/engine-stopped.js';
import { AppError } from '../errors.js';
import { committedOf, type RunResult } from '../jobs/job-engine.js';
import type { Job, JobIntent } from '../journal/jobs-repository.js';
import type { Logger } from '../logging/logger.js';
import type { LocalVideoDraft, VideoSubmission } from './submit-video.js';
import type { DraftInputs } from './draft-inputs.js';
import type { StudioDrafts } from './drafts.js';

type SubmitOutcome = z.output<typeof SubmitResult>;

/** How long `video.submit` waits for the service's answer before returning "pending". */
const SUBMIT_ANSWER_MS = 8_000;

/**
 * One draft's creation as `submitVideo` takes it (the public interface), or the platform's runtime:
 * what the engine did (the intent and job as committed); a failure carries what it had committed
 * ({@link committedOf}).
 */
export type CreateDraftJob = (submission: VideoSubmission) => Promise<RunResult>;

export interface StudioSubmitDeps {
  /** Creates the job of a draft: `submitVideo` over a profile's client, or the platform runtime's creation. */
  createJob: CreateDraftJob;
  drafts: StudioDrafts;
  inputs: Pick<DraftInputs, 'localDraft' | 'emitUpload'>;
  waitSeconds: () => number;
  logger: Logger;
  /** Records the draft's project on the job intent it created (issue 14, projects). */
  projects?: { fileJobOfDraft(intentId: number, draftId: string): void };
}

/** `video.submit`: a draft's one creation under its own idempotency key (spec: "Create a video job"). */
export class StudioSubmit {
  constructor(private readonly d: StudioSubmitDeps) {}

  /**
   * Submits the draft with ITS idempotency key. Returns once the service answered the creation
   * (or after a short wait, while the core keeps retrying the committed intent in the
   * background). A second call for the same draft joins the same intent: never a second job.
   */
  private readonly submitting = new Map<string, Promise<SubmitOutcome>>();

  submit(draftId: string): Promise<SubmitOutcome> {
    // a double click while the first call is still uploading joins it
    let running = this.submitting.get(draftId);
    if (!running) {
      running = this.submitOnce(draftId).finally(() => this.submitting.delete(draftId));
      this.submitting.set(draftId, running);
    }
    return running;
  }

  private async submitOnce(draftId: string): Promise<SubmitOutcome> {
    const stored = this.d.drafts.stored(draftId);
    if (stored.variations)
      throw new AppError(
        'draft.submitted',
        `This draft generated ${stored.variations.count} variations; use "Copy to Create" to generate it again.`,
      );
    const key = stored.idempotencyKey;
    const draft = await this.d.inputs.localDraft(stored.form);
    const { intent, job, failure } = await this.createUnderKey(draftId, { idempotencyKey: key, draft });
    if (intent && intent.state !== 'rejected') this.d.drafts.markSubmitted(draftId);
    if (failure) {
      // nothing was created (invalid draft, refused upload or creation): editable again, and a
      // fresh key when the old one was spent on a refused creation
      if (!intent || intent.state === 'rejected') this.d.drafts.reopen(draftId, intent !== undefined);
      if (!intent || intent.state !== 'accepted') throw failure.error;
    }
    if (job) this.d.drafts.setDraftJob(draftId, job.id);
    return {
      state: job ? ('accepted' as const) : ('pending' as const),
      idempotencyKey: key,
      jobRowId: job?.id ?? null,
      reason: job ? null : (intent?.errorMessage ?? null),
      draft: this.d.drafts.draft(draftId),
    };
  }

  /**
   * One job of a draft under `idempotencyKey` (the draft's own, or a variation's), through the
   * same `createJob` as Generate: returns once the service answered the creation (or after a short
   * wait, the run continuing in the background), with what the engine committed. A key already
   * in the journal is continued, never created again. The intent is filed under the draft's
   * project; the draft's own bookkeeping is the caller's.
   */
  async createUnderKey(
    draftId: string,
    job: { idempotencyKey: string; draft: LocalVideoDraft; clientTaskId?: string },
  ): Promise<{ intent?: JobIntent; job?: Job; failure?: { error: unknown } }> {
    const stored = this.d.drafts.stored(draftId);
    let committed: { intent: JobIntent; job?: Job } | undefined;
    let failure: { error: unknown } | undefined;
    try {
      // answers once the create is answered; the run continues in the background (the engine owns the job)
      committed = await this.d.createJob({
        profileId: stored.form.profileId,
        draft: job.draft,
        idempotencyKey: job.idempotencyKey,
        draftId,
        ...(job.clientTaskId ? { clientTaskId: job.clientTaskId } : {}),
        wait: {
          waitSeconds: this.d.waitSeconds(),
          until: 'accepted',
          answerWithinMs: SUBMIT_ANSWER_MS,
          onBackgroundEnd: (end) => {
            if ('error' in end) this.logSubmitError(draftId, end.error);
          },
        },
        onUpload: (progress) => this.d.inputs.emitUpload(draftId, progress),
      });
    } catch (error) {
      failure = { error };
      committed = committedOf(error);
      this.logSubmitError(draftId, error);
    }
    const intent = committed?.intent;
    if (intent && intent.state !== 'rejected') this.d.projects?.fileJobOfDraft(intent.id, draftId);
    const created = committed?.job;
    return {
      ...(intent ? { intent } : {}),
      ...(created ? { job: created } : {}),
      ...(failure ? { failure } : {}),
    };
  }

  private logSubmitError(draftId: string, error: unknown): void {
    // closing the app keeps the job in the journal for the next start: not an error
    if (!isEngineStopped(error)) this.d.logger.warn('studio submit ended with an error', { draftId, error });
  }
}
