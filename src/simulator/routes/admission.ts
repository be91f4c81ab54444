import { AdmissionPreviewRequest, AdmissionPreviewResponse } from '../../shared/api/admission.js';
import { PublicError } from '../../shared/api/errors.js';
import { findService } from '../catalog.js';
import type { RequestContext, RouteDef } from '../context.js';
import { ApiError, modelNotFound } from '../errors.js';
import { parseWith, readJsonObject, sendJson } from '../http.js';
import { validateH3Request } from '../rules/h3-rules.js';

const ASYNC_KINDS = ['video_generation', 'image_generation', 'audio_generation'];

async function preview(rc: RequestContext): Promise<void> {
  const body = parseWith(AdmissionPreviewRequest, await readJsonObject(rc.req));
  const service = findService(body.model);
  if (!service) throw modelNotFound(body.model);
  if (!ASYNC_KINDS.includes(service.serviceKind)) {
    throw new ApiError(400, 'model_not_supported', `Model "${body.model}" has no asynchronous admission.`, {
      details: { field: 'model' },
    });
  }
  const request = { ...(body.request ?? {}), model: service.modelAlias };
  let admission: Record<string, unknown>;
  if (!service.available) {
    admission = { decision: 'reject', admitted: false, reason: 'service_not_available', retryable: false };
  } else {
    admission = {
      decision: 'admit',
      admitted: true,
      queueDepth: rc.state.jobs.size % 3,
      estimatedQueueSeconds: 2,
    };
    if (service.serviceKind === 'video_generation' && body.request) {
      try {
        validateH3Request(request, service, rc.state, rc.identity);
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        admission = {
          decision: 'reject',
          admitted: false,
          reason: error.code,
          message: error.message,
          retryable: false,
        };
      }
    }
  }
  admission.guarantee = false;
  admission.reservation = false;
  const response: AdmissionPreviewResponse = {
    publicationId: service.publicationId,
    serviceKind: service.serviceKind,
    admission,
    generatedAt: rc.state.clock.now().toISOString(),
  };
  sendJson(rc.res, 200, response, { 'X-Request-Id': rc.requestId });
}

export const admissionRoutes: RouteDef[] = [
  {
    method: 'POST',
    path: '/admission/preview',
    routeClass: 'write',
    handler: preview,
    doc: {
      operationId: 'previewAdmission',
      summary: 'Would an asynchronous request be admitted now (no reservation, no guarantee)',
      tags: ['media'],
      requestBody: { contentType: 'application/json', schema: AdmissionPreviewRequest },
      responses: {
        200: { description: 'Admission response', schema: AdmissionPreviewResponse },
        400: { description: 'Field invalid', schema: PublicError },
        404: { description: 'Unknown model', schema: PublicError },
      },
    },
  },
];
