/**
 * The limits a draft is checked against, resolved from the service's live `mediaSpecContract`
 * (and its `promptOptimization` object), falling back to the document's H3 numbers wherever
 * the contract is silent. The contract keys themselves are read by the contract vocabulary
 * (`src/shared/api/contract-vocabulary.ts`); this module only combines them with H3.
 *
 * Resolution rules (the contract is authoritative where it speaks, so it can widen OR tighten):
 * - prompt: `contract.prompt.{minCodePoints,maxCodePoints,trim}`, each falling back separately.
 * - seconds / seed: the `parameters` entry of that name (`minimum`, `maximum`, `values`).
 * - resolutionTier / orientation: the parameter's `values`; else the keys of
 *   `effectiveSpec.canvases` (tiers, and orientations of every tier); else H3.
 * - generationMode: the parameter's `values`; else the keys of `contract.modes`; else H3.
 *   A mode's composition comes from `contract.modes[mode]`; for the four H3 mode names each of
 *   `frames` / `referenceInputs` (and each number inside `referenceInputs`) falls back to H3
 *   when absent. A mode H3 does not know takes only what the contract lists for it.
 * - uploadLimits: per role and per key, falling back to the H3 role limits.
 * - forbiddenFields: the document's H3 list plus the contract's list, minus any field the
 *   contract publishes as a parameter (a published parameter is allowed by definition).
 */
import {
  contractParameterOf,
  readMediaSpec,
  readPromptOptimization,
  type MediaSpec,
  type OptimizationRoleLimit,
} from '../api/contract-vocabulary.js';
import type { ContractParameter, ReferenceComposition } from '../api/media-spec-contract.js';
import { normalizeMimeType } from './draft.js';
import { H3_PROMPT_CODE_POINTS } from '../api/spec-limits.js';

export const MiB = 1024 * 1024;

export interface PromptLimits {
  minCodePoints: number;
  maxCodePoints: number;
  /** Count after trimming (H3: yes). The prompt is always SENT as written. */
  trim: boolean;
}

export interface NumberLimits {
  min: number;
  max: number;
  integer: boolean;
  /** When the contract publishes a closed list of values, only these are allowed. */
  values?: number[];
}

export interface ReferenceCompositionLimits {
  maxItems: number;
  maxImages: number;
  maxImagesWithVideo: number;
  maxVideos: number;
  maxAudios: number;
  minVisual: number;
}

export interface ModeLimits {
  /** Request field -> input role, e.g. `{ input_image_asset_id: 'first_frame' }`. All are required. */
  frames: Record<string, string>;
  /** Present when the mode takes `referenceInputs`. */
  referenceInputs?: ReferenceCompositionLimits;
}

export interface RoleLimits {
  /** Accepted MIME types, normalized (see `normalizeMimeType`). */
  formats: string[];
  maxBytes: number;
  minSeconds?: number;
  maxSeconds?: number;
  maxTotalSeconds?: number;
}

export interface Canvas {
  width: number;
  height: number;
}

export interface OptimizationRoleLimits {
  min: number;
  max: number;
  /** Lower maximum when a reference video is present (H3 images: 8). */
  maxWithVideo?: number;
}

/** Typed reference roles of the optimizer for one generation mode. */
export interface OptimizationModeRoles {
  roles: Record<string, OptimizationRoleLimits>;
  maxItems: number;
  minVisual: number;
}

export interface OptimizationLimits {
  /** False when the service publishes no `promptOptimization` object or says `available: false`. */
  available: boolean;
  /** Generation modes the optimizer profiles accept. */
  modes: string[];
  profileNames: string[];
  clientTimeoutSeconds: number;
  styleAllowed: boolean;
  style: { minCodePoints: number; maxCodePoints: number };
  /** Defaults for every mode ... */
  maxItems: number;
  minVisual: number;
  roles: Record<string, OptimizationRoleLimits>;
  /** ... overridden per mode where the profile publishes roles by mode (see `optimizationRolesFor`). */
  modeRoles: Record<string, Partial<OptimizationModeRoles>>;
  originalPrompt: { minCodePoints: number; maxCodePoints: number };
  clientRequestId: { minLength: number; maxLength: number; pattern: string };
}

export interface EffectiveLimits {
  profile: string;
  contractVersion?: string;
  prompt: PromptLimits;
  seconds: NumberLimits;
  seed: NumberLimits;
  resolutionTiers: string[];
  orientations: string[];
  modes: Record<string, ModeLimits>;
  /** role (first_frame, last_frame, reference_image, reference_video, reference_audio, or any the contract adds) -> limits */
  uploadLimits: Record<string, RoleLimits>;
  /** Field names that must never be sent, as published / documented (compare with `isForbiddenField`). */
  forbiddenFields: string[];
  requiredFields: string[];
  /** Contract parameters other than the draft's own fields (they travel in `draft.extra`). */
  extraParameters: ContractParameter[];
  /** resolutionTier -> orientation -> canvas, when published (H3: 768p landscape 1376x768, portrait 768x1376). */
  canvases: Record<string, Record<string, Canvas>>;
  /**
   * True when the canvases come from the live contract: then a tier offers only the
   * orientations it lists (`orientation.not_for_tier`). H3 fallback canvases never restrict.
   */
  canvasesFromContract: boolean;
  fps?: number;
  maxFrames?: number;
  optimization: OptimizationLimits;
}

/** Request fields the draft carries itself; never taken from `extra`. */
export const CORE_FIELDS: readonly string[] = [
  'model',
  'prompt',
  'generationMode',
  'resolutionTier',
  'orientation',
  'seconds',
  'seed',
  'referenceInputs',
  'input_image_asset_id',
  'end_image_asset_id',
  'input_audio_asset_id',
  'input_video_asset_id',
];

const IMAGE_FORMATS = ['image/jpeg', 'image/png', 'image/webp'];
const AUDIO_FORMATS = [
  'audio/wav',
  'audio/mpeg',
  'audio/flac',
  'audio/mp4',
  'audio/aac',
  'audio/ogg',
  'video/quicktime',
];

const H3_REFERENCES: ReferenceCompositionLimits = {
  maxItems: 12,
  maxImages: 9,
  maxImagesWithVideo: 8,
  maxVideos: 1,
  maxAudios: 3,
  minVisual: 1,
};

/** The document's H3 numbers ("MediaGenerationRequest", "H3 input composition per mode", "Limits"). */
export type H3Defaults = Readonly<
  Omit<
    EffectiveLimits,
    'contractVersion' | 'requiredFields' | 'extraParameters' | 'optimization' | 'canvasesFromContract'
  > & {
    fps: number;
    maxFrames: number;
    optimization: Omit<OptimizationLimits, 'available' | 'modes' | 'modeRoles'>;
  }
>;

export const H3_DEFAULTS: H3Defaults = {
  profile: 'h3',
  prompt: { minCodePoints: H3_PROMPT_CODE_POINTS.min, maxCodePoints: H3_PROMPT_CODE_POINTS.max, trim: true },
  seconds: { min: 5, max: 15, integer: true },
  seed: { min: 0, max: 2147483647, integer: true },
  resolutionTiers: ['768p'],
  orientations: ['landscape', 'portrait'],
  modes: {
    t2v: { frames: {} },
    i2v: { frames: { input_image_asset_id: 'first_frame' } },
    first_last_frame_video: {
      frames: { input_image_asset_id: 'first_frame', end_image_asset_id: 'last_frame' },
    },
    universal_reference_video: { frames: {}, referenceInputs: H3_REFERENCES },
  },
  uploadLimits: {
    first_frame: { formats: IMAGE_FORMATS, maxBytes: 16 * MiB },
    last_frame: { formats: IMAGE_FORMATS, maxBytes: 16 * MiB },
    reference_image: { formats: IMAGE_FORMATS, maxBytes: 30 * MiB },
    reference_video: { formats: ['video/mp4'], maxBytes: 50 * MiB },
    reference_audio: {
      formats: AUDIO_FORMATS,
      maxBytes: 15 * MiB,
      minSeconds: 2,
      maxSeconds: 15,
      maxTotalSeconds: 15,
    },
  },
  /** "fps, frame counts, width/height, steps or runtime/device settings". */
  forbiddenFields: [
    'fps',
    'frame_rate',
    'frames',
    'num_frames',
    'frame_count',
    'max_frames',
    'width',
    'height',
    'steps',
    'num_inference_steps',
    'inference_steps',
    'sampling_steps',
    'device',
    'device_id',
    'devices',
    'gpu',
    'gpu_id',
    'gpus',
    'runtime',
    'runtime_settings',
    'runtime_config',
    'dtype',
    'precision',
  ],
  canvases: {
    '768p': { landscape: { width: 1376, height: 768 }, portrait: { width: 768, height: 1376 } },
  },
  fps: 24,
  maxFrames: 362,
  optimization: {
    profileNames: ['typed-media/v1'],
    clientTimeoutSeconds: 180,
    style: { minCodePoints: 1, maxCodePoints: 200 },
    maxItems: 12,
    minVisual: 1,
    roles: {
      first_frame: { min: 0, max: 1 },
      last_frame: { min: 0, max: 1 },
      reference_image: { min: 0, max: 9, maxWithVideo: 8 },
      reference_video: { min: 0, max: 1 },
      reference_audio: { min: 0, max: 3 },
    },
    originalPrompt: { minCodePoints: H3_PROMPT_CODE_POINTS.min, maxCodePoints: H3_PROMPT_CODE_POINTS.max },
    clientRequestId: { minLength: 8, maxLength: 128, pattern: '^[A-Za-z0-9._:-]+$' },
    styleAllowed: true,
  },
};

export const H3_MODES = Object.keys(H3_DEFAULTS.modes);

/** Canonical spelling for forbidden-field comparison: lower case, `_`/`-` removed (`numFrames` = `num_frames`). */
export function canonicalFieldName(name: string): string {
  return name.toLowerCase().replace(/[_-]/g, '');
}

/** Whether `field` must not be sent under these limits. */
export function isForbiddenField(field: string, limits: Pick<EffectiveLimits, 'forbiddenFields'>): boolean {
  const c = canonicalFieldName(field);
  return limits.forbiddenFields.some((f) => canonicalFieldName(f) === c);
}

function num(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

function strings(value: unknown): string[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const out = value.filter((v): v is string => typeof v === 'string');
  return out.length > 0 ? out : undefined;
}

function stringValues(p: ContractParameter | undefined): string[] | undefined {
  const values = p?.values?.filter((v): v is string => typeof v === 'string');
  return values && values.length > 0 ? values : undefined;
}

function numberLimits(p: ContractParameter | undefined, fallback: NumberLimits): NumberLimits {
  const values = p?.values?.filter((v): v is number => typeof v === 'number');
  const result: NumberLimits = {
    min: num(p?.minimum) ?? fallback.min,
    max: num(p?.maximum) ?? fallback.max,
    integer: p?.type === 'number' ? false : fallback.integer,
  };
  if (values && values.length > 0) result.values = values;
  return result;
}

function unique(values: Iterable<string>): string[] {
  return [...new Set(values)];
}

function resolveComposition(
  published: ReferenceComposition | undefined,
  fallback: ReferenceCompositionLimits | undefined,
): ReferenceCompositionLimits | undefined {
  if (!published) return fallback ? { ...fallback } : undefined;
  const base = fallback ?? H3_REFERENCES;
  return {
    maxItems: num(published.maxItems) ?? base.maxItems,
    maxImages: num(published.maxImages) ?? base.maxImages,
    // A contract that lowers maxImages but is silent on the with-video figure never gets a looser one.
    maxImagesWithVideo: Math.min(
      num(published.maxImagesWithVideo) ?? base.maxImagesWithVideo,
      num(published.maxImages) ?? Number.POSITIVE_INFINITY,
    ),
    maxVideos: num(published.maxVideos) ?? base.maxVideos,
    maxAudios: num(published.maxAudios) ?? base.maxAudios,
    minVisual: num(published.minVisual) ?? base.minVisual,
  };
}

function resolveModes(contract: MediaSpec): Record<string, ModeLimits> {
  const h3 = H3_DEFAULTS.modes;
  const published = contract.modes;
  const names =
    stringValues(contractParameterOf(contract, 'generationMode')) ??
    (Object.keys(published).length > 0 ? Object.keys(published) : H3_MODES);
  const modes: Record<string, ModeLimits> = {};
  for (const name of names) {
    const fallback = Object.hasOwn(h3, name) ? h3[name] : undefined;
    const entry = Object.hasOwn(published, name) ? published[name] : undefined;
    const frames = entry?.frames ?? fallback?.frames ?? {};
    const refs =
      entry?.referenceInputs !== undefined
        ? resolveComposition(entry.referenceInputs, fallback?.referenceInputs)
        : fallback?.referenceInputs
          ? { ...fallback.referenceInputs }
          : undefined;
    modes[name] = refs ? { frames: { ...frames }, referenceInputs: refs } : { frames: { ...frames } };
  }
  return modes;
}

function resolveUploadLimits(contract: MediaSpec): Record<string, RoleLimits> {
  const h3 = H3_DEFAULTS.uploadLimits;
  const published = contract.uploadLimits;
  const out: Record<string, RoleLimits> = {};
  for (const role of unique([...Object.keys(h3), ...Object.keys(published)])) {
    const base: RoleLimits | undefined = Object.hasOwn(h3, role) ? h3[role] : undefined;
    const p = Object.hasOwn(published, role) ? published[role] : undefined;
    const formats = strings(p?.formats) ?? base?.formats ?? [];
    const limit: RoleLimits = {
      formats: unique(formats.map((f) => normalizeMimeType(f))),
      maxBytes: num(p?.maxBytes) ?? base?.maxBytes ?? Number.POSITIVE_INFINITY,
    };
    const minSeconds = num(p?.minSeconds) ?? base?.minSeconds;
    const maxSeconds = num(p?.maxSeconds) ?? base?.maxSeconds;
    const maxTotalSeconds = num(p?.maxTotalSeconds) ?? base?.maxTotalSeconds;
    if (minSeconds !== undefined) limit.minSeconds = minSeconds;
    if (maxSeconds !== undefined) limit.maxSeconds = maxSeconds;
    if (maxTotalSeconds !== undefined) limit.maxTotalSeconds = maxTotalSeconds;
    out[role] = limit;
  }
  return out;
}

function resolveCanvases(contract: MediaSpec): Record<string, Record<string, Canvas>> {
  const published = contract.canvases;
  const source = Object.keys(published).length > 0 ? published : H3_DEFAULTS.canvases;
  const out: Record<string, Record<string, Canvas>> = {};
  for (const [tier, byOrientation] of Object.entries(source)) {
    out[tier] = {};
    for (const [orientation, c] of Object.entries(byOrientation)) {
      out[tier][orientation] = { width: c.width, height: c.height };
    }
  }
  return out;
}

function resolveOptimization(promptOptimization: unknown, modeNames: string[]): OptimizationLimits {
  const d = H3_DEFAULTS.optimization;
  const po = readPromptOptimization(promptOptimization, Object.keys(d.roles));
  const [top, ...profiles] = po.sources;
  const profileModes = profiles.flatMap((p) => p.modes ?? []);
  const modes =
    top?.modes ??
    (profileModes.length > 0 ? unique(profileModes) : modeNames.filter((m) => H3_MODES.includes(m)));

  // Style, typed roles and counts: the top level first, then each profile (later ones win).
  let styleAllowed = d.styleAllowed;
  let styleMin: number = d.style.minCodePoints;
  let styleMax: number = d.style.maxCodePoints;
  const roles: Record<string, OptimizationRoleLimits> = {};
  for (const [role, r] of Object.entries(d.roles)) roles[role] = { ...r };
  const modeRoles: Record<string, Partial<OptimizationModeRoles>> = {};
  let maxItems: number = d.maxItems;
  let minVisual: number = d.minVisual;
  const applyRole = (
    target: Record<string, OptimizationRoleLimits>,
    role: string,
    r: OptimizationRoleLimit,
  ): void => {
    const base: OptimizationRoleLimits = Object.hasOwn(target, role)
      ? (target[role] as OptimizationRoleLimits)
      : Object.hasOwn(roles, role)
        ? (roles[role] as OptimizationRoleLimits)
        : { min: 0, max: Number.POSITIVE_INFINITY };
    if (typeof r === 'number') {
      target[role] = { ...base, max: r };
      return;
    }
    const limit: OptimizationRoleLimits = { min: r.min ?? base.min, max: r.max ?? base.max };
    // a published maximum without its with-video figure drops the old one (never a stale cap)
    const withVideo = r.maxWithVideo ?? (r.max === undefined ? base.maxWithVideo : undefined);
    if (withVideo !== undefined) limit.maxWithVideo = withVideo;
    target[role] = limit;
  };
  for (const s of po.sources) {
    styleAllowed = s.styleAllowed ?? styleAllowed;
    styleMin = s.styleMinCodePoints ?? styleMin;
    styleMax = s.styleMaxCodePoints ?? styleMax;
    for (const [role, r] of Object.entries(s.roles)) applyRole(roles, role, r);
    for (const [mode, published] of Object.entries(s.modeRoles)) {
      const entry: Partial<OptimizationModeRoles> = modeRoles[mode] ?? {};
      const byRole: Record<string, OptimizationRoleLimits> = entry.roles ?? {};
      for (const [role, r] of Object.entries(published.roles)) applyRole(byRole, role, r);
      entry.roles = byRole;
      if (published.maxItems !== undefined) entry.maxItems = published.maxItems;
      if (published.minVisual !== undefined) entry.minVisual = published.minVisual;
      modeRoles[mode] = entry;
    }
    maxItems = s.maxItems ?? maxItems;
    minVisual = s.minVisual ?? minVisual;
  }

  const crid = po.clientRequestId;
  const pattern =
    crid.pattern !== undefined && isValidPattern(crid.pattern) ? crid.pattern : d.clientRequestId.pattern;

  return {
    available: po.available,
    modes,
    profileNames: po.profileNames.length > 0 ? po.profileNames : [...d.profileNames],
    clientTimeoutSeconds: po.clientTimeoutSeconds ?? d.clientTimeoutSeconds,
    styleAllowed,
    style: { minCodePoints: styleMin, maxCodePoints: styleMax },
    maxItems,
    minVisual,
    roles,
    modeRoles,
    originalPrompt: {
      minCodePoints: po.originalPrompt.minCodePoints ?? d.originalPrompt.minCodePoints,
      maxCodePoints: po.originalPrompt.maxCodePoints ?? d.originalPrompt.maxCodePoints,
    },
    clientRequestId: {
      minLength: crid.minLength ?? d.clientRequestId.minLength,
      maxLength: crid.maxLength ?? d.clientRequestId.maxLength,
      pattern,
    },
  };
}

function isValidPattern(pattern: string): boolean {
  try {
    new RegExp(pattern, 'u');
    return true;
  } catch {
    return false;
  }
}

/**
 * The optimizer's typed roles for `mode`: the profile's per-mode roles where published, else
 * its global roles (H3: first_frame/last_frame 0..1; reference_image 0..9, 8 with a video;
 * reference_video 0..1; reference_audio 0..3; at most 12 items; at least 1 visual).
 */
export function optimizationRolesFor(limits: EffectiveLimits, mode: string): OptimizationModeRoles {
  const o = limits.optimization;
  const perMode = Object.hasOwn(o.modeRoles, mode) ? o.modeRoles[mode] : undefined;
  return {
    roles: { ...o.roles, ...(perMode?.roles ?? {}) },
    maxItems: perMode?.maxItems ?? o.maxItems,
    minVisual: perMode?.minVisual ?? o.minVisual,
  };
}

/**
 * Limits for checking a draft against the service's live `mediaSpecContract` (any value, read
 * through the contract vocabulary; `undefined`/`null` = the contract is silent everywhere) and
 * its `promptOptimization` object (free-form; absent = the service offers no optimization).
 */
export function resolveEffectiveLimits(
  mediaSpecContract?: unknown,
  promptOptimization?: unknown,
): EffectiveLimits {
  const c = readMediaSpec(mediaSpecContract);
  const canvases = resolveCanvases(c);
  const canvasTiers = Object.keys(c.canvases);
  const canvasOrientations = unique(
    Object.values(c.canvases).flatMap((byOrientation) => Object.keys(byOrientation)),
  );

  const parameters = c.parameters;
  const parameterNames = new Set(parameters.map((p) => canonicalFieldName(p.name)));
  const forbiddenFields = unique([...H3_DEFAULTS.forbiddenFields, ...c.forbiddenFields]).filter(
    (f) => !parameterNames.has(canonicalFieldName(f)),
  );

  const modes = resolveModes(c);
  const limits: EffectiveLimits = {
    profile: c.profile ?? H3_DEFAULTS.profile,
    prompt: {
      minCodePoints: c.prompt.minCodePoints ?? H3_DEFAULTS.prompt.minCodePoints,
      maxCodePoints: c.prompt.maxCodePoints ?? H3_DEFAULTS.prompt.maxCodePoints,
      trim: c.prompt.trim ?? H3_DEFAULTS.prompt.trim,
    },
    seconds: numberLimits(contractParameterOf(c, 'seconds'), { ...H3_DEFAULTS.seconds }),
    seed: numberLimits(contractParameterOf(c, 'seed'), { ...H3_DEFAULTS.seed }),
    resolutionTiers:
      stringValues(contractParameterOf(c, 'resolutionTier')) ??
      (canvasTiers.length > 0 ? canvasTiers : [...H3_DEFAULTS.resolutionTiers]),
    orientations:
      stringValues(contractParameterOf(c, 'orientation')) ??
      (canvasOrientations.length > 0 ? canvasOrientations : [...H3_DEFAULTS.orientations]),
    modes,
    uploadLimits: resolveUploadLimits(c),
    forbiddenFields,
    requiredFields: [...c.requiredFields],
    extraParameters: parameters.filter((p) => !CORE_FIELDS.includes(p.name)),
    canvases,
    canvasesFromContract: canvasTiers.length > 0,
    fps: c.fps ?? H3_DEFAULTS.fps,
    maxFrames: c.maxFrames ?? H3_DEFAULTS.maxFrames,
    optimization: resolveOptimization(promptOptimization, Object.keys(modes)),
  };
  if (c.version !== undefined) limits.contractVersion = c.version;
  return limits;
}

/** The output canvas for a tier and orientation, when known. */
export function canvasFor(limits: EffectiveLimits, tier: string, orientation: string): Canvas | undefined {
  const byOrientation = Object.hasOwn(limits.canvases, tier) ? limits.canvases[tier] : undefined;
  return byOrientation && Object.hasOwn(byOrientation, orientation) ? byOrientation[orientation] : undefined;
}
