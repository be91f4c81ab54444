import { z } from 'zod';
import { ChatCompletionRequest, ChatCompletionResponse } from '../../shared/api/chat.js';
import { EmbeddingsRequest, EmbeddingsResponse } from '../../shared/api/embeddings.js';
import { OcrRequest, OcrResponse } from '../../shared/api/ocr.js';
import {
  Optimization,
  OptimizationRole,
  PromptOptimizationRequest,
} from '../../shared/api/prompt-optimization.js';
import { RerankRequest, RerankResponse } from '../../shared/api/rerank.js';
import { TranscriptionFields, TranscriptionResponse } from '../../shared/api/transcription.js';
import { ResourceAttribution, Sha256Hex } from './schemas.js';

/**
 * Request and response shapes of the runtime's synchronous calls and prompt optimization: the
 * public interface's bodies, with media as JSON `inputs[]` read from `readUrl` instead of uploads.
 */

/** Most `inputs[]` of one chat completion (not shown by the spec; kept stable). */
export const CHAT_MAX_INPUTS = 10;

/** `inputs[]` item of a synchronous call: `{readUrl, mimeType}`, plus the content's facts when known. */
export const RuntimeCallInput = z
  .object({
    readUrl: z.string().min(1),
    mimeType: z.string().min(1),
    sha256: Sha256Hex.optional(),
    byteSize: z.number().int().nonnegative().optional(),
    expiresAt: z.iso.datetime({ offset: true }).optional(),
  })
  .strict();
export type RuntimeCallInput = z.infer<typeof RuntimeCallInput>;

const Attribution = { resourceAttribution: ResourceAttribution.optional() };

export const RuntimeChatRequest = ChatCompletionRequest.extend({
  inputs: z.array(RuntimeCallInput).max(CHAT_MAX_INPUTS).optional(),
  ...Attribution,
});

export const RuntimeEmbeddingsRequest = EmbeddingsRequest.extend(Attribution);

export const RuntimeRerankRequest = RerankRequest.extend(Attribution);

/** Exactly one image in `inputs` (the count is checked by the route, with its own error). */
export const RuntimeOcrRequest = OcrRequest.pick({ model: true, task: true, pages: true }).extend({
  inputs: z.array(RuntimeCallInput),
  ...Attribution,
});

/** Exactly one audio in `inputs` (the count is checked by the route, with its own error). */
export const RuntimeTranscriptionRequest = TranscriptionFields.extend({
  inputs: z.array(RuntimeCallInput),
  ...Attribution,
});

/** Runtime optimization reference: read from `readUrl`; no `mediaType`, no personal asset id. */
export const RuntimeOptimizationReference = z
  .object({
    role: OptimizationRole,
    readUrl: z.string().min(1),
    byteSize: z.number().int().positive(),
    sha256: Sha256Hex,
    purpose: z.string().min(1).max(200).optional(),
    mimeType: z.string().min(1).optional(),
    expiresAt: z.iso.datetime({ offset: true }).optional(),
  })
  .strict();

export const RuntimeOptimizationRequest = PromptOptimizationRequest.extend({
  referenceInputs: z.array(RuntimeOptimizationReference).max(12),
});
export type RuntimeOptimizationRequest = z.infer<typeof RuntimeOptimizationRequest>;

export const RuntimeOptimizationResponse = z
  .object({
    requestId: z.string(),
    optimization: Optimization.extend({ publicationId: z.string() }),
  })
  .strict();

/** Named in the platform OpenAPI document's components. */
export const SYNC_SCHEMAS = {
  RuntimeCallInput,
  RuntimeChatCompletionRequest: RuntimeChatRequest,
  ChatCompletionResponse,
  RuntimeEmbeddingsRequest,
  EmbeddingsResponse,
  RuntimeRerankRequest,
  RerankResponse,
  RuntimeOcrRequest,
  OcrResponse,
  RuntimeTranscriptionRequest,
  TranscriptionResponse,
  RuntimeOptimizationReference,
  RuntimePromptOptimizationRequest: RuntimeOptimizationRequest,
  RuntimePromptOptimizationResponse: RuntimeOptimizationResponse,
} as const;
