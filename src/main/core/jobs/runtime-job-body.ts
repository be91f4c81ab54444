import { AppError } from '../errors.js';

/** Roles of a runtime `inputs[]` item (application-platform-api.md, "Runtime job input"). */
export const RUNTIME_INPUT_ROLES = [
  'first_frame',
  'last_frame',
  'reference_image',
  'reference_video',
  'reference_audio',
  'input_document',
] as const;
export type RuntimeInputRole = (typeof RUNTIME_INPUT_ROLES)[number];

/** One runtime input: a signed `readUrl` of the application's own storage (never `mediaType`/`purpose`). */
export interface RuntimeInputItem {
  readUrl: string;
  role: RuntimeInputRole;
  mimeType?: string;
  sha256?: string;
  byteSize?: number;
  expiresAt?: string;
}

export interface RuntimeJobIdentity {
  /** The draft's business id: never regenerated per retry. */
  clientTaskId: string;
  /** The references, already signed `readUrl` items; none for text-to-video. */
  inputs?: readonly RuntimeInputItem[];
  resourceAttribution?: { resourceType: string; resourceId: string };
}

export type RuntimeServiceKind =
  'video_generation' | 'image_generation' | 'audio_generation' | 'document_parse';

/** Fields of a public creation request that are business content: they go into `params`. */
const PARAM_FIELDS = ['prompt', 'text', 'speaker', 'instruct'] as const;

/**
 * Fields of a public request that name uploaded assets: on the runtime the references travel as
 * `inputs[]` instead, and a personal asset id is never sent (spec, section B).
 */
const PUBLIC_ASSET_FIELDS = new Set([
  'input_image_asset_id',
  'input_image_asset_ids',
  'end_image_asset_id',
  'input_audio_asset_id',
  'input_video_asset_id',
  'input_document_asset_id',
  'referenceInputs',
  'assets',
]);

/**
 * The runtime creation body (`POST /media/jobs`) of a public creation request as Framewright builds
 * it (H3 `buildMediaGenerationRequest`, the image and audio request builders): `clientTaskId`,
 * `model`, `serviceKind`, the content in `params` (never `prompt` at top level), the rest of the
 * spec in `mediaSpec` (no field in both), the references as `inputs[]` (omitted for none) and the
 * optional `resourceAttribution`. Pure: the same request and identity always give the same body,
 * so the journal stores it once and replays it byte for byte.
 */
export function runtimeJobBody(
  serviceKind: RuntimeServiceKind,
  request: Readonly<Record<string, unknown>>,
  identity: RuntimeJobIdentity,
): Record<string, unknown> {
  if (!identity.clientTaskId)
    throw new AppError('runtime.invalid_job_body', 'A runtime job needs a clientTaskId.');
  const model = request.model;
  if (typeof model !== 'string' || model.length === 0)
    throw new AppError('runtime.invalid_job_body', 'A runtime job needs an explicit model.');
  const params: Record<string, unknown> = {};
  const mediaSpec: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(request)) {
    if (field === 'model' || value === undefined || PUBLIC_ASSET_FIELDS.has(field)) continue;
    if ((PARAM_FIELDS as readonly string[]).includes(field)) params[field] = value;
    else mediaSpec[field] = value;
  }
  const body: Record<string, unknown> = {
    clientTaskId: identity.clientTaskId,
    model,
    serviceKind,
    params,
    mediaSpec,
  };
  const inputs = (identity.inputs ?? []).map(runtimeInput);
  if (inputs.length > 0) body.inputs = inputs;
  if (identity.resourceAttribution) {
    const { resourceType, resourceId } = identity.resourceAttribution;
    body.resourceAttribution = { resourceType, resourceId };
  }
  return body;
}

/** Copies only the fields the spec names for an input (no `mediaType`, no `purpose`), checked. */
function runtimeInput(item: RuntimeInputItem, index: number): RuntimeInputItem {
  if (!(RUNTIME_INPUT_ROLES as readonly string[]).includes(item.role))
    throw new AppError(
      'runtime.invalid_job_body',
      `inputs[${index}]: role "${item.role}" is not a runtime input role.`,
    );
  if (!/^https?:\/\//.test(item.readUrl))
    throw new AppError(
      'runtime.invalid_job_body',
      `inputs[${index}]: readUrl must be an http(s) URL of the application's storage.`,
    );
  if (item.sha256 !== undefined && !/^[0-9a-f]{64}$/.test(item.sha256))
    throw new AppError(
      'runtime.invalid_job_body',
      `inputs[${index}]: sha256 must be 64 lowercase hex characters.`,
    );
  const out: RuntimeInputItem = { readUrl: item.readUrl, role: item.role };
  if (item.mimeType !== undefined) out.mimeType = item.mimeType;
  if (item.sha256 !== undefined) out.sha256 = item.sha256;
  if (item.byteSize !== undefined) out.byteSize = item.byteSize;
  if (item.expiresAt !== undefined) out.expiresAt = item.expiresAt;
  return out;
}
