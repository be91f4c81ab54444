/**
 * Where API keys and debug tokens live. The journal only records whether a profile has one.
 *
 * keytar is archived upstream, so everything goes through this small interface; the backend is
 * chosen by {@link selectSecretStore} (see select-secret-store.ts).
 */

export type SecretBackend =
  'keytar' | 'safe-storage' | 'environment' | 'encrypted-file' | 'encrypted-rows' | 'unavailable';

export interface SecretStoreDescription {
  readonly backend: SecretBackend;
  /** Human-readable: which keychain, or why there is none. Never contains a secret. */
  readonly detail: string;
  /** Whether `set` can store a secret. */
  readonly canStore: boolean;
}

export interface SecretStore {
  /** The secret of the profile, or undefined when none is stored. */
  get(profileId: string): Promise<string | undefined>;
  /** Stores (or replaces) the secret. Throws {@link SecretStoreError} when it cannot. */
  set(profileId: string, secret: string): Promise<void>;
  /** Removes the secret; false when there was none. */
  delete(profileId: string): Promise<boolean>;
  has(profileId: string): Promise<boolean>;
  describe(): SecretStoreDescription;
}

/**
 * A store that can name what it holds (the platform backend's stores: the session sweep lists the
 * stored sessions). Only names are listed, never values.
 */
export interface SecretNames {
  /** The names of every stored entry that starts with `prefix`, in no particular order. */
  namesWithPrefix(prefix: string): Promise<string[]>;
}

export type SecretStoreErrorCode = 'unavailable' | 'read-only' | 'invalid-secret' | 'backend-failed';

/** A secret store failure. Its message and cause never contain the secret. */
export class SecretStoreError extends Error {
  constructor(
    readonly code: SecretStoreErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'SecretStoreError';
  }
}

export const REDACTED = '[redacted]';

/** Replaces every occurrence of each secret in `text`. */
export function redact(text: string, secrets: readonly (string | undefined)[]): string {
  let out = text;
  for (const secret of secrets) {
    if (secret && secret.length >= 4) out = out.split(secret).join(REDACTED);
  }
  return out;
}

/**
 * Wraps a backend failure so that neither the message nor the cause can carry the secret: the
 * original error is replaced by a plain Error with a redacted message (no stack of arguments).
 */
export function backendFailure(
  what: string,
  error: unknown,
  secrets: readonly (string | undefined)[],
): SecretStoreError {
  const original = error instanceof Error ? error.message : String(error);
  const reason = redact(original, secrets);
  return new SecretStoreError('backend-failed', `${what}: ${reason}`, { cause: new Error(reason) });
}

/**
 * Checks and normalises a key or token as typed or piped in: surrounding whitespace (a trailing
 * newline from stdin) is dropped; what remains must be 1..4096 visible ASCII characters, which is
 * what a bearer credential can be sent as. The error never echoes the value.
 */
export function normaliseSecret(secret: string): string {
  const value = typeof secret === 'string' ? secret.trim() : '';
  if (value.length === 0) throw new SecretStoreError('invalid-secret', 'The key is empty.');
  if (value.length > 4096)
    throw new SecretStoreError('invalid-secret', 'The key is longer than 4096 characters.');
  if (!/^[\x21-\x7e]+$/.test(value)) {
    throw new SecretStoreError(
      'invalid-secret',
      'The key contains spaces, control or non-ASCII characters; paste it again exactly as issued.',
    );
  }
  return value;
}

export function checkProfileId(profileId: string): string {
  if (typeof profileId !== 'string' || profileId.length === 0 || profileId.length > 200) {
    throw new RangeError('A profile id must be 1..200 characters.');
  }
  return profileId;
}
