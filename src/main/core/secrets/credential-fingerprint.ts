import { createHmac } from 'node:crypto';

/** Fixed HMAC key: fingerprints are comparable within Framewright and say nothing elsewhere. */
const FINGERPRINT_KEY = 'framewright/credential-fingerprint/v1';

/**
 * A one-way fingerprint of a key or token (HMAC-SHA-256, 64 hex characters): what the journal
 * keeps to tell which credential an asset was uploaded under. The secret cannot be read back from
 * it, and it is never sent anywhere.
 */
export function credentialFingerprint(secret: string): string {
  return createHmac('sha256', FINGERPRINT_KEY).update(secret, 'utf8').digest('hex');
}
