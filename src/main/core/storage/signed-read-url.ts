import { createHmac, timingSafeEqual } from 'node:crypto';
import { SHA256_HEX } from './object-storage.js';

/** Where the platform host mounts {@link serveSignedObject}. */
export const OBJECTS_PREFIX = '/objects/';
/** A subject's key: the first 32 hex characters of sha256("tenant\0account\0user"). */
export const SUBJECT_KEY = /^[0-9a-f]{32}$/;
const SIGNATURE = /^[0-9a-f]{64}$/;
/** Unix seconds, plain decimal digits, no sign, no leading zero. */
const UNIX_SECONDS = /^[1-9][0-9]{0,10}$/;
/** The secret store entry of earlier versions' single signing key (read-url-keys.ts takes it over). */
export const SIGNING_KEY_ENTRY = 'read-url-signing-key';

export interface ReadUrlClaims {
  subjectKey: string;
  sha256: string;
  /** Unix seconds after which the URL is refused. */
  exp: number;
}

export type ReadUrlVerdict =
  ({ ok: true } & ReadUrlClaims) | { ok: false; reason: 'malformed' | 'bad_signature' | 'expired' };

/**
 * What signs and verifies readUrls: the signing key, every key still accepted (the signing key and
 * those it replaced, while URLs they signed may be unexpired) and each subject's revocation epoch
 * (read-url-keys.ts keeps them). A plain key is a keyring of that key alone, every epoch 0.
 */
export interface ReadUrlKeyring {
  readonly signing: Buffer;
  accepted(now: Date): readonly Buffer[];
  epochOf(subjectKey: string): number;
}
export type ReadUrlKey = Buffer | ReadUrlKeyring;

function keyringOf(key: ReadUrlKey): ReadUrlKeyring {
  return Buffer.isBuffer(key) ? { signing: key, accepted: () => [key], epochOf: () => 0 } : key;
}

/**
 * The hex HMAC-SHA256 over `subjectKey\nsha256\nexp`, and `\nepoch` once the subject's readUrls
 * were revoked (epoch 0 signs as before epochs existed, so the URLs already sent stay valid).
 */
function signatureOf(key: Buffer, claims: ReadUrlClaims, epoch: number): string {
  return createHmac('sha256', key)
    .update(`${claims.subjectKey}\n${claims.sha256}\n${claims.exp}${epoch === 0 ? '' : `\n${epoch}`}`)
    .digest('hex');
}

/**
 * `<origin>/objects/<subjectKey>/<sha256>?exp=<unix seconds>&sig=<hex HMAC>`: one object of one
 * subject, readable until `expiresAt`.
 */
export function signReadUrl(
  key: ReadUrlKey,
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
  const keyring = keyringOf(key);
  const signature = signatureOf(keyring.signing, claims, keyring.epochOf(claims.subjectKey));
  const query = new URLSearchParams({ exp: String(exp), sig: signature });
  return `${origin.origin}${OBJECTS_PREFIX}${claims.subjectKey}/${claims.sha256}?${query.toString()}`;
}

/**
 * Checks a request for a signed object, from the raw path (as sent, before any decoding) and
 * raw query. Pure: the key and the time are given. Anything but exactly
 * `/objects/<32 hex>/<64 hex>` with exactly one `exp` and one `sig` is malformed (encoded
 * characters, dot segments, repeated or trailing slashes, extra parameters); the signature is
 * compared in constant time, with each accepted key under the subject's current epoch (a revoked
 * URL is a bad signature), before the expiry is looked at.
 */
export function verifyReadUrl(key: ReadUrlKey, rawPath: string, rawQuery: string, now: Date): ReadUrlVerdict {
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
  const keyring = keyringOf(key);
  const epoch = keyring.epochOf(subjectKey);
  const given = Buffer.from(sig, 'hex');
  let signed = false;
  for (const accepted of keyring.accepted(now))
    signed = timingSafeEqual(Buffer.from(signatureOf(accepted, claims, epoch), 'hex'), given) || signed;
  if (!signed) return { ok: false, reason: 'bad_signature' };
  if (now.getTime() >= claims.exp * 1000) return { ok: false, reason: 'expired' };
  return { ok: true, ...claims };
}
