import { ModelScopeQuery } from '../../shared/api/assets.js';
import { PublicError } from '../../shared/api/errors.js';
import { MediaGenerationRequest, MediaJob } from '../../shared/api/media-jobs.js';
import { mediaSpecContractOf } from '../catalog.js';
import type { CatalogService } from '../catalog.js';
import type { RequestContext, RouteDef, SimulatorState } from '../context.js';
import type { Identity } from '../identities.js';
import { ApiError, notFound } from '../errors.js';
import { readJsonObject, sendJson } from '../http.js';
import { createIdempotentJob, type NewJobSpec } from '../jobs/create-job.js';
import { toMediaJob } from '../jobs/job-store.js';
import { RenderCache } from '../media/render-cache.js';
import type { VideoRenderPlan } from '../media/render-video.js';
import { resolveModel, resolveScopeModel } from '../models.js';
import { validateH3Request } from '../rules/h3-rules.js';

const VIDEO_STAGES = [
  { stage: 'preparing_inputs', message: 'Preparing inputs' },
  { stage: 'generating', message: 'Generating frames' },
  { stage: 'encoding', message: 'Encoding video and audio' },
];

async function createVideo(rc: RequestContext): Promise<void> {
  const raw = await readJsonObject(rc.req);
  createIdempotentJob(rc, 'media.generation', raw, () => {
    const model = typeof raw.model === 'string' ? raw.model : '';
    if (!model)
      throw new ApiError(400, 'missing_field', 'Required field missing: model.', {
        details: { field: 'model' },
      });
    const service = resolveModel(model, ['video_generation']);
    if (mediaSpecContractOf(service)?.profile !== 'h3') {
      throw new ApiError(400, 'model_not_supported', `Model "${model}" has no video profile served here.`, {
        details: { field: 'model' },
      });
    }
    return prepareH3VideoJob(raw, service, rc.state, rc.identity);
  });
}

/**
 * Validates an H3 video body (public shape, inputs already resolved to owned input assets) and
 * plans its render: the job spec of both the public `/media/generations` and the platform
 * runtime's `/media/jobs`.
 */
export function prepareH3VideoJob(
  raw: Record<string, unknown>,
  service: CatalogService,
  state: SimulatorState,
  identity: Identity,
): NewJobSpec {
  const v = validateH3Request(raw, service, state, identity);
  const visuals: VideoRenderPlan['visuals'] = [];
  if (v.firstFrame) visuals.push({ path: v.firstFrame.path, kind: 'image', label: 'first' });
  if (v.lastFrame) visuals.push({ path: v.lastFrame.path, kind: 'image', label: 'last' });
  for (const ref of v.references) {
    if (ref.asset.kind === 'image' || ref.asset.kind === 'video') {
      visuals.push({ path: ref.asset.path, kind: ref.asset.kind, label: ref.item.role });
    }
  }
  const audios = v.references
    .filter((ref) => ref.asset.kind === 'audio')
    .map((ref) => ({ path: ref.asset.path }));
  const plan: VideoRenderPlan = {
    width: v.width,
    height: v.height,
    fps: v.fps,
    frames: v.frames,
    seed: v.seed,
    generationMode: v.generationMode,
    prompt: v.prompt,
    title: `${service.modelAlias} · simulated · ${v.resolutionTier} ${v.orientation} · ${v.seconds} s`,
    visuals,
    audios,
  };
  const inputShas = [v.firstFrame, v.lastFrame, ...v.references.map((r) => r.asset)].map(
    (a) => a?.sha256 ?? null,
  );
  const key = RenderCache.keyOf({
    renderer: 'h3-video/1',
    ...plan,
    visuals: visuals.map((x) => x.kind),
    audios: audios.length,
    inputShas,
  });
  return {
    service,
    pacing: 'video',
    stages: VIDEO_STAGES,
    effectiveMediaSpec: {
      fps: v.fps,
      generationMode: v.generationMode,
      height: v.height,
      orientation: v.orientation,
      resolutionTier: v.resolutionTier,
      seconds: v.seconds,
      width: v.width,
      frameCount: v.frames,
      durationSeconds: v.frames / v.fps,
      seed: v.seed,
      audio: { channels: 2, codec: 'aac' },
    },
    task: { type: 'video', key, plan },
  };
}

async function getJob(rc: RequestContext): Promise<void> {
  const service = resolveScopeModel(rc.query);
  const job = rc.state.jobs.getOwned(rc.params.jobId ?? '', rc.identity.id, service.modelAlias);
  if (!job) throw notFound('job');
  const headers: Record<string, string> = { 'X-Request-Id': rc.requestId };
  if (job.status === 'queued' || job.status === 'running') headers['Retry-After'] = String(job.pollSeconds);
  sendJson(rc.res, 200, toMediaJob(job, rc.state.baseUrl, rc.state.clock.nowMs()), headers);
}

export const JOB_HEADERS_DOC = [
  {
    name: 'Idempotency-Key',
    required: false,
    description: 'stable per business intent; same key and body returns the same job',
  },
  {
    name: 'X-Client-Request-Id',
    required: false,
    description: 'correlation only; visible ASCII, at most 512 bytes',
  },
];

export const jobErrorResponses = {
  400: { description: 'Field invalid', schema: PublicError },
  402: { description: 'Insufficient balance', schema: PublicError },
  404: { description: 'Model or asset unknown or not owned', schema: PublicError },
  409: { description: 'Idempotency conflict or service not available', schema: PublicError },
  422: { description: 'Asset facts rejected', schema: PublicError },
  429: { description: 'Rate limited (Retry-After)', schema: PublicError },
  503: { description: 'Unavailable (Retry-After)', schema: PublicError },
};

export const mediaRoutes: RouteDef[] = [
  {
    method: 'POST',
    path: '/media/generations',
    routeClass: 'create_job',
    handler: createVideo,
    doc: {
      operationId: 'createMediaGeneration',
      summary: 'Create a video job (202 on first acceptance)',
      tags: ['media'],
      headers: JOB_HEADERS_DOC,
      requestBody: { contentType: 'application/json', schema: MediaGenerationRequest },
      responses: {
        200: { description: 'Idempotent replay: the stored job', schema: MediaJob },
        202: { description: 'Accepted (queued)', schema: MediaJob, headers: ['Location', 'Retry-After'] },
        ...jobErrorResponses,
      },
    },
  },
  {
    method: 'GET',
    path: '/jobs/{jobId}',
    routeClass: 'read',
    handler: getJob,
    doc: {
      operationId: 'getJob',
      summary: 'Poll one job (read status, not the HTTP status)',
      tags: ['media'],
      query: ModelScopeQuery,
      pathParams: ['jobId'],
      responses: {
        200: { description: 'MediaJob', schema: MediaJob },
        404: { description: 'Unknown or not owned', schema: PublicError },
      },
    },
  },
];
