import { createHash, randomBytes } from 'node:crypto';

/**
 * RFC 7636 (PKCE) for the CLI pairing of application-platform-api.md section E: a fresh verifier
 * of 43..128 unreserved characters, and its S256 challenge BASE64URL(SHA256(ASCII(verifier))).
 * The verifier stays in the memory of the process that paired; only the challenge leaves it.
 */
const UNRESERVED = /^[A-Za-z0-9\-._~]{43,128}$/;

/** A new random verifier: 32 random bytes as base64url (43 characters, 256 bits). */
export function newCodeVerifier(): string {
  return randomBytes(32).toString('base64url');
}

/** The S256 challenge of a verifier (43 base64url characters, no padding). */
export function s256Challenge(verifier: string): string {
  if (!UNRESERVED.test(verifier)) {
    throw new RangeError('A PKCE code verifier is 43 to 128 unreserved characters (RFC 7636 section 4.1).');
  }
  return createHash('sha256').update(verifier, 'ascii').digest('base64url');
}

/** A verifier and its challenge, made together. */
export function newPkcePair(): { verifier: string; challenge: string } {
  const verifier = newCodeVerifier();
  return { verifier, challenge: s256Challenge(verifier) };
}

/** An unguessable `state` binding the redirect to this pairing attempt. */
export function newPairingState(): string {
  return randomBytes(24).toString('base64url');
}
