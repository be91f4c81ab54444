/**
 * The canonical JSON of a value: UTF-8 JSON with the keys of every object sorted (by UTF-16 code
 * unit, as JavaScript sorts), no whitespace, `undefined` members left out. Two spellings of the same
 * object give the same text; any changed content gives another. The spec's recommended input of an
 * inter-application request digest (application-platform-api.md, section C).
 */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item ?? null)).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, member]) => member !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, member]) => `${JSON.stringify(key)}:${canonicalJson(member)}`).join(',')}}`;
  }
  if (typeof value === 'number' && !Number.isFinite(value)) {
    throw new RangeError('canonicalJson: a number that JSON cannot spell (NaN or Infinity).');
  }
  if (
    value === undefined ||
    typeof value === 'function' ||
    typeof value === 'symbol' ||
    typeof value === 'bigint'
  ) {
    throw new TypeError(`canonicalJson: a ${typeof value} is not JSON.`);
  }
  return JSON.stringify(value);
}

/** The canonical JSON of a value as the exact UTF-8 bytes to send. */
export function canonicalJsonBytes(value: unknown): Buffer {
  return Buffer.from(canonicalJson(value), 'utf8');
}
