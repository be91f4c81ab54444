import { createHash } from 'node:crypto';
import { codePointLength } from '../../shared/api/common.js';
import {
  H3_SEED_MAX,
  MediaGenerationRequest,
  ROLE_MEDIA_TYPE,
  type ReferenceInput,
} from '../../shared/api/media-jobs.js';
import type { MediaSpecContract, RoleUploadLimit } from '../../shared/api/media-spec-contract.js';
import type { StoredAsset } from '../assets/asset-store.js';
import { mediaSpecContractOf, type CatalogService } from '../catalog.js';
import type { SimulatorState } from '../context.js';
import { ApiError, assetRejected, invalidField } from '../errors.js';
import { canonicalJson, parseWith } from '../http.js';
import type { Identity } from '../identities.js';
import { ownedInputAsset } from './owned-assets.js';
import { H3_PROMPT_CODE_POINTS } from '../../shared/api/spec-limits.js';

export interface ResolvedReference {
  item: ReferenceInput;
  asset: StoredAsset;
}

export interface ResolvedVideoRequest {
  request: MediaGenerationRequest;
  prompt: string;
  generationMode: string;
  resolutionTier: string;
  orientation: 'landscape' | 'portrait';
  seconds: number;
  seed: number;
  width: number;
  height: number;
  fps: number;
  frames: number;
  firstFrame?: StoredAsset;
  lastFrame?: StoredAsset;
  references: ResolvedReference[];
}

const FRAME_FIELDS = ['input_image_asset_id', 'end_image_asset_id'] as const;

/** Seed the platform decides when omitted: stable for the same request. */
export function derivedSeed(body: Record<string, unknown>): number {
  const hash = createHash('sha256').update(canonicalJson(body)).digest();
  return hash.readUInt32BE(0) % (H3_SEED_MAX + 1);
}

function numberParam(
  contract: MediaSpecContract,
  name: string,
  key: 'minimum' | 'maximum',
): number | undefined {
  return contract.parameters?.find((p) => p.name === name)?.[key];
}

function valuesParam(contract: MediaSpecContract, name: string): string[] | undefined {
  return contract.parameters?.find((p) => p.name === name)?.values?.map(String);
}

function limitOf(contract: MediaSpecContract, role: string): RoleUploadLimit {
  return contract.uploadLimits?.[role] ?? {};
}

/**
 * Validates a video creation body against the H3 profile published in the service's
 * `mediaSpecContract` (forbidden and required fields, prompt code points after trimming,
 * modes, tier, seconds, the mode/input composition table, reference roles, media types,
 * counts, uniqueness, ownership, per-role sizes and audio durations).
 */
export function validateH3Request(
  raw: Record<string, unknown>,
  service: CatalogService,
  state: SimulatorState,
  identity: Identity,
): ResolvedVideoRequest {
  const contract = mediaSpecContractOf(service) ?? {};
  const forbidden = (contract.forbiddenFields ?? []).filter((field) => field in raw);
  if (forbidden.length > 0) {
    throw invalidField(
      'forbidden_field',
      forbidden[0]!,
      `This model must not be sent: ${forbidden.join(', ')}.`,
      {
        fields: forbidden,
      },
    );
  }
  const missing = (contract.requiredFields ?? []).filter(
    (field) => raw[field] === undefined || raw[field] === null,
  );
  if (missing.length > 0) {
    throw invalidField('missing_field', missing[0]!, `Required field missing: ${missing.join(', ')}.`, {
      fields: missing,
    });
  }
  const request = parseWith(MediaGenerationRequest, raw);

  for (const field of ['input_audio_asset_id', 'input_video_asset_id'] as const) {
    if (request[field] !== undefined) {
      throw invalidField('field_not_supported', field, `${field} is not declared by this model's contract.`);
    }
  }

  const trimmed = request.prompt.trim();
  const promptLength = codePointLength(trimmed);
  const minCp = contract.prompt?.minCodePoints ?? H3_PROMPT_CODE_POINTS.min;
  const maxCp = contract.prompt?.maxCodePoints ?? H3_PROMPT_CODE_POINTS.max;
  if (promptLength < minCp || promptLength > maxCp) {
    throw invalidField(
      'invalid_prompt_length',
      'prompt',
      `prompt must be ${minCp}..${maxCp} Unicode code points after trimming (got ${promptLength}).`,
      { codePoints: promptLength, minimum: minCp, maximum: maxCp },
    );
  }

  const modes = Object.keys(contract.modes ?? {});
  const mode = request.generationMode!;
  if (!modes.includes(mode)) {
    throw invalidField(
      'invalid_generation_mode',
      'generationMode',
      `generationMode must be one of ${modes.join(', ')}.`,
      { allowed: modes },
    );
  }
  const tiers = Object.keys(contract.effectiveSpec?.canvases ?? {});
  const tier = request.resolutionTier!;
  if (!tiers.includes(tier)) {
    throw invalidField(
      'invalid_resolution_tier',
      'resolutionTier',
      `resolutionTier must be one of ${tiers.join(', ')}.`,
      { allowed: tiers },
    );
  }
  const orientations = valuesParam(contract, 'orientation') ?? ['landscape', 'portrait'];
  const orientation = request.orientation!;
  if (!orientations.includes(orientation)) {
    throw invalidField(
      'invalid_orientation',
      'orientation',
      `orientation must be one of ${orientations.join(', ')}.`,
    );
  }
  const minSeconds = numberParam(contract, 'seconds', 'minimum') ?? 5;
  const maxSeconds = numberParam(contract, 'seconds', 'maximum') ?? 15;
  const seconds = request.seconds!;
  if (seconds < minSeconds || seconds > maxSeconds) {
    throw invalidField(
      'invalid_seconds',
      'seconds',
      `seconds must be an integer ${minSeconds}..${maxSeconds}.`,
      {
        minimum: minSeconds,
        maximum: maxSeconds,
      },
    );
  }

  // Composition per mode.
  const modeInputs = contract.modes?.[mode] ?? {};
  const frames = modeInputs.frames ?? {};
  for (const field of FRAME_FIELDS) {
    const present = request[field] !== undefined;
    const expected = field in frames;
    if (expected && !present) {
      throw invalidField('invalid_input_composition', field, `generationMode ${mode} requires ${field}.`, {
        generationMode: mode,
      });
    }
    if (!expected && present) {
      throw invalidField(
        'invalid_input_composition',
        field,
        `generationMode ${mode} does not take ${field}.`,
        { generationMode: mode },
      );
    }
  }
  const refs = request.referenceInputs;
  const composition = modeInputs.referenceInputs;
  if (!composition && refs !== undefined && refs.length > 0) {
    throw invalidField(
      'invalid_input_composition',
      'referenceInputs',
      `generationMode ${mode} does not take referenceInputs.`,
      {
        generationMode: mode,
      },
    );
  }

  const resolved: ResolvedVideoRequest = {
    request,
    prompt: trimmed,
    generationMode: mode,
    resolutionTier: tier,
    orientation,
    seconds,
    seed: request.seed ?? derivedSeed(raw),
    width: 0,
    height: 0,
    fps: contract.effectiveSpec?.fps ?? 24,
    frames: 0,
    references: [],
  };

  if (composition) {
    const items = refs ?? [];
    items.forEach((item, index) => {
      if (item.mediaType !== undefined && item.mediaType !== ROLE_MEDIA_TYPE[item.role]) {
        throw invalidField(
          'reference_media_type_mismatch',
          `referenceInputs.${index}.mediaType`,
          `mediaType ${item.mediaType} does not match role ${item.role} (expected ${ROLE_MEDIA_TYPE[item.role]}).`,
        );
      }
    });
    const seen = new Set<string>();
    items.forEach((item, index) => {
      if (seen.has(item.assetId)) {
        throw invalidField(
          'duplicate_reference',
          `referenceInputs.${index}.assetId`,
          'Each reference asset id may appear only once.',
        );
      }
      seen.add(item.assetId);
    });
    const count = (role: string) => items.filter((item) => item.role === role).length;
    const images = count('reference_image');
    const videos = count('reference_video');
    const audios = count('reference_audio');
    const fail = (message: string) =>
      invalidField('invalid_input_composition', 'referenceInputs', message, {
        images,
        videos,
        audios,
        total: items.length,
      });
    const maxItems = composition.maxItems ?? 12;
    if (items.length > maxItems) throw fail(`referenceInputs takes at most ${maxItems} items.`);
    const maxVideos = composition.maxVideos ?? 1;
    if (videos > maxVideos) throw fail(`referenceInputs takes at most ${maxVideos} video.`);
    const maxImages = videos > 0 ? (composition.maxImagesWithVideo ?? 8) : (composition.maxImages ?? 9);
    if (images > maxImages)
      throw fail(`referenceInputs takes at most ${maxImages} images${videos > 0 ? ' with a video' : ''}.`);
    const maxAudios = composition.maxAudios ?? 3;
    if (audios > maxAudios) throw fail(`referenceInputs takes at most ${maxAudios} audios.`);
    if (images + videos < (composition.minVisual ?? 1)) {
      throw fail('referenceInputs needs at least one image or video (audio alone is invalid).');
    }
    let totalAudioSeconds = 0;
    const audioLimit = limitOf(contract, 'reference_audio');
    items.forEach((item, index) => {
      const field = `referenceInputs.${index}.assetId`;
      const asset = ownedInputAsset(
        state,
        identity,
        service.modelAlias,
        item.assetId,
        field,
        ROLE_MEDIA_TYPE[item.role],
      );
      checkRoleLimit(asset, limitOf(contract, item.role), item.role, field);
      if (item.sha256 !== undefined && item.sha256.toLowerCase() !== asset.sha256) {
        throw assetRejected(
          'asset_checksum_mismatch',
          `The sha256 given for ${field} does not match the uploaded bytes.`,
          { field },
        );
      }
      if (item.role === 'reference_audio') totalAudioSeconds += asset.durationSeconds ?? 0;
      resolved.references.push({ item, asset });
    });
    const maxTotal = audioLimit.maxTotalSeconds;
    if (maxTotal !== undefined && totalAudioSeconds > maxTotal + 0.0005) {
      throw assetRejected(
        'audio_total_duration_exceeded',
        `Reference audio must be at most ${maxTotal} s combined (got ${totalAudioSeconds.toFixed(3)} s).`,
        {
          field: 'referenceInputs',
          totalSeconds: totalAudioSeconds,
          maxTotalSeconds: maxTotal,
        },
      );
    }
  }

  for (const [field, role] of Object.entries(frames)) {
    const assetId = request[field as (typeof FRAME_FIELDS)[number]];
    if (!assetId) continue;
    const asset = ownedInputAsset(state, identity, service.modelAlias, assetId, field, 'image');
    checkRoleLimit(asset, limitOf(contract, role), role, field);
    if (role === 'first_frame') resolved.firstFrame = asset;
    else resolved.lastFrame = asset;
  }

  const canvas = contract.effectiveSpec?.canvases?.[tier]?.[orientation];
  if (!canvas)
    throw new ApiError(500, 'internal_error', 'The contract has no canvas for this tier and orientation.');
  resolved.width = canvas.width;
  resolved.height = canvas.height;
  const maxFrames = contract.effectiveSpec?.maxFrames ?? 362;
  resolved.frames = Math.min(seconds * resolved.fps, maxFrames);
  return resolved;
}

/** Per-role upload facts checked again at use: format and size (first/last frame <= 16 MiB). */
function checkRoleLimit(asset: StoredAsset, limit: RoleUploadLimit, role: string, field: string): void {
  if (limit.formats && !limit.formats.includes(asset.mimeType)) {
    throw assetRejected(
      'asset_format_not_allowed',
      `${field}: ${asset.mimeType} is not accepted for ${role}.`,
      {
        field,
        role,
        accepted: limit.formats,
      },
    );
  }
  if (limit.maxBytes !== undefined && asset.byteSize > limit.maxBytes) {
    throw assetRejected(
      'asset_too_large_for_role',
      `${field}: ${role} must be at most ${limit.maxBytes} bytes (got ${asset.byteSize}).`,
      {
        field,
        role,
        maxBytes: limit.maxBytes,
        byteSize: asset.byteSize,
      },
    );
  }
  if (asset.kind === 'audio' && asset.durationSeconds !== undefined) {
    if (limit.minSeconds !== undefined && asset.durationSeconds < limit.minSeconds - 0.0005) {
      throw assetRejected(
        'audio_duration_out_of_range',
        `${field}: audio must be at least ${limit.minSeconds} s.`,
        { field, role },
      );
    }
    if (limit.maxSeconds !== undefined && asset.durationSeconds > limit.maxSeconds + 0.0005) {
      throw assetRejected(
        'audio_duration_out_of_range',
        `${field}: audio must be at most ${limit.maxSeconds} s.`,
        { field, role },
      );
    }
  }
}
