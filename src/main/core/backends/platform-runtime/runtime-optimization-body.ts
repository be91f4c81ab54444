import type { PromptOptimizationRequest } from '../../../../shared/api/prompt-optimization.js';
import {
  buildOptimizationRequest,
  type PromptOptimizationRequestBody,
} from '../../../../shared/h3/build-request.js';
import type { EffectiveLimits } from '../../../../shared/h3/effective-limits.js';
import { AppError } from '../../errors.js';
import type { RuntimeInput } from './runtime-inputs.js';
import type { RuntimeOptimizationRequest } from '../../api-clients/runtime/runtime-schemas.js';
import { inputsToSend, type LocalVideoDraft } from '../../creating/submit-video.js';

/**
 * A draft's optimization in the public form with each input named by its content (`assetId` =
 * the file's sha256), built by the public builder (H3 rules, roles, counts, style): no URL and no
 * expiry in it, so the same draft always gives the same body — the source of its key.
 * Throws `DraftInvalidError` as the public builder does.
 */
export function contentKeyedOptimization(
  draft: LocalVideoDraft,
  limits: EffectiveLimits,
  style: string | undefined,
): Omit<PromptOptimizationRequest, 'clientRequestId'> {
  const byContent = new Map<string, string>();
  for (const { file } of inputsToSend(draft, limits)) byContent.set(file.id, file.sha256);
  const { clientRequestId: _placeholder, ...body } = buildOptimizationRequest(draft, byContent, limits, {
    // replaced by the key derived from this body
    clientRequestId: 'derived-below',
    style: style?.trim() ? style : undefined,
  });
  return body as Omit<PromptOptimizationRequestBody, 'clientRequestId'> as Omit<
    PromptOptimizationRequest,
    'clientRequestId'
  >;
}

/**
 * The runtime body (application-platform-api.md A, "Prompt optimization (runtime)"): the
 * content-keyed body with `clientRequestId`, and each reference as `{role, readUrl, byteSize,
 * sha256, mimeType}` of its stored object — no `mediaType`, no personal `assetId`.
 */
export function runtimeOptimizationBody(
  keyed: Omit<PromptOptimizationRequest, 'clientRequestId'>,
  clientRequestId: string,
  stored: readonly Pick<RuntimeInput, 'readUrl' | 'sha256' | 'byteSize' | 'mimeType'>[],
): RuntimeOptimizationRequest {
  const bySha = new Map(stored.map((input) => [input.sha256, input]));
  return {
    clientRequestId,
    ...keyed,
    referenceInputs: keyed.referenceInputs.map(({ role, assetId }) => {
      const input = bySha.get(assetId);
      if (!input)
        throw new AppError('file.unreadable', 'A reference changed after it was checked; add it again.');
      return {
        role,
        readUrl: input.readUrl,
        byteSize: input.byteSize,
        sha256: input.sha256,
        mimeType: input.mimeType,
      };
    }),
  };
}
