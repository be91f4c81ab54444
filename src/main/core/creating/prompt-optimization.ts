import { createHash } from 'node:crypto';
import type { PromptOptimizationRequest } from '../../../shared/api/prompt-optimization.js';
import { AppError } from '../errors.js';
import type { Journal } from '../journal/open-journal.js';
import type { PromptOptimization } from '../journal/prompt-optimizations-repository.js';
import { IdempotencyConflictError } from '../journal/errors.js';
import { canonicalJson } from '../journal/json.js';
import type { BackoffPolicy } from '../api-clients/retry/backoff.js';
import { RETRY_POLICIES, classify, withRetry } from '../api-clients/retry/retry.js';
import { ApiError } from '../api-clients/api-errors.js';
import type { RetryClock } from '../api-clients/retry/retry-after.js';

export interface OptimizeOptions {
  /** From the service's live `promptOptimization.clientTimeoutSeconds`. */
  clientTimeoutSeconds: number;
  draftId?: string;
  maxAttempts?: number;
  backoff?: BackoffPolicy;
}

/** The fields of an optimization body the journal indexes (the public and the runtime form share them). */
export interface OptimizationBody {
  clientRequestId: string;
  model: string;
  generationMode: string;
}

/**
 * What sends one optimization body of form `B` under its own key, once (the public client, or the
 * platform runtime's client bound to the person's session): the replays are decided here.
 */
export interface OptimizationSender<B extends OptimizationBody = PromptOptimizationRequest> {
  readonly profileId: string;
  readonly clock: RetryClock;
  optimizePrompt(
    request: B,
    timeoutSeconds: number,
  ): Promise<{
    requestId: string;
    optimization: { optimizationId: string; optimizedPrompt: string; expiresAt: string };
  }>;
}

/** Sends of one optimization per call (the first and its replays). */
export const OPTIMIZATION_ATTEMPTS_PER_CALL = RETRY_POLICIES.optimization.attempts;

/** Refusals after which the service created nothing: the next press may use the next attempt key. */
const NOTHING_CREATED = new Set([401, 402, 403]);

/**
 * The `clientRequestId` (and `Idempotency-Key`) of one business optimization: `opt-` + the sha256
 * of the profile, the scope (the studio's draft, or the CLI) and the request without its id — the
 * prompt, mode, references, spec and style. The same inputs always give the same key, so pressing
 * Optimize again (or running the same command again) returns the recorded result or replays the
 * same key; changed inputs make a new optimization. Only when the service refused it for identity
 * or balance (nothing was created) does the next try use `<key>.2`, `<key>.3`, ….
 */
export function optimizationKey(
  journal: Journal,
  input: { profileId: string; scope: string; request: Omit<PromptOptimizationRequest, 'clientRequestId'> },
): string {
  const { clientRequestId: _ignored, ...request } = input.request as PromptOptimizationRequest;
  const digest = createHash('sha256')
    .update(canonicalJson({ profileId: input.profileId, scope: input.scope, request }))
    .digest('hex');
  const base = `opt-${digest.slice(0, 40)}`;
  for (let attempt = 1; ; attempt += 1) {
    const key = attempt === 1 ? base : `${base}.${attempt}`;
    const found = journal.optimizations.get(key);
    if (!found || found.state !== 'failed' || !NOTHING_CREATED.has(found.statusCode ?? 0)) return key;
  }
}

/**
 * Prompt optimization: a separate, billed call that never starts generation. The request is
 * committed to the journal first; `Idempotency-Key` equals `clientRequestId`; an unknown outcome
 * (timeout, broken connection, 504) is replayed with the same key and body (bounded); a finished
 * optimization is returned from the journal without a second call, and one given up after its
 * replays is replayed again under the same key (never a new one). On failure the original prompt
 * stays as it was.
 */
export async function optimizePrompt<B extends OptimizationBody = PromptOptimizationRequest>(
  journal: Journal,
  client: OptimizationSender<B>,
  request: B,
  options: OptimizeOptions,
): Promise<PromptOptimization> {
  try {
    journal.optimizations.record({
      clientRequestId: request.clientRequestId,
      profileId: client.profileId,
      model: request.model,
      generationMode: request.generationMode,
      body: request,
      draftId: options.draftId,
    });
  } catch (error) {
    if (error instanceof IdempotencyConflictError) {
      throw new AppError(
        'optimization.conflict',
        'This optimization id was already used for a different prompt or settings; start a new optimization.',
      );
    }
    throw error;
  }
  const recorded = journal.optimizations.get(request.clientRequestId)!;
  if (recorded.state === 'succeeded') return recorded;
  if (recorded.state === 'failed') {
    throw new AppError(
      'optimization.failed',
      `This optimization failed earlier: ${recorded.errorMessage ?? recorded.errorCode}`,
    );
  }
  if (recorded.state === 'abandoned') journal.optimizations.reopen(request.clientRequestId);
  return replayOptimization(journal, client, request.clientRequestId, options);
}

/**
 * Sends the journaled body of an open optimization under its own key until the outcome is known,
 * at most `maxAttempts` times: 201 is recorded at once; 429/503 wait as the service says; a
 * timeout, broken connection or 504 is an unknown outcome and is replayed; any other refusal is
 * final and recorded.
 */
export async function replayOptimization<B extends OptimizationBody = PromptOptimizationRequest>(
  journal: Journal,
  client: OptimizationSender<B>,
  clientRequestId: string,
  options: Omit<OptimizeOptions, 'draftId'>,
): Promise<PromptOptimization> {
  const recorded = journal.optimizations.get(clientRequestId)!;
  // the journaled body, sent as stored at every attempt (the same bytes under the same key)
  const body = JSON.parse(recorded.canonicalBodyJson) as B;
  return withRetry(
    'optimization',
    async () => {
      journal.optimizations.markAttempt(clientRequestId);
      try {
        // the request is on disk before it leaves (a power cut cannot forget a billed call)
        await journal.durable();
        const response = await client.optimizePrompt(body, options.clientTimeoutSeconds);
        return journal.optimizations.markSucceeded(clientRequestId, {
          requestId: response.requestId,
          optimizationId: response.optimization.optimizationId,
          optimizedPrompt: response.optimization.optimizedPrompt,
          expiresAt: Date.parse(response.optimization.expiresAt),
          response,
        });
      } catch (error) {
        const verdict = classify(error);
        if (verdict.kind === 'unknown_outcome')
          journal.optimizations.markUnknown(clientRequestId, (error as Error).message);
        else if (verdict.kind === 'final' && error instanceof ApiError)
          journal.optimizations.markFailed(clientRequestId, {
            statusCode: error.status,
            errorCode: error.apiCode,
            errorMessage: error.serviceMessage,
            requestId: error.requestId,
          });
        throw error;
      }
    },
    {
      clock: client.clock,
      policy: {
        ...(options.maxAttempts !== undefined ? { attempts: options.maxAttempts } : {}),
        ...(options.backoff ? { backoff: options.backoff } : {}),
      },
    },
  );
}
