import { z } from 'zod';
import { MediaResultAsset, MediaResultAssetAnswer } from './assets.js';
import { DateTime } from './common.js';
import { JOB_STATUSES, TERMINAL_JOB_STATUSES } from './job-statuses.js';

export const H3_GENERATION_MODES = [
  't2v',
  'i2v',
  'first_last_frame_video',
  'universal_reference_video',
] as const;
export const H3_SEED_MAX = 2147483647;

export const ReferenceRole = z.enum(['reference_image', 'reference_video', 'reference_audio']);
export type ReferenceRole = z.infer<typeof ReferenceRole>;
export const ReferenceMediaType = z.enum(['image', 'video', 'audio']);
export type ReferenceMediaType = z.infer<typeof ReferenceMediaType>;

/** The media type each reference role implies. */
export const ROLE_MEDIA_TYPE: Record<ReferenceRole, ReferenceMediaType> = {
  reference_image: 'image',
  reference_video: 'video',
  reference_audio: 'audio',
};

/** Reference item (`additionalProperties: false`). */
export const ReferenceInput = z
  .object({
    role: ReferenceRole,
    assetId: z.string().min(1),
    mediaType: ReferenceMediaType.optional(),
    sha256: z.string().optional(),
  })
  .strict();
export type ReferenceInput = z.infer<typeof ReferenceInput>;

/**
 * Video creation body (top-level, no envelope, additional properties allowed). The H3 limits
 * (code points after trimming, modes, 5..15 s, composition) depend on the model's live contract
 * and are enforced by the service, not by this shape.
 */
export const MediaGenerationRequest = z
  .object({
    model: z.string().min(1),
    prompt: z.string(),
    generationMode: z.string().optional(),
    resolutionTier: z.string().optional(),
    orientation: z.enum(['landscape', 'portrait']).optional(),
    seconds: z.int().optional(),
    seed: z.int().min(0).max(H3_SEED_MAX).optional(),
    input_image_asset_id: z.string().min(1).optional(),
    end_image_asset_id: z.string().min(1).optional(),
    input_audio_asset_id: z.string().min(1).optional(),
    input_video_asset_id: z.string().min(1).optional(),
    referenceInputs: z.array(ReferenceInput).max(12).optional(),
  })
  .loose();
export type MediaGenerationRequest = z.infer<typeof MediaGenerationRequest>;

export const MediaJobStatus = z.enum(JOB_STATUSES);
export type MediaJobStatus = z.infer<typeof MediaJobStatus>;
export { TERMINAL_JOB_STATUSES };

export const EffectiveMediaSpec = z
  .object({
    fps: z.number(),
    generationMode: z.string(),
    height: z.int(),
    orientation: z.string(),
    resolutionTier: z.string(),
    seconds: z.int(),
    width: z.int(),
  })
  .partial()
  .loose();
export type EffectiveMediaSpec = z.infer<typeof EffectiveMediaSpec>;

/** Creation and poll response of every asynchronous media job (additional properties allowed). */
export const MediaJob = z
  .object({
    jobId: z.string(),
    id: z.string().optional(),
    jobUrl: z.url(),
    requestId: z.string(),
    clientRequestId: z.string().optional(),
    object: z.string().optional(),
    model: z.string().optional(),
    serviceKind: z.string().optional(),
    status: MediaJobStatus,
    stage: z.string().optional(),
    stageMessage: z.string().optional(),
    createdAt: DateTime.optional(),
    startedAt: DateTime.optional(),
    completedAt: DateTime.optional(),
    elapsedSeconds: z.number().min(0).optional(),
    queuedSeconds: z.number().min(0).optional(),
    runningSeconds: z.number().min(0).optional(),
    refreshAfterSeconds: z.int().min(0).optional(),
    retryAfterSeconds: z.int().min(0).optional(),
    effectiveMediaSpec: EffectiveMediaSpec.optional(),
    outputs: z.array(MediaResultAsset).optional(),
    /** @deprecated use `outputs`. */
    assets: z.array(MediaResultAsset).optional(),
    errorCode: z.string().optional(),
    errorMessage: z.string().optional(),
    statusCode: z.int().optional(),
    retryable: z.boolean().optional(),
  })
  .loose();
export type MediaJob = z.infer<typeof MediaJob>;

/**
 * A creation or poll answer as a client reads it: the spec's minimum (`jobId`, `status`,
 * `requestId`; `jobUrl` when present) and legacy result items with only `assetId`. A client builds
 * `/jobs/{jobId}?model=` and `/assets/{assetId}/content?model=` only for answers that lack the URL.
 */
export const MediaJobAnswer = MediaJob.extend({
  jobUrl: z.url().optional(),
  outputs: z.array(MediaResultAssetAnswer).optional(),
  /** @deprecated use `outputs`. */
  assets: z.array(MediaResultAssetAnswer).optional(),
});
export type MediaJobAnswer = z.infer<typeof MediaJobAnswer>;
