import { ImageGenerationRequest } from '../../shared/api/image-generation.js';
import { MediaJob } from '../../shared/api/media-jobs.js';
import { mediaSpecContractOf, type CatalogService } from '../catalog.js';
import type { RequestContext, RouteDef, SimulatorState } from '../context.js';
import { ApiError, invalidField } from '../errors.js';
import { parseWith, readJsonObject } from '../http.js';
import type { Identity } from '../identities.js';
import { createIdempotentJob, type NewJobSpec } from '../jobs/create-job.js';
import { RenderCache } from '../media/render-cache.js';
import { resolveModel } from '../models.js';
import { checkEnum, checkRange, checkText } from '../rules/contract-params.js';
import { derivedSeed } from '../rules/h3-rules.js';
import { ownedInputAsset } from '../rules/owned-assets.js';
import { JOB_HEADERS_DOC, jobErrorResponses } from './media.js';

async function createImages(rc: RequestContext): Promise<void> {
  const raw = await readJsonObject(rc.req);
  createIdempotentJob(rc, 'image.generation', raw, () => {
    const service = resolveModel(parseWith(ImageGenerationRequest, raw).model, ['image_generation']);
    return prepareImageJob(raw, service, rc.state, rc.identity);
  });
}

/**
 * Validates an image body (public shape, input images already owned input assets of
 * `identity`) and plans its renders: the job spec of both the public `/images/generations` and
 * the platform runtime's `/media/jobs`.
 */
export function prepareImageJob(
  raw: Record<string, unknown>,
  service: CatalogService,
  state: SimulatorState,
  identity: Identity,
): NewJobSpec {
  const body = parseWith(ImageGenerationRequest, raw);
  const contract = mediaSpecContractOf(service) ?? {};
  const prompt = checkText('prompt', body.prompt, {
    min: contract.prompt?.minCodePoints ?? 1,
    max: contract.prompt?.maxCodePoints,
    required: true,
  })!;
  const mode = checkEnum(contract, 'generationMode', body.generationMode) ?? 't2i';
  const imageCount = checkRange(contract, 'imageCount', body.imageCount) ?? 1;
  const orientation = checkEnum(contract, 'orientation', body.orientation) ?? 'square';
  const sizeCode = checkEnum(contract, 'outputSizeCode', body.outputSizeCode) ?? '1k';
  const quality = checkEnum(contract, 'qualityTier', body.qualityTier) ?? 'standard';
  if (body.resolutionTier !== undefined) {
    throw invalidField(
      'field_not_supported',
      'resolutionTier',
      'This image model selects size with outputSizeCode, not resolutionTier.',
    );
  }
  const ids = [
    ...(body.input_image_asset_id ? [body.input_image_asset_id] : []),
    ...(body.input_image_asset_ids ?? []),
  ];
  if (mode === 't2i' && ids.length > 0) {
    throw invalidField('invalid_input_composition', 'input_image_asset_id', 't2i takes no input image.');
  }
  const maxInputs = Number(
    (contract.modes?.i2i as { maxInputImages?: number } | undefined)?.maxInputImages ?? 4,
  );
  if (mode === 'i2i' && (ids.length < 1 || ids.length > maxInputs)) {
    throw invalidField(
      'invalid_input_composition',
      'input_image_asset_ids',
      `i2i takes 1..${maxInputs} input images.`,
    );
  }
  if (new Set(ids).size !== ids.length)
    throw invalidField('duplicate_reference', 'input_image_asset_ids', 'Input image ids must be unique.');
  const inputs = ids.map((id, i) =>
    ownedInputAsset(
      state,
      identity,
      service.modelAlias,
      id,
      i === 0 && body.input_image_asset_id ? 'input_image_asset_id' : 'input_image_asset_ids',
      'image',
    ),
  );
  const canvas = contract.effectiveSpec?.canvases?.[sizeCode]?.[orientation];
  if (!canvas) throw new ApiError(500, 'internal_error', 'No canvas for this size and orientation.');
  const seed = body.seed ?? derivedSeed(raw);
  return {
    service,
    pacing: 'image',
    effectiveMediaSpec: {
      generationMode: mode,
      orientation,
      width: canvas.width,
      height: canvas.height,
      outputSizeCode: sizeCode,
      qualityTier: quality,
      imageCount,
      seed,
    },
    task: {
      type: 'image',
      items: Array.from({ length: imageCount }, (_, i) => {
        const plan = {
          width: canvas.width,
          height: canvas.height,
          seed: seed + i,
          prompt,
          title: `${service.modelAlias} · simulated · ${mode} · image ${i + 1}/${imageCount}`,
          inputs: inputs.map((a) => a.path),
        };
        return {
          key: RenderCache.keyOf({ renderer: 'image/1', ...plan, inputs: inputs.map((a) => a.sha256) }),
          plan,
        };
      }),
    },
  };
}

export const imageRoutes: RouteDef[] = [
  {
    method: 'POST',
    path: '/images/generations',
    routeClass: 'create_job',
    handler: createImages,
    doc: {
      operationId: 'createImageGeneration',
      summary: 'Create an image job (asynchronous-read pattern)',
      tags: ['media'],
      headers: JOB_HEADERS_DOC,
      requestBody: { contentType: 'application/json', schema: ImageGenerationRequest },
      responses: {
        200: { description: 'Idempotent replay', schema: MediaJob },
        202: { description: 'Accepted', schema: MediaJob, headers: ['Location', 'Retry-After'] },
        ...jobErrorResponses,
      },
    },
  },
];
