import { z } from 'zod';

/** `POST /images/generations`; the prompt limit comes from the service. Response: MediaJob. */
export const ImageGenerationRequest = z.object({
  model: z.string().min(1),
  prompt: z.string(),
  generationMode: z.string().min(1).optional(),
  imageCount: z.int().min(1).optional(),
  input_image_asset_id: z.string().min(1).optional(),
  input_image_asset_ids: z.array(z.string().min(1)).optional(),
  orientation: z.string().optional(),
  outputSizeCode: z.string().optional(),
  qualityTier: z.string().optional(),
  resolutionTier: z.string().optional(),
  seed: z.int().optional(),
});
export type ImageGenerationRequest = z.infer<typeof ImageGenerationRequest>;
