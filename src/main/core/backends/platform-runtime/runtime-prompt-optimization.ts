import type { ServiceEntry } from '../../../../shared/api/discovery.js';
import { AppError } from '../../errors.js';
import { runtimeInputsOf, type RuntimeInputsDeps } from './runtime-inputs.js';
import type { Journal } from '../../journal/open-journal.js';
import { chooseService } from '../../operations/service-common.js';
import type { RuntimeApiClient } from '../../api-clients/runtime/runtime-api-client.js';
import type { RuntimeOptimizationRequest } from '../../api-clients/runtime/runtime-schemas.js';
import { localDraftOf } from '../../creating/draft-inputs.js';
import type { StudioDrafts } from '../../creating/drafts.js';
import type { StagedFiles } from '../../storage/staged-files.js';
import {
  optimizationKey,
  optimizePrompt,
  type OptimizationSender,
} from '../../creating/prompt-optimization.js';
import { assertDraftValid, limitsFor } from '../../creating/submit-video.js';
import { contentKeyedOptimization, runtimeOptimizationBody } from './runtime-optimization-body.js';
import { requireSession, type CurrentSession } from './runtime-session.js';

export interface RuntimeOptimizeDeps {
  /** Optimizations are journaled (`journal.optimizations`) and replayed under the same key. */
  journal: Journal;
  client: Pick<RuntimeApiClient, 'optimizePrompt' | 'clock'>;
  /** The person's session now (null: `runtime.no_session`; a recovery reference never authorizes it). */
  session: CurrentSession;
  drafts: Pick<StudioDrafts, 'stored'>;
  staged: Pick<StagedFiles, 'resolve'>;
  /** The person's object storage: references travel as signed `readUrl`s. */
  readUrls: RuntimeInputsDeps;
  /** The runtime's services of a kind (`/available-services`). */
  services: (serviceKind: string) => Promise<ServiceEntry[]>;
  profileId: string;
}

/**
 * Prompt optimization of a draft on the platform's runtime: the result {@link StudioOptimize}
 * gives over the public interface, from the same rules and the same journal.
 *
 * The key (`clientRequestId` = `Idempotency-Key`) is derived from the draft's content-keyed body
 * (no signed URL in it), so pressing Optimize again for the same draft gives the same key. The
 * runtime body is built once, when the key is new, and journaled; every later send — the bounded
 * replays of an unknown outcome, a later press, a resume at start — sends that stored body as it
 * is, byte for byte. Its readUrls are therefore never re-signed (a new signature or expiry would
 * be a different body under the same key); they are signed for the storage's input lifetime
 * (7 days, `INPUT_READ_URL_LIFETIME_SECONDS`), which covers every replay a person can cause: the
 * session that sends it never lives past 7 days after its first exchange, and the platform reads
 * references during the call only. A finished optimization is answered from the journal.
 */
export class RuntimeOptimize {
  constructor(private readonly d: RuntimeOptimizeDeps) {}

  async optimize(
    draftId: string,
    style: string | undefined,
  ): Promise<{ clientRequestId: string; originalPrompt: string; optimizedPrompt: string }> {
    const { journal, profileId } = this.d;
    const stored = this.d.drafts.stored(draftId);
    const draft = await localDraftOf(this.d.staged, stored.form);
    const service = chooseService(
      await this.d.services('video_generation'),
      ['video_generation'],
      draft.model,
    );
    const limits = limitsFor(service);
    assertDraftValid(draft, limits);
    if (!limits.optimization.available)
      throw new AppError(
        'optimization.unavailable',
        `The service "${draft.model}" does not offer prompt optimization.`,
      );
    const keyed = contentKeyedOptimization(draft, limits, style);
    const auth = await requireSession(this.d.session);
    const clientRequestId = optimizationKey(journal, {
      profileId,
      scope: `studio-draft:${draftId}`,
      request: keyed,
    });
    const recorded = journal.optimizations.get(clientRequestId);
    const request: RuntimeOptimizationRequest = recorded
      ? (JSON.parse(recorded.canonicalBodyJson) as RuntimeOptimizationRequest)
      : runtimeOptimizationBody(
          keyed,
          clientRequestId,
          await runtimeInputsOf(draft, limits, this.d.readUrls),
        );
    const client = this.d.client;
    const sender: OptimizationSender<RuntimeOptimizationRequest> = {
      profileId,
      clock: client.clock,
      optimizePrompt: (body, timeoutSeconds) => client.optimizePrompt(auth, body, timeoutSeconds),
    };
    const result = await optimizePrompt(journal, sender, request, {
      clientTimeoutSeconds: limits.optimization.clientTimeoutSeconds,
      draftId,
    });
    return {
      clientRequestId,
      originalPrompt: stored.form.prompt,
      optimizedPrompt: result.optimizedPrompt ?? '',
    };
  }
}
