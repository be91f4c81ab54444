/**
 * The gateway's vocabulary that the spec leaves open, in one place. The spec fixes the shapes
 * (PublicError, PublicService) but not every value: "The full catalogue of error codes: not shown",
 * and the contracts (`mediaSpecContract`, `apiUsageContract`, `promptOptimization`) are free-form.
 * Framewright reads the names below — taken from the local simulator — and says here what it does
 * when a live answer lacks them. Adapting to the real gateway's names is a change in this file.
 */

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
