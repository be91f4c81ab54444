import {
  VARIATION_COUNT_MAX,
  VARIATION_COUNT_MIN,
  type VariationsResult,
} from '../../../shared/bridge/domains/studio.js';
import { AppError } from '../errors.js';
import type { VariationsRepository } from '../journal/variations-repository.js';
import type { DraftInputs } from './draft-inputs.js';
import type { StudioDrafts } from './drafts.js';
import type { StudioSubmit } from './submit.js';
import { variationGroupId, variationKey, variationSeed } from './variation-keys.js';

type Variation = VariationsResult['variations'][number];
type Created = Awaited<ReturnType<StudioSubmit['createUnderKey']>>;

/** The intent is in the journal and was not refused: the variation exists (or will). */
const isCommitted = (created: Created) => created.intent !== undefined && created.intent.state !== 'rejected';

export interface StudioVariationsDeps {
  /** The one way a draft's job is created (Generate's), here under each variation's key. */
  submit: Pick<StudioSubmit, 'createUnderKey'>;
  drafts: StudioDrafts;
  inputs: Pick<DraftInputs, 'localDraft'>;
  variations: Pick<VariationsRepository, 'record'>;
  /** A job's group was recorded: its view is sent again (the Queue shows it in its group). */
  onGrouped?: (jobRowId: number) => void;
}

/**
 * `video.variations`, "Generate ×N": N jobs of one draft that differ only in `seed`, each under
 * its own idempotency key (`variationKey`: the draft's key and the index) with its own seed
 * (`variationSeed`: the draft's seed and the next ones, or a start derived from the draft's key),
 * created through `StudioSubmit.createUnderKey` like Generate. The same press again, or a second
 * one while the first runs, replays the same keys and bodies: nothing new is created. The group is
 * recorded in the journal (`job_variations`); the draft is then read-only.
 */
export class StudioVariations {
  private readonly running = new Map<string, { count: number; run: Promise<VariationsResult> }>();

  constructor(private readonly d: StudioVariationsDeps) {}

  async generate(draftId: string, count: number): Promise<VariationsResult> {
    if (!Number.isInteger(count) || count < VARIATION_COUNT_MIN || count > VARIATION_COUNT_MAX)
      throw new AppError(
        'variations.count_invalid',
        `Variations: choose ${VARIATION_COUNT_MIN} to ${VARIATION_COUNT_MAX} (got ${String(count)}).`,
      );
    const running = this.running.get(draftId);
    if (running) {
      if (running.count !== count) throw this.otherCount(running.count);
      // a double click while the first press is still uploading or creating joins it
      return running.run;
    }
    const run = this.generateOnce(draftId, count).finally(() => this.running.delete(draftId));
    this.running.set(draftId, { count, run });
    return run;
  }

  private otherCount(count: number): AppError {
    return new AppError(
      'variations.count_changed',
      `This draft already makes ${count} variations; use "Copy to Create" for another set.`,
    );
  }

  private async generateOnce(draftId: string, count: number): Promise<VariationsResult> {
    const stored = this.d.drafts.stored(draftId);
    if (stored.variations && stored.variations.count !== count)
      throw this.otherCount(stored.variations.count);
    if (stored.submittedAt !== null && !stored.variations)
      throw new AppError(
        'draft.submitted',
        'This draft was already generated; use "Copy to Create" to make variations of it.',
      );
    const draftKey = stored.idempotencyKey;
    const groupId = variationGroupId(draftKey);
    const base = await this.d.inputs.localDraft(stored.form);
    const plan = Array.from({ length: count }, (_, index) => ({
      index,
      idempotencyKey: variationKey(draftKey, index),
      seed: variationSeed(draftKey, stored.form.seed, index),
    }));
    const create = (p: (typeof plan)[number]) =>
      this.d.submit
        .createUnderKey(draftId, {
          idempotencyKey: p.idempotencyKey,
          draft: { ...base, seed: p.seed },
          // the platform's persistent business id of this variation (never regenerated)
          clientTaskId: `${draftId}.v${p.index}`,
        })
        .then((created) => this.recorded(groupId, count, p, created));
    // the first alone (it uploads the inputs once; a refusal stops there), then the others, which
    // reuse the journal's assets
    const first = await create(plan[0]!);
    const results = isCommitted(first.created)
      ? [first, ...(await Promise.all(plan.slice(1).map(create)))]
      : [first];
    if (!results.some((r) => isCommitted(r.created))) {
      // nothing was created: editable again, with a fresh key when a key was spent on a refusal
      this.d.drafts.reopen(
        draftId,
        results.some((r) => r.created.intent),
      );
      throw results.find((r) => r.created.failure)?.created.failure?.error ?? this.nothingCreated();
    }
    this.d.drafts.markVaried(draftId, count);
    const firstJob = results.find((r) => r.view.jobRowId !== null)?.view.jobRowId;
    if (firstJob !== undefined && firstJob !== null) this.d.drafts.setDraftJob(draftId, firstJob);
    return { groupId, count, variations: results.map((r) => r.view), draft: this.d.drafts.draft(draftId) };
  }

  private nothingCreated(): AppError {
    return new AppError('variations.not_created', 'No variation was created.');
  }

  /** Files a committed intent in its group and answers the variation's state. */
  private recorded(
    groupId: string,
    count: number,
    p: { index: number; idempotencyKey: string; seed: number },
    created: Created,
  ): { created: Created; view: Variation } {
    const { intent, job, failure } = created;
    if (intent && isCommitted(created)) {
      this.d.variations.record({ intentId: intent.id, groupId, position: p.index, count });
      if (job) this.d.onGrouped?.(job.id);
    }
    const refused = !isCommitted(created);
    const reason =
      refused || !job
        ? (intent?.errorMessage ??
          (failure?.error instanceof Error ? failure.error.message : failure ? String(failure.error) : null))
        : null;
    return {
      created,
      view: {
        index: p.index,
        seed: p.seed,
        idempotencyKey: p.idempotencyKey,
        state: refused ? 'refused' : job ? 'accepted' : 'pending',
        jobRowId: job?.id ?? null,
        reason,
      },
    };
  }
}
