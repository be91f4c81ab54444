import { z } from 'zod';
import { codePointLength, codePointString, FreeFormObject } from './common.js';

export const RERANK_QUERY_MAX = 1024;
export const RERANK_MAX_DOCUMENTS = 256;
export const RERANK_DOCUMENT_MAX = 8192;
export const RERANK_TOTAL_MAX = 65536;

export const RerankRequest = z
  .object({
    model: z.string().min(1),
    query: codePointString({ min: 1, max: RERANK_QUERY_MAX }),
    documents: z
      .array(codePointString({ max: RERANK_DOCUMENT_MAX }))
      .min(1)
      .max(RERANK_MAX_DOCUMENTS),
    /** Only when the model supports it. */
    top_n: z.int().min(1).optional(),
  })
  .superRefine((body, ctx) => {
    const total =
      codePointLength(body.query) + body.documents.reduce((sum, doc) => sum + codePointLength(doc), 0);
    if (total > RERANK_TOTAL_MAX) {
      ctx.addIssue({
        code: 'custom',
        path: ['documents'],
        message: `query plus documents must be at most ${RERANK_TOTAL_MAX} characters together (got ${total})`,
      });
    }
  });
export type RerankRequest = z.infer<typeof RerankRequest>;

export const RerankResult = z
  .object({
    index: z.int(),
    relevance_score: z.number(),
    document: z.union([z.string(), z.object({ text: z.string() }).loose()]).optional(),
  })
  .loose();

export const RerankResponse = z
  .object({
    id: z.string(),
    model: z.string(),
    results: z.array(RerankResult),
    usage: FreeFormObject.optional(),
  })
  .loose();
export type RerankResponse = z.infer<typeof RerankResponse>;
