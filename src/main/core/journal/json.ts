/** JSON helpers of the journal. */

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/**
 * Deterministic JSON: object keys sorted (by UTF-16 code units), no whitespace, `undefined`
 * properties dropped. The canonical body of an intent is stored in this form and replayed as is, so
 * "the same body" is the same bytes.
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map((item) => (item === undefined ? null : sortKeys(item)));
  if (value !== null && typeof value === 'object' && !(value instanceof Date)) {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) {
      const v = (value as Record<string, unknown>)[key];
      if (v !== undefined) out[key] = sortKeys(v);
    }
    return out;
  }
  if (typeof value === 'number' && !Number.isFinite(value)) {
    throw new TypeError(`Cannot store the non-finite number ${value} as JSON.`);
  }
  if (typeof value === 'bigint') throw new TypeError('Cannot store a bigint as JSON.');
  return value;
}

export function toJson(value: unknown): string {
  const text = JSON.stringify(value);
  if (text === undefined) throw new TypeError('Cannot store undefined as JSON.');
  return text;
}

export function fromJson<T = JsonValue>(text: string): T {
  return JSON.parse(text) as T;
}

export function fromJsonOrUndefined<T = JsonValue>(text: string | null): T | undefined {
  return text === null ? undefined : (JSON.parse(text) as T);
}

/** SQLite booleans. */
export const toFlag = (value: boolean): 0 | 1 => (value ? 1 : 0);
export const fromFlag = (value: number | null): boolean | undefined =>
  value === null ? undefined : value === 1;

/** NULL → undefined, so optional fields of the typed rows are simply absent. */
export function opt<T>(value: T | null): T | undefined {
  return value === null ? undefined : value;
}
