import { z } from 'zod';
import { codePointString, FreeFormObject } from './common.js';

export const EMBEDDING_MAX_ITEMS = 64;
export const EMBEDDING_MAX_CODE_POINTS = 8192;

const EmbeddingText = codePointString({ min: 1, max: EMBEDDING_MAX_CODE_POINTS }).refine(
  (value) => value.trim().length > 0,
  {
    message: 'must be non-empty after trimming',
  },
);

export const EmbeddingsRequest = z.object({
  model: z.string().min(1),
  input: z.union([EmbeddingText, z.array(EmbeddingText).min(1).max(EMBEDDING_MAX_ITEMS)]),
});
export type EmbeddingsRequest = z.infer<typeof EmbeddingsRequest>;

export const EmbeddingsResponse = z
  .object({
    object: z.string(),
    model: z.string(),
    data: z.array(z.object({ object: z.string(), index: z.int(), embedding: z.array(z.number()) }).loose()),
    usage: FreeFormObject,
  })
  .loose();
export type EmbeddingsResponse = z.infer<typeof EmbeddingsResponse>;
