import { z } from 'zod';
import { FreeFormObject } from './common.js';

/** Every error body of the public API (`additionalProperties: false`). */
export const PublicError = z
  .object({
    code: z.string(),
    message: z.string(),
    /** Server-generated diagnostic id. */
    requestId: z.string(),
    retryable: z.boolean(),
    details: FreeFormObject.optional(),
  })
  .strict();
export type PublicError = z.infer<typeof PublicError>;
