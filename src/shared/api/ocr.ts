import { z } from 'zod';

export const OcrRequest = z.object({
  model: z.string().min(1),
  /** Recommended image input. */
  input_image_asset_id: z.string().min(1).optional(),
  /** Compatibility name, recognised for metering. */
  image_asset_id: z.string().min(1).optional(),
  /** Only for services that state support. */
  document_asset_id: z.string().min(1).optional(),
  task: z.string().min(1).optional(),
  /** Metering page count; defaults to 1 when omitted or not positive; does not select pages. */
  pages: z.int().optional(),
});
export type OcrRequest = z.infer<typeof OcrRequest>;

export const OcrBlock = z
  .object({ text: z.string(), bbox: z.array(z.number()), confidence: z.number() })
  .partial()
  .loose();

/** The selected model's own JSON, forwarded; these keys are typical, not guaranteed. */
export const OcrResponse = z
  .object({
    text: z.string(),
    blocks: z.array(OcrBlock),
    pages: z.array(
      z
        .object({ page: z.int(), text: z.string(), blocks: z.array(OcrBlock) })
        .partial()
        .loose(),
    ),
  })
  .partial()
  .loose();
export type OcrResponse = z.infer<typeof OcrResponse>;
