import { z } from 'zod';
import { DateTime, FreeFormObject } from './common.js';

export const AdmissionPreviewRequest = z.object({
  model: z.string().min(1),
  /** The prospective creation body; omitted or null means empty; `request.model` is overridden. */
  request: FreeFormObject.nullable().optional(),
});
export type AdmissionPreviewRequest = z.infer<typeof AdmissionPreviewRequest>;

/** The current decision; neither a reservation nor a guarantee. Its fields are not shown by the spec. */
export const Admission = FreeFormObject;

export const AdmissionPreviewResponse = z
  .object({
    publicationId: z.string(),
    serviceKind: z.string(),
    admission: Admission,
    generatedAt: DateTime,
  })
  .loose();
export type AdmissionPreviewResponse = z.infer<typeof AdmissionPreviewResponse>;
