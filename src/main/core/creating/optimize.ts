import type { PromptOptimizationRequest } from '../../../shared/api/prompt-optimization.js';
import { buildOptimizationRequest } from '../../../shared/h3/build-request.js';
import { AppError } from '../errors.js';
import type { Journal } from '../journal/open-journal.js';
import { forgettingUnknownAssets, isAssetNotFound } from '../uploads/upload-cache.js';
import { optimizationKey, optimizePrompt } from './prompt-optimization.js';
import type { DraftInputs } from './draft-inputs.js';

export interface StudioOptimizeDeps {
  /** Optimizations and the upload cache are journaled (replayed under the same key). */
  journal: Journal;
  inputs: DraftInputs;
}

/** Prompt optimization of a draft: a separate, billed call whose result the creator accepts or not. */
export class StudioOptimize {
  constructor(private readonly d: StudioOptimizeDeps) {}

  /**
   * A separate, billed call; the draft's prompt is not changed (the creator accepts or not). The
   * optimization's key belongs to the draft's current inputs: pressing Optimize again for the same
   * prompt, mode, references, spec and style returns the recorded result or replays the same key.
   */
  async optimize(draftId: string, style: string | undefined) {
    const { stored, client, limits, draft } = await this.d.inputs.prepared(draftId);
    if (!limits.optimization.available)
      throw new AppError(
        'optimization.unavailable',
        `The service "${draft.model}" does not offer prompt optimization.`,
      );
    let usedCache = false;
    const optimizeOnce = async () => {
      const { uploaded, fromJournal } = await this.d.inputs.upload(draftId, client, draft, limits);
      usedCache = fromJournal.length > 0;
      const inputs = buildOptimizationRequest(draft, uploaded, limits, {
        clientRequestId: 'derived-below',
        style: style?.trim() ? style : undefined,
      }) as PromptOptimizationRequest;
      // the key is derived from the body (asset ids included): new uploads make a new key
      const clientRequestId = optimizationKey(this.d.journal, {
        profileId: client.profileId,
        scope: `studio-draft:${draftId}`,
        request: inputs,
      });
      const request = { ...inputs, clientRequestId };
      const result = await forgettingUnknownAssets(this.d.journal, client, draft.model, fromJournal, () =>
        optimizePrompt(this.d.journal, client, request, {
          clientTimeoutSeconds: limits.optimization.clientTimeoutSeconds,
          draftId,
        }),
      );
      return { clientRequestId, result };
    };
    let attempt: Awaited<ReturnType<typeof optimizeOnce>>;
    try {
      attempt = await optimizeOnce();
    } catch (error) {
      // an input cached from the journal is unknown to the service: the refusal (recorded as
      // failed, nothing created) forgot the cached ids, so the inputs are uploaded again and the
      // optimization, whose body and key now name the new assets, is sent once more
      if (!usedCache || !isAssetNotFound(error)) throw error;
      attempt = await optimizeOnce();
    }
    const { clientRequestId, result } = attempt;
    return {
      clientRequestId,
      originalPrompt: stored.form.prompt,
      optimizedPrompt: result.optimizedPrompt ?? '',
    };
  }
}
