import type { PromptOptimizationRequest } from '../../../shared/api/prompt-optimization.js';
import { AppError } from '../errors.js';
import type { Journal } from '../journal/open-journal.js';
import type { PromptOptimization } from '../journal/prompt-optimizations-repository.js';
import { IdempotencyConflictError } from '../journal/errors.js';
import { DEFAULT_RETRY_BACKOFF, backoffDelay, type BackoffPolicy } from '../jobs/backoff.js';
import { retryWaitMs } from '../platform/retry-after.js';
import { ApiError, OutcomeUnknownError } from '../platform/api-errors.js';
import type { PublicApiClient } from '../platform/public-api-client.js';

export interface OptimizeOptions {
  /** From the service's live `promptOptimization.clientTimeoutSeconds`. */
  clientTimeoutSeconds: number;
  draftId?: string;
  maxAttempts?: number;
  backoff?: BackoffPolicy;
}

/**
 * Prompt optimization: a separate, billed call that never starts generation. The request is
 * committed to the journal first; `Idempotency-Key` equals `clientRequestId`; an unknown outcome
 * (timeout, broken connection, 504) is replayed with the same key and body (bounded); a finished
 * optimization is returned from the journal without a second call. On failure the original prompt
 * stays as it was.
 */
export async function optimizePrompt(
  journal: Journal,
  client: PublicApiClient,
  request: PromptOptimizationRequest,
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
  const body = JSON.parse(recorded.canonicalBodyJson) as PromptOptimizationRequest;
  const maxAttempts = options.maxAttempts ?? 4;
  let lastError: unknown;
  for (let attempt = 0; attempt < maxAttempts; attempt += 1) {
    journal.optimizations.markAttempt(request.clientRequestId);
    let serverSeconds: number | undefined;
    try {
      const response = await client.optimizePrompt(body, options.clientTimeoutSeconds);
      return journal.optimizations.markSucceeded(request.clientRequestId, {
        requestId: response.requestId,
        optimizationId: response.optimization.optimizationId,
        optimizedPrompt: response.optimization.optimizedPrompt,
        expiresAt: Date.parse(response.optimization.expiresAt),
        response,
      });
    } catch (error) {
      lastError = error;
      if (
        error instanceof OutcomeUnknownError ||
        (error instanceof ApiError && error.kind === 'gateway_timeout')
      ) {
        journal.optimizations.markUnknown(request.clientRequestId, error.message);
      } else if (
        error instanceof ApiError &&
        (error.kind === 'rate_limited' || error.kind === 'unavailable')
      ) {
        serverSeconds = error.retryAfterSeconds;
      } else if (error instanceof ApiError) {
        journal.optimizations.markFailed(request.clientRequestId, {
          statusCode: error.status,
          errorCode: error.apiCode,
          errorMessage: error.serviceMessage,
          requestId: error.requestId,
        });
        throw error;
      } else {
        throw error;
      }
    }
    if (attempt + 1 < maxAttempts) {
      const wait = retryWaitMs({
        serverSeconds,
        ownDelayMs: backoffDelay(options.backoff ?? DEFAULT_RETRY_BACKOFF, attempt),
        operation: 'Optimize prompt',
      });
      await client.clock.sleep(wait);
    }
  }
  throw lastError;
}
