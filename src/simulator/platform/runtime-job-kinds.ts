import type { StoredAsset } from '../assets/asset-store.js';
import { findService, mediaSpecContractOf, SERVICES, type CatalogService } from '../catalog.js';
import type { SimulatorState } from '../context.js';
import type { Identity } from '../identities.js';
import type { NewJobSpec } from '../jobs/create-job.js';
import { resolveModel } from '../models.js';
import { prepareAudioJob } from '../routes/audio.js';
import { prepareDocumentParseJob } from '../routes/documents.js';
import { prepareImageJob } from '../routes/images.js';
import { prepareH3VideoJob } from '../routes/media.js';
import { PlatformError } from './errors.js';
import type { RuntimeInput } from './runtime-inputs.js';

/**
 * How a runtime `POST /media/jobs` body of each served service kind becomes the public
 * simulator's job: which service, which input roles, where each read input goes in the public
 * body, and the public route's own validation and render plan.
 */
export const RUNTIME_JOB_KINDS = [
  'video_generation',
  'image_generation',
  'audio_generation',
  'document_parse',
] as const;

export interface RuntimeJobBody {
  model?: string;
  serviceKind?: string;
  params?: Record<string, unknown>;
  mediaSpec?: Record<string, unknown>;
}

const H3_ROLES = ['first_frame', 'last_frame', 'reference_image', 'reference_video', 'reference_audio'];

const isServed = (service: CatalogService) =>
  service.serviceKind !== 'video_generation' || mediaSpecContractOf(service)?.profile === 'h3';

const inputError = (message: string, details: Record<string, unknown>) =>
  new PlatformError(400, 'invalid_input_composition', message, { phase: 'input_validation', details });

/**
 * The job's service: `model` when given (its kind unless `serviceKind` names one), else the
 * first available served service of `serviceKind` (video when neither is given).
 */
export function serviceOf(body: RuntimeJobBody): CatalogService {
  const kind = body.serviceKind ?? (body.model ? findService(body.model)?.serviceKind : undefined);
  const wanted = kind ?? 'video_generation';
  if (!(RUNTIME_JOB_KINDS as readonly string[]).includes(wanted))
    throw new PlatformError(
      400,
      'service_kind_not_supported',
      `The simulator's runtime serves ${RUNTIME_JOB_KINDS.join(', ')} jobs (got ${wanted}).`,
      { phase: 'input_validation', details: { field: 'serviceKind', supported: [...RUNTIME_JOB_KINDS] } },
    );
  const alias =
    body.model ?? SERVICES.find((s) => s.serviceKind === wanted && s.available && isServed(s))?.modelAlias;
  if (!alias) throw new PlatformError(409, 'service_not_available', 'No available service of this kind.');
  const service = resolveModel(alias, [wanted]);
  if (!isServed(service))
    throw new PlatformError(
      400,
      'model_not_supported',
      `Model "${alias}" has no video profile served here.`,
      {
        phase: 'input_validation',
        details: { field: 'model' },
      },
    );
  return service;
}

/** The input roles a service takes from `inputs[]`. */
export function inputRolesOf(service: CatalogService): readonly string[] {
  const contract = mediaSpecContractOf(service);
  if (service.serviceKind === 'video_generation') return H3_ROLES;
  if (service.serviceKind === 'image_generation') return contract?.modes?.i2i ? ['reference_image'] : [];
  if (service.serviceKind === 'document_parse') return ['input_document'];
  return contract?.profile === 'foley' ? ['reference_video'] : [];
}

/** Refuses, before any input is read, a role the service does not take and a second Foley video. */
export function checkInputRoles(service: CatalogService, inputs: readonly RuntimeInput[]): void {
  const allowed = inputRolesOf(service);
  inputs.forEach((input, index) => {
    if (!allowed.includes(input.role))
      throw new PlatformError(
        400,
        'input_role_not_supported',
        `inputs.${index}.role "${input.role}" is not taken by ${service.modelAlias}` +
          (allowed.length > 0 ? ` (it takes ${allowed.join(', ')}).` : ' (it takes no inputs).'),
        { phase: 'input_validation', details: { field: `inputs.${index}.role`, allowed: [...allowed] } },
      );
  });
  if (service.serviceKind === 'document_parse' && inputs.length !== 1)
    throw inputError(`${service.modelAlias} takes exactly one input_document input.`, { field: 'inputs' });
  if (mediaSpecContractOf(service)?.profile === 'foley' && inputs.length !== 1)
    throw inputError(`${service.modelAlias} takes exactly one reference_video input.`, { field: 'inputs' });
}

/**
 * The public interface's asset fields: a runtime job takes its media only from `inputs[]` (the spec:
 * "the public-interface assets[] parsing does not apply here", "an H3 job cannot use a personal
 * asset id in place of readUrl"), so none of them is taken in `params` or `mediaSpec`.
 */
export const PUBLIC_ASSET_FIELDS: readonly string[] = [
  'input_image_asset_id',
  'input_image_asset_ids',
  'end_image_asset_id',
  'input_audio_asset_id',
  'input_video_asset_id',
  'input_document_asset_id',
  'image_asset_id',
  'document_asset_id',
  'referenceInputs',
  'assets',
];

/** 400 `asset_id_not_accepted` for a public asset field in `params` or `mediaSpec` (before anything is read). */
function refusePublicAssetFields(params: Record<string, unknown>, spec: Record<string, unknown>): void {
  for (const [where, fields] of [
    ['params', params],
    ['mediaSpec', spec],
  ] as const) {
    const field = PUBLIC_ASSET_FIELDS.find((f) => f in fields);
    if (field)
      throw new PlatformError(
        400,
        'asset_id_not_accepted',
        `${where}.${field} is a public-interface asset field; a runtime job reads its media from inputs[] ({readUrl, role}).`,
        { phase: 'input_validation', details: { field: `${where}.${field}` } },
      );
  }
}

/** The public body: `params` and `mediaSpec` merged (no field in both) with the service's alias. */
export function publicBody(body: RuntimeJobBody, service: CatalogService): Record<string, unknown> {
  const params = body.params ?? {};
  const spec = body.mediaSpec ?? {};
  refusePublicAssetFields(params, spec);
  const both = Object.keys(params).filter((k) => k in spec);
  if (both.length > 0)
    throw new PlatformError(
      400,
      'duplicated_field',
      `Fields in both params and mediaSpec: ${both.join(', ')}.`,
      {
        phase: 'input_validation',
        details: { fields: both },
      },
    );
  if (service.serviceKind === 'video_generation' && typeof params.prompt !== 'string')
    throw new PlatformError(400, 'missing_field', 'params.prompt is required (a string).', {
      phase: 'input_validation',
      details: { field: 'params.prompt' },
    });
  return { ...spec, ...params, model: service.modelAlias };
}

export interface ReadInput {
  asset: StoredAsset;
  input: RuntimeInput;
}

/** Puts the read inputs where the public body of the service takes them. */
function withInputs(
  raw: Record<string, unknown>,
  service: CatalogService,
  assets: readonly ReadInput[],
): Record<string, unknown> {
  const out = { ...raw };
  if (service.serviceKind === 'image_generation') {
    if (assets.length > 0) out.input_image_asset_ids = assets.map((a) => a.asset.assetId);
    return out;
  }
  if (service.serviceKind === 'audio_generation') {
    if (assets[0]) out.input_video_asset_id = assets[0].asset.assetId;
    return out;
  }
  if (service.serviceKind === 'document_parse') {
    if (assets[0]) out.input_document_asset_id = assets[0].asset.assetId;
    return out;
  }
  const refs: { role: string; assetId: string }[] = [];
  for (const { asset, input } of assets) {
    if (input.role === 'first_frame') out.input_image_asset_id = asset.assetId;
    else if (input.role === 'last_frame') out.end_image_asset_id = asset.assetId;
    else refs.push({ role: input.role, assetId: asset.assetId });
  }
  if (refs.length > 0) out.referenceInputs = refs;
  return out;
}

/** The upload limit of the public route's field an image or Foley input stands for. */
const LIMIT_OF_ROLE: Record<string, string> = {
  reference_image: 'input_image',
  reference_video: 'input_video',
};

/** An image or Foley input must be a format and size the service's public upload takes (H3 inputs: the H3 rules). */
function checkUploadLimits(service: CatalogService, assets: readonly ReadInput[]): void {
  if (service.serviceKind === 'video_generation') return;
  const limits = mediaSpecContractOf(service)?.uploadLimits ?? {};
  assets.forEach(({ asset, input }, index) => {
    const limit = limits[LIMIT_OF_ROLE[input.role] ?? ''];
    if (!limit) return;
    const field = `inputs.${index}.readUrl`;
    if (limit.formats && !limit.formats.includes(asset.mimeType))
      throw new PlatformError(
        422,
        'read_url_media_mismatch',
        `${field}: ${asset.mimeType} is not a format ${service.modelAlias} takes (${limit.formats.join(', ')}).`,
        { phase: 'input_validation', details: { field, detected: asset.mimeType, accepted: limit.formats } },
      );
    if (limit.maxBytes !== undefined && asset.byteSize > limit.maxBytes)
      throw new PlatformError(422, 'read_url_too_large', `${field}: larger than ${limit.maxBytes} bytes.`, {
        phase: 'input_validation',
        details: { field, maxBytes: limit.maxBytes },
      });
  });
}

/** Validates the public body with the read inputs by the public route's rules and plans its render. */
export function prepareRuntimeJob(
  raw: Record<string, unknown>,
  service: CatalogService,
  assets: readonly ReadInput[],
  state: SimulatorState,
  identity: Identity,
): NewJobSpec {
  checkUploadLimits(service, assets);
  const body = withInputs(raw, service, assets);
  if (service.serviceKind === 'image_generation') return prepareImageJob(body, service, state, identity);
  if (service.serviceKind === 'audio_generation') return prepareAudioJob(body, service, state, identity);
  if (service.serviceKind === 'document_parse')
    return prepareDocumentParseJob(body, service, state, identity);
  return prepareH3VideoJob(body, service, state, identity);
}
