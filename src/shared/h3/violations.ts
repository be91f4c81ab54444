/**
 * The violation record every H3 check returns: a stable `code` and `params` for translation,
 * a `target` naming the control or item to highlight, and a plain-English `message`.
 */

export type ViolationTarget =
  | 'prompt'
  | 'seconds'
  | 'seed'
  | 'orientation'
  | 'resolutionTier'
  | 'generationMode'
  | 'firstFrame'
  | 'lastFrame'
  | 'references'
  | { referenceId: string }
  | { field: string };

export interface Violation {
  code: ViolationCode;
  target: ViolationTarget;
  params: Record<string, string | number>;
  message: string;
}

/** Every code the engine emits. Stable: the renderer keys translations on them. */
export const VIOLATION_CODES = [
  'model.required',
  'prompt.empty',
  'prompt.too_short',
  'prompt.too_long',
  'seconds.not_integer',
  'seconds.out_of_range',
  'seconds.not_allowed',
  'seed.not_integer',
  'seed.out_of_range',
  'seed.not_allowed',
  'orientation.invalid',
  'orientation.not_for_tier',
  'resolutionTier.invalid',
  'mode.unknown',
  'mode.first_frame_required',
  'mode.last_frame_required',
  'mode.input_unsupported',
  'frame.format',
  'frame.too_large',
  'references.visual_required',
  'references.too_many_items',
  'references.too_many_images',
  'references.too_many_videos',
  'references.too_many_audios',
  'references.audio_total_too_long',
  'references.video_total_too_long',
  'references.image_total_too_long',
  'reference.format',
  'reference.mov_without_audio',
  'reference.too_large',
  'reference.duration_unknown',
  'reference.audio_too_short',
  'reference.audio_too_long',
  'reference.video_too_short',
  'reference.video_too_long',
  'reference.image_too_short',
  'reference.image_too_long',
  'reference.duplicate',
  'field.forbidden',
  'field.reserved',
  'field.unknown',
  'field.required',
  'field.invalid_type',
  'field.not_allowed',
  'field.out_of_range',
  'field.too_long',
  'upload.missing',
  'upload.duplicate_asset',
  'optimization.unavailable',
  'optimization.mode_unsupported',
  'optimization.client_request_id',
  'optimization.style_not_allowed',
  'optimization.style_length',
  'optimization.prompt_length',
  'optimization.too_many_references',
  'optimization.too_few_references',
  'optimization.too_many_items',
  'optimization.visual_required',
] as const;

export type ViolationCode = (typeof VIOLATION_CODES)[number];

export function violation(
  code: ViolationCode,
  target: ViolationTarget,
  params: Record<string, string | number>,
  message: string,
): Violation {
  return { code, target, params, message };
}

/** Same target (string targets by value, object targets by their id/field). */
export function sameTarget(a: ViolationTarget, b: ViolationTarget): boolean {
  if (typeof a === 'string' || typeof b === 'string') return a === b;
  if ('referenceId' in a) return 'referenceId' in b && a.referenceId === b.referenceId;
  return 'field' in b && a.field === b.field;
}

/** Human size for messages: whole MiB as "16 MiB", otherwise the exact byte count. */
export function formatBytes(bytes: number): string {
  const MiB = 1024 * 1024;
  if (bytes >= MiB && bytes % MiB === 0) return `${bytes / MiB} MiB`;
  return `${bytes} bytes`;
}

/** Seconds for messages without float noise: 15.010000001 -> "15.01". */
export function formatSeconds(seconds: number): string {
  return `${Math.round(seconds * 1000) / 1000}`;
}

export function listOf(values: readonly (string | number)[]): string {
  return values.map(String).join(', ');
}

/** Error thrown by the request builders: the draft is not sendable. */
export class DraftInvalidError extends Error {
  readonly code = 'h3.draft_invalid';
  readonly violations: readonly Violation[];
  constructor(violations: readonly Violation[]) {
    super(
      `The draft cannot be sent (${violations.length} problem${violations.length === 1 ? '' : 's'}): ` +
        violations.map((v) => v.message).join(' '),
    );
    this.name = 'DraftInvalidError';
    this.violations = violations;
  }
}
