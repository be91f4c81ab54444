import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { SecretStore } from '../secrets/secret-store.js';
import { SHA256_HEX } from './object-storage.js';

/** Where the platform host mounts {@link serveSignedObject}. */
export const OBJECTS_PREFIX = '/objects/';
/** A subject's key: the first 32 hex characters of sha256("tenant\0account\0user"). */
export const SUBJECT_KEY = /^[0-9a-f]{32}$/;
const SIGNATURE = /^[0-9a-f]{64}$/;
/** Unix seconds, plain decimal digits, no sign, no leading zero. */
const UNIX_SECONDS = /^[1-9][0-9]{0,10}$/;
/** The secret store entry holding the signing key. */
export const SIGNING_KEY_ENTRY = 'read-url-signing-key';

export interface ReadUrlClaims {
  subjectKey: string;
  sha256: string;
  /** Unix seconds after which the URL is refused. */
  exp: number;
}

export type ReadUrlVerdict =
  ({ ok: true } & ReadUrlClaims) | { ok: false; reason: 'malformed' | 'bad_signature' | 'expired' };

/** The hex HMAC-SHA256 over `subjectKey\nsha256\nexp`. */
function signatureOf(key: Buffer, claims: ReadUrlClaims): string {
  return createHmac('sha256', key)
    .update(`${claims.subjectKey}\n${claims.sha256}\n${claims.exp}`)
    .digest('hex');
}

/**
 * `<origin>/objects/<subjectKey>/<sha256>?exp=<unix seconds>&sig=<hex HMAC>`: one object of one
 * subject, readable until `expiresAt`.
 */
export function signReadUrl(
  key: Buffer,
  params: { publicOrigin: string; subjectKey: string; sha256: string; expiresAt: Date },
): string {
  const origin = new URL(params.publicOrigin);
  if (
    (origin.protocol !== 'https:' && origin.protocol !== 'http:') ||
    origin.origin !== params.publicOrigin.replace(/\/$/, '')
  )
    throw new TypeError('publicOrigin must be an http(s) origin without a path.');
  if (!SUBJECT_KEY.test(params.subjectKey)) throw new TypeError('subjectKey must be 32 lowercase hex.');
  if (!SHA256_HEX.test(params.sha256)) throw new TypeError('sha256 must be 64 lowercase hex.');
  const exp = Math.floor(params.expiresAt.getTime() / 1000);
  if (!UNIX_SECONDS.test(String(exp))) throw new TypeError('expiresAt is not a valid time.');
  const claims = { subjectKey: params.subjectKey, sha256: params.sha256, exp };
  const query = new URLSearchParams({ exp: String(exp), sig: signatureOf(key, claims) });
  return `${origin.origin}${OBJECTS_PREFIX}${claims.subjectKey}/${claims.sha256}?${query.toString()}`;
}

/**
 * Checks a request for a signed object, from the raw path (as sent, before any decoding) and
 * raw query. Pure: the key and the time are given. Anything but exactly
 * `/objects/<32 hex>/<64 hex>` with exactly one `exp` and one `sig` is malformed (encoded
 * characters, dot segments, repeated or trailing slashes, extra parameters); the signature is
 * compared in constant time before the expiry is looked at.
 */
export function verifyReadUrl(key: Buffer, rawPath: string, rawQuery: string, now: Date): ReadUrlVerdict {
  const malformed = { ok: false, reason: 'malformed' } as const;
  if (!rawPath.startsWith(OBJECTS_PREFIX)) return malformed;
  const parts = rawPath.slice(OBJECTS_PREFIX.length).split('/');
  if (parts.length !== 2) return malformed;
  const [subjectKey, sha256] = parts as [string, string];
  if (!SUBJECT_KEY.test(subjectKey) || !SHA256_HEX.test(sha256)) return malformed;
  const query = new URLSearchParams(rawQuery.startsWith('?') ? rawQuery.slice(1) : rawQuery);
  const names = [...query.keys()].sort();
  if (names.length !== 2 || names[0] !== 'exp' || names[1] !== 'sig') return malformed;
  const expText = query.get('exp')!;
  const sig = query.get('sig')!;
  if (!UNIX_SECONDS.test(expText) || !SIGNATURE.test(sig)) return malformed;
  const claims = { subjectKey, sha256, exp: Number(expText) };
  const expected = Buffer.from(signatureOf(key, claims), 'hex');
  if (!timingSafeEqual(expected, Buffer.from(sig, 'hex'))) return { ok: false, reason: 'bad_signature' };
  if (now.getTime() >= claims.exp * 1000) return { ok: false, reason: 'expired' };
  return { ok: true, ...claims };
}

/**
 * The backend's signing key: 32 random bytes kept in the secret store (created on first use).
 * Not derived from the application credential, because the platform knows that credential:
 * a key derived from it could be computed outside this backend.
 */
export async function loadSigningKey(store: SecretStore): Promise<Buffer> {
  const stored = await store.get(SIGNING_KEY_ENTRY);
  if (stored) {
    const key = Buffer.from(stored, 'base64url');
    if (key.length === 32) return key;
  }
  const key = randomBytes(32);
  await store.set(SIGNING_KEY_ENTRY, key.toString('base64url'));
  return key;
}
