import { z } from 'zod';
import { FreeFormObject } from './common.js';

export const DOCUMENT_PAGE_MAX = 500;

const PageNumber = z.int().min(1).max(DOCUMENT_PAGE_MAX);

export const DocumentParseRequest = z
  .object({
    model: z.string().min(1),
    /** Uploaded earlier in this identity and model scope. */
    input_document_asset_id: z.string().min(1),
    language: z.enum(['ch', 'en']).optional(),
    original_name: z.string().optional(),
    pages: PageNumber.optional(),
    page_range: z.object({ start_page: PageNumber, end_page: PageNumber }).optional(),
    preset: z.enum(['hybrid-medium', 'hybrid-high']).optional(),
  })
  .superRefine((body, ctx) => {
    if (body.page_range && body.page_range.start_page > body.page_range.end_page) {
      ctx.addIssue({
        code: 'custom',
        path: ['page_range'],
        message: 'start_page must not be after end_page',
      });
    }
  });
export type DocumentParseRequest = z.infer<typeof DocumentParseRequest>;

export const DocumentBlock = z
  .object({ type: z.string(), text: z.string(), bbox: z.array(z.number()) })
  .partial()
  .loose();

/** Structured artifacts; the body is not shown by the spec, so every key beyond these is open. */
export const DocumentParseResponse = z
  .object({
    id: z.string(),
    object: z.string(),
    model: z.string(),
    documentAssetId: z.string(),
    pageCount: z.int(),
    markdown: z.string(),
    pages: z.array(z.object({ page: z.int(), markdown: z.string(), blocks: z.array(DocumentBlock) }).loose()),
    usage: FreeFormObject.optional(),
  })
  .loose();
export type DocumentParseResponse = z.infer<typeof DocumentParseResponse>;
