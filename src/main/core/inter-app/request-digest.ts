import { createHash } from 'node:crypto';
import { canonicalJsonBytes } from './canonical-json.js';

/** `sha256:` and 64 lowercase hex digits: the form of every request digest. */
export const REQUEST_DIGEST_PATTERN = /^sha256:[0-9a-f]{64}$/;

/**
 * The request digest of a body: `sha256:` + the lowercase hex SHA-256 of EXACTLY the bytes sent.
 * Compute it over the very Buffer handed to the transport, never over a re-serialisation.
 */
export function requestDigest(bytes: Buffer | Uint8Array): string {
  return `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
}

/**
 * The request digest of a body as a callee receives it (spec, section C: "Recommended digest
 * input: UTF-8 JSON with sorted keys and no whitespace for objects, raw bytes for byte bodies"):
 * a body that parses as JSON is digested in that canonical form, so the same request spelled with
 * other whitespace or key order has the same digest wherever it is checked (Storyboard Helper
 * checks it the same way); any other body as its raw bytes. A caller that sends canonical JSON
 * (as Framewright's own clients do) gets the same digest from `requestDigest(bytes)`.
 */
export function receivedBodyDigest(raw: Buffer): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw.toString('utf8'));
  } catch {
    return requestDigest(raw);
  }
  return requestDigest(canonicalJsonBytes(parsed));
}

/**
 * The request digest of a body-less read: the digest of the canonical JSON of `{method, path}`,
 * where `path` is the path relative to the callee's business address as sent (percent-encoding
 * kept) plus its query string if any — so a read grant is bound to one path.
 */
export function readRequestDigest(path: string, method: 'GET' = 'GET'): string {
  return requestDigest(canonicalJsonBytes({ method, path }));
}
