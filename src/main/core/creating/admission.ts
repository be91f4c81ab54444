import { buildMediaGenerationRequest } from '../../../shared/h3/build-request.js';
import type { DraftInputs } from './draft-inputs.js';

/** The service's admission preview for a draft (spec: "Admission preview"); nothing is created. */
export class StudioAdmission {
  constructor(private readonly d: { inputs: DraftInputs }) {}

  async admission(draftId: string) {
    const { client, limits, draft } = await this.d.inputs.prepared(draftId);
    const { uploaded } = await this.d.inputs.upload(draftId, client, draft, limits);
    const body = buildMediaGenerationRequest(draft, uploaded, limits) as unknown as Record<string, unknown>;
    const preview = await client.admissionPreview(draft.model, body);
    const admission = preview.admission as Record<string, unknown>;
    return {
      admitted: typeof admission.admitted === 'boolean' ? admission.admitted : null,
      admission,
      generatedAt: preview.generatedAt,
    };
  }
}
