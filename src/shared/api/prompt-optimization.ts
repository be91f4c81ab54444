import { z } from 'zod';
import { codePointString, DateTime } from './common.js';
import { H3_PROMPT_CODE_POINTS } from './spec-limits.js';

export const OPTIMIZATION_PROFILE = 'typed-media/v1';

export const OptimizationRole = z.enum([
  'first_frame',
  'last_frame',
  'reference_image',
  'reference_video',
  'reference_audio',
]);
export type OptimizationRole = z.infer<typeof OptimizationRole>;

/** Optimizer reference: only `role` and `assetId` (no `mediaType`). */
export const OptimizationReference = z
  .object({ role: OptimizationRole, assetId: z.string().min(1) })
  .strict();
export type OptimizationReference = z.infer<typeof OptimizationReference>;

export const OptimizationMediaSpec = z
  .object({
    imageCount: z.int().optional(),
    orientation: z.string().optional(),
    outputSizeCode: z.string().optional(),
    qualityTier: z.string().optional(),
    resolutionTier: z.string().optional(),
    seconds: z.int().optional(),
  })
  .strict();
export type OptimizationMediaSpec = z.infer<typeof OptimizationMediaSpec>;

export const CLIENT_REQUEST_ID_PATTERN = /^[A-Za-z0-9._:-]+$/;

/** `POST /media/prompt-optimizations` body (`additionalProperties: false`). */
export const PromptOptimizationRequest = z
  .object({
    clientRequestId: z.string().min(8).max(128).regex(CLIENT_REQUEST_ID_PATTERN),
    model: z.string().min(1),
    generationMode: z.string().min(1),
    /** 1..7000 Unicode code points for H3 (the service's profile publishes the limit). */
    originalPrompt: z.string(),
    mediaSpec: OptimizationMediaSpec,
    referenceInputs: z.array(OptimizationReference).max(12),
    audioReferencePolicy: z.literal('preserve_without_understanding').optional(),
    style: codePointString({ min: 1, max: 200 }).optional(),
  })
  .strict();
export type PromptOptimizationRequest = z.infer<typeof PromptOptimizationRequest>;

export const Optimization = z
  .object({
    optimizationId: z.string(),
    serviceKind: z.string(),
    generationMode: z.string(),
    originalPrompt: z.string(),
    optimizedPrompt: codePointString({ max: H3_PROMPT_CODE_POINTS.max }),
    status: z.literal('succeeded'),
    createdAt: DateTime,
    expiresAt: DateTime,
    outcome: z.string().optional(),
    noticeCodes: z.array(z.string()).optional(),
  })
  .strict();
export type Optimization = z.infer<typeof Optimization>;

/** Response (`additionalProperties: false`), HTTP 201. */
export const PromptOptimizationResponse = z
  .object({ requestId: z.string(), optimization: Optimization })
  .strict();
export type PromptOptimizationResponse = z.infer<typeof PromptOptimizationResponse>;
