import { codePointLength } from '../../shared/api/common.js';
import { PublicError } from '../../shared/api/errors.js';
import {
  PromptOptimizationRequest,
  PromptOptimizationResponse,
  type OptimizationReference,
} from '../../shared/api/prompt-optimization.js';
import { iso } from '../clock.js';
import { mediaSpecContractOf, type CatalogService } from '../catalog.js';
import type { RequestContext, RouteDef, SimulatorState } from '../context.js';
import { ApiError, invalidField } from '../errors.js';
import { headerValue } from '../headers.js';
import { bodyHash, checkIdempotencyKey } from '../idempotency.js';
import { newId, parseWith, readJsonObject, sleep } from '../http.js';
import { answerOrDrop } from '../jobs/create-job.js';
import { resolveModel } from '../models.js';
import { ownedInputAsset } from '../rules/owned-assets.js';
import { H3_PROMPT_CODE_POINTS } from '../../shared/api/spec-limits.js';

/** Base duration of one optimization at time scale 1 (expected 0..3 minutes on the real service). */
export const OPTIMIZATION_SECONDS = 2;
const LIFETIME_MS = 24 * 60 * 60 * 1000;
const ROLE_KIND = {
  first_frame: 'image',
  last_frame: 'image',
  reference_image: 'image',
  reference_video: 'video',
  reference_audio: 'audio',
} as const;

interface ProfileRoles {
  first_frame?: { min: number; max: number };
  last_frame?: { min: number; max: number };
  reference_image?: { min: number; max: number; maxWithVideo?: number };
  reference_video?: { min: number; max: number };
  reference_audio?: { min: number; max: number };
  minVisual?: number;
  maxItems?: number;
}

interface OptimizationProfile {
  name: string;
  generationModes: string[];
  roles: Record<string, ProfileRoles>;
}

export interface OptimizationCapability {
  available?: boolean;
  profiles?: OptimizationProfile[];
  originalPromptMaxCodePoints?: number;
  optimizedPromptMaxCodePoints?: number;
  styleAllowed?: boolean;
}

/**
 * What an optimization request has in common in its public and runtime forms: everything but how
 * each reference names its content (an asset id, or a `readUrl`).
 */
export type OptimizationBusiness = Omit<PromptOptimizationRequest, 'referenceInputs'> & {
  referenceInputs: readonly { role: OptimizationReference['role'] }[];
};

/**
 * Checks an optimization request against the model's capability: mode, prompt length, style, the
 * H3 media spec and the references' composition (roles and counts). Where each reference's
 * content comes from is checked by the caller.
 */
export function validateOptimization(body: OptimizationBusiness): {
  service: CatalogService;
  capability: OptimizationCapability;
} {
  const service = resolveModel(body.model, ['video_generation']);
  const capability = (service.promptOptimization ?? {}) as OptimizationCapability;
  if (!capability.available) {
    throw new ApiError(
      400,
      'prompt_optimization_unsupported',
      `Model "${body.model}" offers no prompt optimization.`,
      { details: { field: 'model' } },
    );
  }
  const profile = capability.profiles?.find((p) => p.generationModes.includes(body.generationMode));
  if (!profile) {
    const modes = capability.profiles?.flatMap((p) => p.generationModes) ?? [];
    throw invalidField(
      'invalid_generation_mode',
      'generationMode',
      `generationMode must be one of ${modes.join(', ')}.`,
      { allowed: modes },
    );
  }
  const trimmed = body.originalPrompt.trim();
  const length = codePointLength(trimmed);
  const max = capability.originalPromptMaxCodePoints ?? H3_PROMPT_CODE_POINTS.max;
  if (length < 1 || length > max) {
    throw invalidField(
      'invalid_prompt_length',
      'originalPrompt',
      `originalPrompt must be 1..${max} Unicode code points (got ${length}).`,
      {
        codePoints: length,
        maximum: max,
      },
    );
  }
  if (body.style !== undefined && !capability.styleAllowed) {
    throw invalidField('field_not_supported', 'style', 'This profile takes no style.');
  }
  // H3 media spec: resolutionTier, orientation, seconds matching the generation's rules.
  const contract = mediaSpecContractOf(service) ?? {};
  const spec = body.mediaSpec;
  const tiers = Object.keys(contract.effectiveSpec?.canvases ?? {});
  if (spec.resolutionTier === undefined || !tiers.includes(spec.resolutionTier)) {
    throw invalidField(
      'invalid_media_spec',
      'mediaSpec.resolutionTier',
      `mediaSpec.resolutionTier must be one of ${tiers.join(', ')}.`,
    );
  }
  if (spec.orientation !== 'landscape' && spec.orientation !== 'portrait') {
    throw invalidField(
      'invalid_media_spec',
      'mediaSpec.orientation',
      'mediaSpec.orientation must be landscape or portrait.',
    );
  }
  const seconds = contract.parameters?.find((p) => p.name === 'seconds');
  if (
    spec.seconds === undefined ||
    spec.seconds < (seconds?.minimum ?? 5) ||
    spec.seconds > (seconds?.maximum ?? 15)
  ) {
    throw invalidField(
      'invalid_media_spec',
      'mediaSpec.seconds',
      `mediaSpec.seconds must be ${seconds?.minimum ?? 5}..${seconds?.maximum ?? 15}.`,
    );
  }
  checkReferenceComposition(profile.roles[body.generationMode] ?? {}, body);
  return { service, capability };
}

function checkReferenceComposition(roles: ProfileRoles, body: OptimizationBusiness): void {
  const refs = body.referenceInputs;
  const count = (role: OptimizationReference['role']) => refs.filter((r) => r.role === role).length;
  const fail = (message: string) =>
    invalidField('invalid_input_composition', 'referenceInputs', message, {
      generationMode: body.generationMode,
    });
  for (const ref of refs) {
    if (!(ref.role in roles))
      throw fail(`Role ${ref.role} is not taken by generationMode ${body.generationMode}.`);
  }
  for (const role of [
    'first_frame',
    'last_frame',
    'reference_image',
    'reference_video',
    'reference_audio',
  ] as const) {
    const bounds = roles[role];
    if (!bounds) continue;
    const n = count(role);
    let max = bounds.max;
    if (
      role === 'reference_image' &&
      count('reference_video') > 0 &&
      roles.reference_image?.maxWithVideo !== undefined
    ) {
      max = roles.reference_image.maxWithVideo;
    }
    if (n < bounds.min || n > max)
      throw fail(
        `generationMode ${body.generationMode} takes ${bounds.min}..${max} ${role} references (got ${n}).`,
      );
  }
  if (roles.maxItems !== undefined && refs.length > roles.maxItems)
    throw fail(`At most ${roles.maxItems} references.`);
  if (
    roles.minVisual !== undefined &&
    count('reference_image') + count('reference_video') < roles.minVisual
  ) {
    throw fail('At least one image or video reference is needed (audio alone is invalid).');
  }
  const audios = count('reference_audio');
  if (audios > 0 && body.audioReferencePolicy === undefined) {
    throw invalidField(
      'missing_field',
      'audioReferencePolicy',
      'audioReferencePolicy is required when audio references are present.',
    );
  }
}

/** 400 `duplicate_reference` when two references name the same content (by `field`: an asset id, a checksum). */
export function checkUniqueReferences<K extends string>(
  refs: readonly Record<K, string>[],
  field: K,
  what: string,
): void {
  const seen = new Set<string>();
  refs.forEach((ref, index) => {
    if (seen.has(ref[field]))
      throw invalidField(
        'duplicate_reference',
        `referenceInputs.${index}.${field}`,
        `Each reference ${what} may appear only once.`,
      );
    seen.add(ref[field]);
  });
}

/** The public form's references: each asset id once, owned by the caller in this model scope and of the role's kind. */
function checkOwnedReferences(
  rc: RequestContext,
  service: CatalogService,
  body: PromptOptimizationRequest,
): void {
  checkUniqueReferences(body.referenceInputs, 'assetId', 'asset id');
  body.referenceInputs.forEach((ref, index) => {
    ownedInputAsset(
      rc.state,
      rc.identity,
      service.modelAlias,
      ref.assetId,
      `referenceInputs.${index}.assetId`,
      ROLE_KIND[ref.role],
    );
  });
}

/** Beats the simulated optimizer writes, cycled until the output reaches its target length. */
const BEATS = [
  'the camera opens wide and settles on the subject with a slow push-in',
  'soft key light from the left shapes the subject while the background falls into gentle shadow',
  'a subtle parallax between foreground and background gives the frame depth',
  'the subject moves with natural weight; clothing and hair react to the motion',
  'ambient detail drifts through the frame: dust, mist or light particles catching the light',
  'the colour palette stays consistent, with warm highlights and cool shadows',
  'the camera eases into a gentle arc around the subject, keeping the horizon level',
  'a short pause lets the viewer read the scene before the next movement',
  'surfaces show believable texture and reflections that follow the light source',
  'the action resolves calmly and the final frame holds a balanced composition',
];

/** Original length from which the simulated optimizer adds nothing (it targets about 6000). */
export const OPTIMIZATION_TARGET_CODE_POINTS = 6000;

/**
 * Deterministic rewrite: the trimmed original, then whole sentences of direction (spec, style,
 * references, then timed beats) up to about 6000 code points and never past `max`; the original is
 * never truncated.
 */
export function optimizePrompt(
  original: string,
  body: OptimizationBusiness,
  max: number,
): { text: string; outcome: string; notices: string[] } {
  const trimmed = original.trim();
  const refs = body.referenceInputs;
  const seconds = body.mediaSpec.seconds ?? 5;
  const head = [
    `Shot for a ${seconds}-second ${body.mediaSpec.orientation} ${body.mediaSpec.resolutionTier} clip in ${body.generationMode} mode.`,
    body.style
      ? `Visual style: ${body.style}.`
      : 'Cinematic lighting with a clear subject and a steady, motivated camera move.',
    ...refs
      .filter((r) => r.role !== 'reference_audio')
      .map((r, i) => `Keep the look of visual reference ${i + 1} (${r.role}).`),
    ...(refs.some((r) => r.role === 'reference_audio')
      ? ['Preserve the supplied audio references as given; they are not analysed.']
      : []),
    'Natural motion, consistent characters and no on-screen text.',
  ];
  const target = Math.min(max, OPTIMIZATION_TARGET_CODE_POINTS);
  let text = trimmed;
  const notices: string[] = [];
  const append = (sentence: string, limit: number): boolean => {
    const candidate = `${text}\n${sentence}`;
    if (codePointLength(candidate) > limit) return false;
    text = candidate;
    return true;
  };
  for (const sentence of head) {
    if (!append(sentence, target)) {
      notices.push('length_budget_reached');
      break;
    }
  }
  if (notices.length === 0) {
    for (let beat = 0; ; beat += 1) {
      const from = ((beat * seconds) / 8).toFixed(1);
      const to = (((beat + 1) * seconds) / 8).toFixed(1);
      const sentence = `Beat ${beat + 1} (${from}-${to} s of the loop): ${BEATS[beat % BEATS.length]}.`;
      if (!append(sentence, target)) break;
    }
  }
  if (text === trimmed) {
    return { text, outcome: 'unchanged', notices: notices.length ? notices : ['already_complete'] };
  }
  return { text, outcome: 'optimized', notices };
}

/**
 * A new optimization (the simulated rewrite), stored and remembered under the caller's key so a
 * replay of the same body answers it again (also after a restart, with a data folder).
 */
export function createOptimization(
  state: SimulatorState,
  identityId: string,
  key: string,
  hash: string,
  requestId: string,
  service: CatalogService,
  capability: OptimizationCapability,
  body: OptimizationBusiness,
): PromptOptimizationResponse {
  const createdMs = state.clock.nowMs();
  const result = optimizePrompt(
    body.originalPrompt,
    body,
    capability.optimizedPromptMaxCodePoints ?? H3_PROMPT_CODE_POINTS.max,
  );
  const response: PromptOptimizationResponse = {
    requestId,
    optimization: {
      optimizationId: newId('opt'),
      serviceKind: service.serviceKind,
      generationMode: body.generationMode,
      originalPrompt: body.originalPrompt,
      optimizedPrompt: result.text,
      status: 'succeeded',
      createdAt: iso(createdMs),
      expiresAt: iso(createdMs + LIFETIME_MS),
      outcome: result.outcome,
      noticeCodes: result.notices,
    },
  };
  state.optimizations.set(response.optimization.optimizationId, response);
  state.log?.optimization(response);
  const created = state.idempotency.remember({
    identityId,
    operation: 'prompt.optimization',
    key,
    model: service.modelAlias,
    bodyHash: hash,
    resourceId: response.optimization.optimizationId,
    firstSeenMs: createdMs,
  });
  state.log?.idempotency(created);
  return response;
}

async function optimize(rc: RequestContext): Promise<void> {
  const raw = await readJsonObject(rc.req);
  const key = checkIdempotencyKey(headerValue(rc, 'idempotency-key'));
  if (key === undefined) {
    throw new ApiError(
      400,
      'idempotency_key_required',
      'Header Idempotency-Key is required and must equal clientRequestId.',
      {
        details: { header: 'Idempotency-Key' },
      },
    );
  }
  const { state, identity } = rc;
  const hash = bodyHash(raw);
  const record = state.idempotency.lookup(identity.id, 'prompt.optimization', key, hash);
  if (record) {
    const stored = state.optimizations.get(record.resourceId);
    if (stored) {
      state.log?.idempotency(record);
      answerOrDrop(rc, 201, stored, { 'X-Request-Id': rc.requestId, 'Idempotent-Replayed': 'true' });
      return;
    }
  }
  const body = parseWith(PromptOptimizationRequest, raw);
  if (key !== body.clientRequestId) {
    throw new ApiError(400, 'idempotency_key_mismatch', 'Idempotency-Key must equal clientRequestId.', {
      details: { header: 'Idempotency-Key', field: 'clientRequestId' },
    });
  }
  const { service, capability } = validateOptimization(body);
  checkOwnedReferences(rc, service, body);
  const response = createOptimization(state, identity.id, key, hash, rc.requestId, service, capability, body);
  await sleep(OPTIMIZATION_SECONDS * state.timeScale * 1000);
  answerOrDrop(rc, 201, response, { 'X-Request-Id': rc.requestId });
}

export const promptOptimizationRoutes: RouteDef[] = [
  {
    method: 'POST',
    path: '/media/prompt-optimizations',
    routeClass: 'create_job',
    handler: optimize,
    doc: {
      operationId: 'createPromptOptimization',
      summary: 'Rewrite a video prompt (never starts a generation)',
      tags: ['media'],
      headers: [{ name: 'Idempotency-Key', required: true, description: 'equals clientRequestId' }],
      requestBody: { contentType: 'application/json', schema: PromptOptimizationRequest },
      responses: {
        201: { description: 'Optimization response', schema: PromptOptimizationResponse },
        400: { description: 'Field invalid', schema: PublicError },
        404: { description: 'Asset unknown or not owned', schema: PublicError },
        409: { description: 'Idempotency conflict', schema: PublicError },
        422: { description: 'Asset facts rejected', schema: PublicError },
      },
    },
  },
];
