import { resolveEffectiveLimits } from '../../../../shared/h3/effective-limits.js';
import type { Journal } from '../../journal/open-journal.js';
import type {
  OptimizationState,
  ResumedOptimization,
} from '../../journal/prompt-optimizations-repository.js';
import type { BackoffPolicy } from '../../api-clients/retry/backoff.js';
import type { PublicApiClient } from '../../api-clients/public-api-client.js';
import { discoverServices } from '../../discovery/service-list.js';
import { OPTIMIZATION_ATTEMPTS_PER_CALL, replayOptimization } from '../../creating/prompt-optimization.js';

/** Sends of one optimization across every start; past it the optimization is shown as abandoned. */
export const OPTIMIZATION_REPLAY_LIMIT = 3 * OPTIMIZATION_ATTEMPTS_PER_CALL;

export type { ResumedOptimization };

export interface ResumeOptimizationsOptions {
  clientFor(profileId: string): Promise<PublicApiClient>;
  backoff?: BackoffPolicy;
  /** Aborted when the engine stops: no further optimization is started. */
  signal?: AbortSignal;
}

const ABANDONED =
  'The outcome stayed unknown after every replay; pressing Optimize again replays the same optimization (never a new one).';

/**
 * At start (app and `framewright resume`): every optimization whose outcome is unknown — sent, or
 * committed and maybe sent, before a crash or a dropped connection — is replayed with the same key
 * and body, at most {@link OPTIMIZATION_REPLAY_LIMIT} sends in all, then marked abandoned.
 */
export async function resumeOptimizations(
  journal: Journal,
  options: ResumeOptimizationsOptions,
): Promise<ResumedOptimization[]> {
  const out: ResumedOptimization[] = [];
  for (const open of journal.optimizations.listUnfinished()) {
    if (options.signal?.aborted) break;
    const report = (state: OptimizationState, message?: string) =>
      out.push({
        clientRequestId: open.clientRequestId,
        profileId: open.profileId,
        ...(open.draftId ? { draftId: open.draftId } : {}),
        state,
        ...(message ? { message } : {}),
      });
    if (open.attemptCount >= OPTIMIZATION_REPLAY_LIMIT) {
      journal.optimizations.markAbandoned(open.clientRequestId, ABANDONED);
      report('abandoned', ABANDONED);
      continue;
    }
    try {
      const client = await options.clientFor(open.profileId);
      const done = await replayOptimization(journal, client, open.clientRequestId, {
        clientTimeoutSeconds: await clientTimeoutSeconds(journal, client, open.model),
        maxAttempts: Math.min(OPTIMIZATION_ATTEMPTS_PER_CALL, OPTIMIZATION_REPLAY_LIMIT - open.attemptCount),
        backoff: options.backoff,
      });
      report(done.state);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const now = journal.optimizations.get(open.clientRequestId)!;
      if (now.state === 'failed') report('failed', message);
      else if (now.attemptCount >= OPTIMIZATION_REPLAY_LIMIT) {
        journal.optimizations.markAbandoned(open.clientRequestId, ABANDONED);
        report('abandoned', ABANDONED);
      } else report(now.state, message);
    }
  }
  return out;
}

/** The live `clientTimeoutSeconds` of the model (discovery, or its cached copy offline), else the default. */
async function clientTimeoutSeconds(
  journal: Journal,
  client: PublicApiClient,
  model: string,
): Promise<number> {
  const service = await discoverServices(journal, client)
    .then(({ services }) => services.find((s) => s.modelAlias === model))
    .catch(() => undefined);
  return resolveEffectiveLimits(service?.mediaSpecContract, service?.promptOptimization).optimization
    .clientTimeoutSeconds;
}
