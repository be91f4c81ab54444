import { z } from 'zod';

/**
 * The shape Framewright reads from a service's live `mediaSpecContract` (free-form in the spec).
 *
 * The simulator publishes exactly this shape; the client reads it tolerantly: every part is
 * optional and unknown keys pass through, so a live contract that adds a value (a new
 * resolution tier, canvas or size code) works without a code change, and a contract that is
 * silent on a limit falls back to the document's H3 numbers (see src/shared/h3/).
 */

/** One request field a model publishes, used to generate a form control. */
export const ContractParameter = z
  .object({
    name: z.string(),
    /** 'enum' | 'integer' | 'number' | 'boolean' | 'string' (others are shown as text). */
    type: z.string(),
    required: z.boolean().optional(),
    description: z.string().optional(),
    values: z.array(z.union([z.string(), z.number()])).optional(),
    minimum: z.number().optional(),
    maximum: z.number().optional(),
    maxLength: z.number().optional(),
    default: z.unknown().optional(),
    /** When set, the parameter applies only to these generation modes. */
    modes: z.array(z.string()).optional(),
  })
  .loose();
export type ContractParameter = z.infer<typeof ContractParameter>;

/** Upload rule for one input role (first_frame, last_frame, reference_image, reference_video, reference_audio). */
export const RoleUploadLimit = z
  .object({
    /** Accepted MIME types, detected from content. */
    formats: z.array(z.string()).optional(),
    maxBytes: z.number().int().positive().optional(),
    /** Audio only: per-clip duration bounds and combined duration. */
    minSeconds: z.number().optional(),
    maxSeconds: z.number().optional(),
    maxTotalSeconds: z.number().optional(),
  })
  .loose();
export type RoleUploadLimit = z.infer<typeof RoleUploadLimit>;

/** Composition of the reference list in universal-reference mode. */
export const ReferenceComposition = z
  .object({
    maxItems: z.number().int().optional(),
    maxImages: z.number().int().optional(),
    maxImagesWithVideo: z.number().int().optional(),
    maxVideos: z.number().int().optional(),
    maxAudios: z.number().int().optional(),
    /** At least this many images or videos (audio alone is invalid). */
    minVisual: z.number().int().optional(),
  })
  .loose();
export type ReferenceComposition = z.infer<typeof ReferenceComposition>;

/** What one generation mode takes. */
export const ModeInputs = z
  .object({
    /** Frame inputs: field name -> role; e.g. { input_image_asset_id: 'first_frame' }. All listed are required. */
    frames: z.record(z.string(), z.string()).optional(),
    /** Present when the mode takes `referenceInputs`. */
    referenceInputs: ReferenceComposition.optional(),
    /** Image generation: how many input images the mode takes (else the number of `frames`). */
    maxInputImages: z.number().int().optional(),
  })
  .loose();
export type ModeInputs = z.infer<typeof ModeInputs>;

export const Canvas = z.object({ width: z.number().int(), height: z.number().int() }).loose();
export type Canvas = z.infer<typeof Canvas>;

export const MediaSpecContract = z
  .object({
    version: z.string().optional(),
    /** e.g. 'h3' for the H3 video profile. */
    profile: z.string().optional(),
    requiredFields: z.array(z.string()).optional(),
    /** Fields the model must not be sent (H3: fps, frame counts, width/height, steps, runtime settings). */
    forbiddenFields: z.array(z.string()).optional(),
    parameters: z.array(ContractParameter).optional(),
    prompt: z
      .object({
        minCodePoints: z.number().int().optional(),
        maxCodePoints: z.number().int().optional(),
        trim: z.boolean().optional(),
      })
      .loose()
      .optional(),
    modes: z.record(z.string(), ModeInputs).optional(),
    effectiveSpec: z
      .object({
        fps: z.number().optional(),
        maxFrames: z.number().int().optional(),
        /** resolutionTier -> orientation -> canvas */
        canvases: z.record(z.string(), z.record(z.string(), Canvas)).optional(),
      })
      .loose()
      .optional(),
    /** role -> upload limit */
    uploadLimits: z.record(z.string(), RoleUploadLimit).optional(),
  })
  .loose();
export type MediaSpecContract = z.infer<typeof MediaSpecContract>;
