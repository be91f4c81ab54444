/**
 * The gateway's vocabulary that the spec leaves open, in one place. The spec fixes the shapes
 * (PublicError, PublicService) but not every value: "The full catalogue of error codes: not shown",
 * and the contracts (`mediaSpecContract`, `apiUsageContract`, `promptOptimization`) are free-form.
 * Framewright reads the names below — taken from the local simulator — and says here what it does
 * when a live answer lacks them. Adapting to the real gateway's names is a change in this file.
 */
import { RoleUploadLimit } from './media-spec-contract.js';

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
const record = (value: unknown): Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};

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

/**
 * `mediaSpecContract.uploadLimits` (role → rule); fallback: no published rule, so the spec's
 * general limits apply. The H3 video keys of `mediaSpecContract` (`modes`, `parameters`,
 * `requiredFields`, canvases, reference limits) and of `promptOptimization` (`profiles`,
 * `clientTimeoutSeconds`, …) are read, each with the spec's H3 value as its fallback, by
 * `resolveEffectiveLimits` in `src/shared/h3/effective-limits.ts`.
 */
export function readUploadLimits(mediaSpecContract: unknown): Record<string, RoleUploadLimit> {
  const limits = record(record(mediaSpecContract).uploadLimits);
  const out: Record<string, RoleUploadLimit> = {};
  for (const [role, value] of Object.entries(limits)) {
    // a malformed rule is no rule: the general limit of the role applies
    const rule = RoleUploadLimit.safeParse(value);
    if (rule.success) out[role] = rule.data;
  }
  return out;
}
