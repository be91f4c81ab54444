import { z } from 'zod';

/** Number of Unicode code points (astral characters count once, unlike `String.length`). */
export function codePointLength(value: string): number {
  let count = 0;
  for (const _ of value) count += 1;
  return count;
}

export interface CodePointBounds {
  min?: number;
  max?: number;
  /** Count after trimming leading and trailing white space (the spec's "after trimming"). */
  trim?: boolean;
}

/**
 * A string bounded in Unicode code points. JSON Schema's minLength/maxLength also count code
 * points, so the bounds are published as such in the OpenAPI document.
 */
export function codePointString(bounds: CodePointBounds): z.ZodString {
  const { min, max, trim = false } = bounds;
  const schema = z.string().check((ctx) => {
    const value = trim ? ctx.value.trim() : ctx.value;
    const length = codePointLength(value);
    if (min !== undefined && length < min) {
      ctx.issues.push({
        code: 'too_small',
        origin: 'string',
        minimum: min,
        inclusive: true,
        input: ctx.value,
        message: `must be at least ${min} Unicode code point${min === 1 ? '' : 's'}${trim ? ' after trimming' : ''} (got ${length})`,
      });
    }
    if (max !== undefined && length > max) {
      ctx.issues.push({
        code: 'too_big',
        origin: 'string',
        maximum: max,
        inclusive: true,
        input: ctx.value,
        message: `must be at most ${max} Unicode code points${trim ? ' after trimming' : ''} (got ${length})`,
      });
    }
  });
  const meta: Record<string, unknown> = {};
  if (min !== undefined) meta.minLength = min;
  if (max !== undefined) meta.maxLength = max;
  return Object.keys(meta).length > 0 ? schema.meta(meta) : schema;
}

/** RFC 3339 date-time as the service writes it. */
export const DateTime = z.iso.datetime({ offset: true });

/** A free-form JSON object. */
export const FreeFormObject = z.record(z.string(), z.unknown());

/** `{object: "list", data: [...]}`, both required. */
export function listOf<T extends z.ZodType>(item: T) {
  return z.object({ object: z.literal('list'), data: z.array(item) }).loose();
}
