/**
 * The gateway's vocabulary that the spec leaves open, in one place. The spec fixes the shapes
 * (PublicError, ServiceEntry) but not every value: "The full catalogue of error codes: not shown",
 * and the contracts (`mediaSpecContract`, `apiUsageContract`, `promptOptimization`) are free-form.
 * Framewright reads the names below — taken from the local simulator — and says here what it does
 * when a live answer lacks them. Adapting to the real gateway's names is a change in this file.
 */
import type {
  Canvas,
  ContractParameter,
  ModeInputs,
  ReferenceComposition,
  RoleUploadLimit,
} from './media-spec-contract.js';

// ------------------------------------------------------------------ 409 codes ("inspect `code`")

/** PublicError codes of a 409 meaning "same key, different body" (an idempotency conflict). */
export const IDEMPOTENCY_CONFLICT_CODES: readonly string[] = [
  'idempotency_conflict',
  'idempotency_key_conflict',
  'idempotency_key_reused',
];

/** PublicError codes of a 409 meaning "service not available". */
export const SERVICE_NOT_AVAILABLE_CODES: readonly string[] = [
  'service_not_available',
  'model_not_available',
];

export type ConflictMeaning = 'idempotency_conflict' | 'service_not_available' | 'unrecognised';

/**
 * What a 409 means, by its `code`. Fallback: a code in neither list is `unrecognised`, which
 * Framewright treats as carefully as an idempotency conflict (never a new key while a job may exist).
 */
export function conflictMeaning(code: string): ConflictMeaning {
  if (IDEMPOTENCY_CONFLICT_CODES.includes(code)) return 'idempotency_conflict';
  if (SERVICE_NOT_AVAILABLE_CODES.includes(code)) return 'service_not_available';
  return 'unrecognised';
}

// ------------------------------------------------- `apiUsageContract` keys (free-form in the spec)

/**
 * What Framewright reads from a service's `apiUsageContract`. Each field names the contract key it
 * comes from and the fallback used when a live contract lacks it (or gives another type). The
 * fallbacks never widen what is sent: a missing capability is "not offered".
 */
export interface ApiUsage {
  /** `contentPartTypes`: chat content part types; fallback `['text']`. */
  contentPartTypes: string[];
  /** `samplingFields`: the sampling fields the model allows; fallback none (none are offered or sent). */
  samplingFields: string[];
  /**
   * `inlineImages: true`: images may be sent inline as data: URLs (only with an `image_url` part
   * type); fallback false. Read from this flag only, never from prose such as `mediaUrls`.
   */
  inlineImages: boolean;
  /** `operations.chat.stream`: false turns streaming off; fallback true (the spec's `stream` flag). */
  chatStreams: boolean;
  /** `supportsTopN: true`: rerank takes `top_n`; fallback false. */
  supportsTopN: boolean;
  /** `tasks`: OCR tasks; fallback undefined (no `task` is checked or offered). */
  ocrTasks: string[] | undefined;
  /** `supportsDocumentAsset: true`: OCR takes `document_asset_id`; fallback false. */
  supportsDocumentAsset: boolean;
  /** `maxItems`: embedding inputs per call; fallback undefined (the spec's 64). */
  maxItems: number | undefined;
  /** `maxCharactersPerItem`: per embedding input; fallback undefined (the spec's 8192). */
  maxCharactersPerItem: number | undefined;
  /** `maxFileBytes`: transcription file size; fallback undefined (the spec's 25 MiB). */
  maxFileBytes: number | undefined;
  /** `supportsLanguage: true`: transcription takes `language`; fallback false. */
  supportsLanguage: boolean;
  /** `languages`: the languages offered; fallback undefined (any). */
  languages: string[] | undefined;
  /** `responseFormats`: transcription formats; fallback none (`response_format` is not sent). */
  responseFormats: string[];
}

const strings = (value: unknown): string[] | undefined =>
  Array.isArray(value) && value.every((v) => typeof v === 'string') ? (value as string[]) : undefined;
const positive = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : undefined;
const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);
const record = (value: unknown): Record<string, unknown> => (isObject(value) ? value : {});

/** Reads a service's `apiUsageContract` (any value; absent or malformed gives every fallback). */
export function readApiUsage(apiUsageContract: unknown): ApiUsage {
  const usage = record(apiUsageContract);
  const contentPartTypes = strings(usage.contentPartTypes) ?? ['text'];
  const chat = record(record(usage.operations).chat);
  return {
    contentPartTypes,
    samplingFields: strings(usage.samplingFields) ?? [],
    inlineImages: contentPartTypes.includes('image_url') && usage.inlineImages === true,
    chatStreams: chat.stream !== false,
    supportsTopN: usage.supportsTopN === true,
    ocrTasks: strings(usage.tasks),
    supportsDocumentAsset: usage.supportsDocumentAsset === true,
    maxItems: positive(usage.maxItems),
    maxCharactersPerItem: positive(usage.maxCharactersPerItem),
    maxFileBytes: positive(usage.maxFileBytes),
    supportsLanguage: usage.supportsLanguage === true,
    languages: strings(usage.languages),
    responseFormats: strings(usage.responseFormats) ?? [],
  };
}

// ------------------------------------------------ `mediaSpecContract` keys (free-form in the spec)

const finite = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isFinite(value) ? value : undefined;
/** The strings of a list (other items ignored); undefined when there are none. */
const someStrings = (value: unknown): string[] | undefined => {
  if (!Array.isArray(value)) return undefined;
  const out = value.filter((v): v is string => typeof v === 'string');
  return out.length > 0 ? out : undefined;
};
const bool = (value: unknown): boolean | undefined => (typeof value === 'boolean' ? value : undefined);
/** Each entry of a record that `parse` accepts; a malformed entry is left out (as if unpublished). */
function entriesOf<T>(value: unknown, parse: (v: unknown) => T | undefined): Record<string, T> {
  const out: Record<string, T> = {};
  for (const [key, v] of Object.entries(record(value))) {
    const parsed = parse(v);
    if (parsed !== undefined) out[key] = parsed;
  }
  return out;
}

/**
 * What Framewright reads from a service's `mediaSpecContract`. Each field names its key and the
 * fallback when a live contract lacks it (or gives another type); for the H3 video keys the
 * fallback "H3" means `resolveEffectiveLimits` (src/shared/h3/effective-limits.ts) applies the
 * document's number.
 */
export interface MediaSpec {
  /** `version`: shown with the limits; fallback undefined. */
  version: string | undefined;
  /** `profile` (e.g. `h3`, `speech`); fallback undefined (H3 for video; the audio panel says `speech`). */
  profile: string | undefined;
  /** `requiredFields`; fallback none. */
  requiredFields: string[];
  /** `forbiddenFields`, added to H3's list; fallback none (H3's list still applies). */
  forbiddenFields: string[];
  /**
   * `parameters` (`{ name, type, values?, minimum?, maximum?, maxLength?, default?, modes? }`): the
   * request fields the model takes; fallback none (a malformed entry is left out).
   */
  parameters: ContractParameter[];
  /** `prompt.{minCodePoints,maxCodePoints,trim}`; each falls back separately (H3: 1, 7000, trim). */
  prompt: { minCodePoints?: number; maxCodePoints?: number; trim?: boolean };
  /**
   * `modes` (mode → `{ frames?, referenceInputs?, maxInputImages? }`); fallback none (H3's four
   * video modes; for an image model, `frames` sets the input count). A malformed mode is left out.
   */
  modes: Record<string, ModeInputs>;
  /** `effectiveSpec.canvases` (tier → orientation → `{ width, height }`); fallback none (H3's 768p). */
  canvases: Record<string, Record<string, Canvas>>;
  /** `effectiveSpec.fps`; fallback undefined (H3: 24). */
  fps: number | undefined;
  /** `effectiveSpec.maxFrames`; fallback undefined (H3: 362). */
  maxFrames: number | undefined;
  /** `uploadLimits` (see `readUploadLimits`). */
  uploadLimits: Record<string, RoleUploadLimit>;
  /**
   * `limits.{textMaxCharacters,instructMaxCharacters}` (speech); each a positive number, else
   * undefined (the `text`/`instruct` parameter's `maxLength`, else the document's 600 and 160).
   */
  limits: { textMaxCharacters?: number; instructMaxCharacters?: number };
  /**
   * `speakers` (speech): the strings of the list (other items ignored); fallback undefined (the
   * `speaker` parameter's `values`, else any speaker).
   */
  speakers: string[] | undefined;
}

/*
 * The parts of a `mediaSpecContract` read below, checked in plain TypeScript rather than with the
 * zod schemas of ./media-spec-contract.ts, so that this module (which the renderer runs for the H3
 * rules) carries no schema library into the renderer's first chunk. Each accepts exactly what its
 * schema there accepts (test/unit/shared/media-spec-shapes.test.ts compares them on the same
 * values): every listed key optional and of its type when present, unknown keys kept.
 */
/** zod's `z.number()`: finite. */
const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
/** zod's `z.number().int()`: a safe integer. */
const isInteger = (v: unknown): v is number => Number.isSafeInteger(v);
type Check = (v: unknown) => boolean;
const optional =
  (check: Check): Check =>
  (v) =>
    v === undefined || check(v);
const isString: Check = (v) => typeof v === 'string';
const isBoolean: Check = (v) => typeof v === 'boolean';
const arrayOf =
  (check: Check): Check =>
  (v) =>
    Array.isArray(v) && v.every(check);
/** zod's `z.record(z.string(), …)`: a plain object whose every value passes. */
const recordOf =
  (check: Check): Check =>
  (v) => {
    if (!isObject(v)) return false;
    const proto = Object.getPrototypeOf(v) as unknown;
    return (proto === Object.prototype || proto === null) && Object.values(v).every(check);
  };
/** zod's loose `z.object(shape)`: any non-array object whose listed keys pass; returns a copy. */
function looseObject<T>(shape: Record<string, Check>): (v: unknown) => T | undefined {
  return (v) => {
    if (!isObject(v)) return undefined;
    for (const [key, check] of Object.entries(shape)) if (!check(v[key])) return undefined;
    return { ...v } as T;
  };
}

const readContractParameter = looseObject<ContractParameter>({
  name: isString,
  type: isString,
  required: optional(isBoolean),
  description: optional(isString),
  values: optional(arrayOf((v) => isString(v) || isNumber(v))),
  minimum: optional(isNumber),
  maximum: optional(isNumber),
  maxLength: optional(isNumber),
  modes: optional(arrayOf(isString)),
});
const readReferenceComposition = looseObject<ReferenceComposition>({
  maxItems: optional(isInteger),
  maxImages: optional(isInteger),
  maxImagesWithVideo: optional(isInteger),
  maxVideos: optional(isInteger),
  maxAudios: optional(isInteger),
  minVisual: optional(isInteger),
});
const readModeInputsShape = looseObject<ModeInputs>({
  frames: optional(recordOf(isString)),
  referenceInputs: optional((v) => readReferenceComposition(v) !== undefined),
  maxInputImages: optional(isInteger),
});
const readModeInputs = (v: unknown): ModeInputs | undefined => {
  const mode = readModeInputsShape(v);
  if (mode?.referenceInputs !== undefined)
    mode.referenceInputs = readReferenceComposition(mode.referenceInputs);
  return mode;
};
const readCanvas = looseObject<Canvas>({ width: isInteger, height: isInteger });
const readRoleUploadLimit = looseObject<RoleUploadLimit>({
  formats: optional(arrayOf(isString)),
  maxBytes: optional((v) => isInteger(v) && (v as number) > 0),
  minSeconds: optional(isNumber),
  maxSeconds: optional(isNumber),
  maxTotalSeconds: optional(isNumber),
});

/** The checks above, for the test that holds them to the zod schemas. */
export const mediaSpecShapeReaders = {
  ContractParameter: readContractParameter,
  ReferenceComposition: readReferenceComposition,
  ModeInputs: readModeInputs,
  Canvas: readCanvas,
  RoleUploadLimit: readRoleUploadLimit,
};

/** Reads a service's `mediaSpecContract` (any value; absent or malformed gives every fallback). */
export function readMediaSpec(mediaSpecContract: unknown): MediaSpec {
  const contract = record(mediaSpecContract);
  const prompt = record(contract.prompt);
  const effectiveSpec = record(contract.effectiveSpec);
  const limits = record(contract.limits);
  const parameters = Array.isArray(contract.parameters) ? contract.parameters : [];
  const spec: MediaSpec = {
    version: typeof contract.version === 'string' ? contract.version : undefined,
    profile: typeof contract.profile === 'string' ? contract.profile : undefined,
    requiredFields: someStrings(contract.requiredFields) ?? [],
    forbiddenFields: someStrings(contract.forbiddenFields) ?? [],
    parameters: parameters.map(readContractParameter).filter((p): p is ContractParameter => p !== undefined),
    prompt: {},
    modes: entriesOf(contract.modes, readModeInputs),
    canvases: entriesOf(effectiveSpec.canvases, (tier) =>
      isObject(tier) ? entriesOf(tier, readCanvas) : undefined,
    ),
    fps: finite(effectiveSpec.fps),
    maxFrames: finite(effectiveSpec.maxFrames),
    uploadLimits: readUploadLimits(mediaSpecContract),
    limits: {},
    speakers: Array.isArray(contract.speakers)
      ? contract.speakers.filter((v): v is string => typeof v === 'string')
      : undefined,
  };
  const textMaxCharacters = positive(limits.textMaxCharacters);
  const instructMaxCharacters = positive(limits.instructMaxCharacters);
  if (textMaxCharacters !== undefined) spec.limits.textMaxCharacters = textMaxCharacters;
  if (instructMaxCharacters !== undefined) spec.limits.instructMaxCharacters = instructMaxCharacters;
  const minCodePoints = finite(prompt.minCodePoints);
  const maxCodePoints = finite(prompt.maxCodePoints);
  const trim = bool(prompt.trim);
  if (minCodePoints !== undefined) spec.prompt.minCodePoints = minCodePoints;
  if (maxCodePoints !== undefined) spec.prompt.maxCodePoints = maxCodePoints;
  if (trim !== undefined) spec.prompt.trim = trim;
  return spec;
}

/** The published parameter of that name (undefined: the contract does not offer the field). */
export function contractParameterOf(spec: MediaSpec, name: string): ContractParameter | undefined {
  return spec.parameters.find((p) => p.name === name);
}

/**
 * `mediaSpecContract.uploadLimits` (role → rule); fallback: no published rule, so the spec's
 * general limits apply (for video roles, H3's).
 */
export function readUploadLimits(mediaSpecContract: unknown): Record<string, RoleUploadLimit> {
  const limits = record(record(mediaSpecContract).uploadLimits);
  const out: Record<string, RoleUploadLimit> = {};
  for (const [role, value] of Object.entries(limits)) {
    // a malformed rule is no rule: the general limit of the role applies
    const rule = readRoleUploadLimit(value);
    if (rule !== undefined) out[role] = rule;
  }
  return out;
}

// ----------------------------------------------- `promptOptimization` keys (free-form in the spec)

/** One typed role's limit: `{ min?, max?, maxWithVideo? }`, or a bare number (= `max`, the rest kept). */
export type OptimizationRoleLimit = number | { min?: number; max?: number; maxWithVideo?: number };

/** The optimizer settings one source publishes: the `promptOptimization` object itself, or one profile. */
export interface OptimizationSettings {
  /** `generationModes`, else `modes`; fallback undefined. */
  modes: string[] | undefined;
  /** `style.allowed`, else `style` as a boolean, else `supportsStyle`, else `styleAllowed`; fallback undefined (H3: allowed). */
  styleAllowed: boolean | undefined;
  /** `style.minLength`, else `style.minCodePoints`, else `styleMinCodePoints`; fallback undefined (H3: 1). */
  styleMinCodePoints: number | undefined;
  /** `style.maxLength`, else `style.maxCodePoints`, else `styleMaxCodePoints`; fallback undefined (H3: 200). */
  styleMaxCodePoints: number | undefined;
  /**
   * `roles` (else `referenceRoles`), the entries that are role limits: a number, a known role's
   * name, or an object with a numeric `min`/`max`/`maxWithVideo`; fallback none (H3's roles).
   */
  roles: Record<string, OptimizationRoleLimit>;
  /** The other object entries of `roles`: mode → `{ role → limit, maxItems?, minVisual? }`; fallback none. */
  modeRoles: Record<
    string,
    { roles: Record<string, OptimizationRoleLimit>; maxItems?: number; minVisual?: number }
  >;
  /** `maxReferenceInputs`, else `maxItems`; fallback undefined (H3: 12). */
  maxItems: number | undefined;
  /** `minVisual`; fallback undefined (H3: 1). */
  minVisual: number | undefined;
}

/** What Framewright reads from a service's `promptOptimization` object. */
export interface PromptOptimization {
  /** The object is present and neither `available: false` nor `enabled: false`; fallback false (no optimizer). */
  available: boolean;
  /** `profiles`: a list of names or of objects named by `name`/`id`/`profile`, or name → object; fallback none (H3: `typed-media/v1`). */
  profileNames: string[];
  /** The settings of the top level (first) and of each profile object, in order; later ones win. */
  sources: OptimizationSettings[];
  /** `clientTimeoutSeconds`; fallback undefined (H3: 180). */
  clientTimeoutSeconds: number | undefined;
  /** `originalPromptMinCodePoints`/`…Max…`, else `originalPrompt.{minCodePoints,maxCodePoints}`; fallback undefined (H3: 1, 7000). */
  originalPrompt: { minCodePoints?: number; maxCodePoints?: number };
  /** `clientRequestId.{minLength,maxLength,pattern}`; fallback undefined (H3: 8, 128, `^[A-Za-z0-9._:-]+$`). */
  clientRequestId: { minLength?: number; maxLength?: number; pattern?: string };
}

function roleLimit(value: unknown): OptimizationRoleLimit | undefined {
  if (typeof value === 'number') return value;
  if (!isObject(value)) return undefined;
  const r = value;
  const limit: { min?: number; max?: number; maxWithVideo?: number } = {};
  for (const key of ['min', 'max', 'maxWithVideo'] as const) {
    const n = finite(r[key]);
    if (n !== undefined) limit[key] = n;
  }
  return limit;
}

function readOptimizationSettings(source: Record<string, unknown>, knownRoles: readonly string[]) {
  const style = source.style;
  const styleObject = record(style);
  const settings: OptimizationSettings = {
    modes: someStrings(source.generationModes) ?? someStrings(source.modes),
    styleAllowed:
      bool(styleObject.allowed) ?? bool(style) ?? bool(source.supportsStyle) ?? bool(source.styleAllowed),
    styleMinCodePoints:
      finite(styleObject.minLength) ?? finite(styleObject.minCodePoints) ?? finite(source.styleMinCodePoints),
    styleMaxCodePoints:
      finite(styleObject.maxLength) ?? finite(styleObject.maxCodePoints) ?? finite(source.styleMaxCodePoints),
    roles: {},
    modeRoles: {},
    maxItems: finite(source.maxReferenceInputs) ?? finite(source.maxItems),
    minVisual: finite(source.minVisual),
  };
  const published = isObject(source.roles) ? source.roles : source.referenceRoles;
  for (const [key, value] of Object.entries(record(published))) {
    const isRoleLimit =
      typeof value === 'number' ||
      knownRoles.includes(key) ||
      ['min', 'max', 'maxWithVideo'].some((k) => typeof record(value)[k] === 'number');
    if (isRoleLimit) {
      const limit = roleLimit(value);
      if (limit !== undefined) settings.roles[key] = limit;
    } else if (isObject(value)) {
      const entry: OptimizationSettings['modeRoles'][string] = { roles: {} };
      for (const [role, r] of Object.entries(value)) {
        if (role === 'maxItems' || role === 'minVisual') continue;
        const limit = roleLimit(r);
        if (limit !== undefined) entry.roles[role] = limit;
      }
      const maxItems = finite(value.maxItems);
      const minVisual = finite(value.minVisual);
      if (maxItems !== undefined) entry.maxItems = maxItems;
      if (minVisual !== undefined) entry.minVisual = minVisual;
      settings.modeRoles[key] = entry;
    }
  }
  return settings;
}

/**
 * Reads a service's `promptOptimization` object (any value; absent gives `available: false`).
 * `knownRoles` are the typed role names a bare `roles` entry may use (H3's five).
 */
export function readPromptOptimization(
  promptOptimization: unknown,
  knownRoles: readonly string[],
): PromptOptimization {
  const present = isObject(promptOptimization);
  const po = record(promptOptimization);
  const profiles: Record<string, unknown>[] = [];
  const profileNames: string[] = [];
  if (Array.isArray(po.profiles)) {
    for (const p of po.profiles as unknown[]) {
      if (typeof p === 'string') profileNames.push(p);
      else if (isObject(p)) {
        profiles.push(p);
        const name = p.name ?? p.id ?? p.profile;
        if (typeof name === 'string') profileNames.push(name);
      }
    }
  } else if (isObject(po.profiles)) {
    for (const [name, p] of Object.entries(po.profiles)) {
      profileNames.push(name);
      if (isObject(p)) profiles.push(p);
    }
  }
  const crid = record(po.clientRequestId);
  const original = record(po.originalPrompt);
  const result: PromptOptimization = {
    available: present && po.available !== false && po.enabled !== false,
    profileNames,
    sources: (present ? [po, ...profiles] : []).map((s) => readOptimizationSettings(s, knownRoles)),
    clientTimeoutSeconds: finite(po.clientTimeoutSeconds),
    originalPrompt: {},
    clientRequestId: {},
  };
  const minCodePoints = finite(po.originalPromptMinCodePoints) ?? finite(original.minCodePoints);
  const maxCodePoints = finite(po.originalPromptMaxCodePoints) ?? finite(original.maxCodePoints);
  if (minCodePoints !== undefined) result.originalPrompt.minCodePoints = minCodePoints;
  if (maxCodePoints !== undefined) result.originalPrompt.maxCodePoints = maxCodePoints;
  const minLength = finite(crid.minLength);
  const maxLength = finite(crid.maxLength);
  if (minLength !== undefined) result.clientRequestId.minLength = minLength;
  if (maxLength !== undefined) result.clientRequestId.maxLength = maxLength;
  if (typeof crid.pattern === 'string') result.clientRequestId.pattern = crid.pattern;
  return result;
}
