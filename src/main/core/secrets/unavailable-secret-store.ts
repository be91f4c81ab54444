import { SecretStoreError } from './secret-store.js';
import type { SecretStore, SecretStoreDescription } from './secret-store.js';

/** Builds the user-facing refusal: why there is no keychain, and that nothing is stored unprotected. */
export function unavailableMessage(cause: string): string {
  return (
    `No OS keychain is reachable (${cause}). Framewright will not store your key unprotected. ` +
    `Start a keychain service (on Linux: GNOME Keyring or KWallet through the Secret Service), or pass the key ` +
    `for a single command in the FRAMEWRIGHT_API_KEY environment variable.`
  );
}

/**
 * Used when keytar is missing and no safe fallback exists: nothing can be stored, nothing is read.
 */
export class UnavailableSecretStore implements SecretStore {
  readonly reason: string;

  /** @param cause short technical cause, e.g. "Secret Service not running: …" */
  constructor(cause: string) {
    this.reason = unavailableMessage(cause);
  }

  async get(): Promise<string | undefined> {
    return undefined;
  }

  async set(): Promise<void> {
    throw new SecretStoreError('unavailable', this.reason);
  }

  async delete(): Promise<boolean> {
    return false;
  }

  async has(): Promise<boolean> {
    return false;
  }

  describe(): SecretStoreDescription {
    return { backend: 'unavailable', detail: this.reason, canStore: false };
  }
}
