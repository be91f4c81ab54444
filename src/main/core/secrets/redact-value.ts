import { REDACTED } from './secret-store.js';

/** Replaces every occurrence of each secret (of 4 characters or more) in one string. */
function redactString(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) out = out.split(secret).join(REDACTED);
  return out;
}

/**
 * A copy of a JSON-like value (strings, arrays, plain objects, and their keys) with every
 * occurrence of each secret replaced by "[redacted]". Done on the values, before anything is
 * serialised: once written as JSON, a key with `"` or `\` no longer appears verbatim and a text
 * search would miss it. Other values (numbers, Errors, Dates…) are returned as they are.
 */
export function redactValue<T>(value: T, secrets: Iterable<string | undefined>): T {
  const list = [...secrets].filter((s): s is string => typeof s === 'string' && s.length >= 4);
  if (list.length === 0) return value;
  const walk = (v: unknown, depth: number): unknown => {
    if (typeof v === 'string') return redactString(v, list);
    if (depth > 64 || v === null || typeof v !== 'object') return v;
    if (Array.isArray(v)) return v.map((item) => walk(item, depth + 1));
    const proto = Object.getPrototypeOf(v) as unknown;
    if (proto !== Object.prototype && proto !== null) return v;
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(v)) out[redactString(key, list)] = walk(item, depth + 1);
    return out;
  };
  return walk(value, 0) as T;
}
