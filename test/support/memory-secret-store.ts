import type { SecretStore, SecretStoreDescription } from '../../src/main/core/secrets/secret-store.js';

/** An in-process secret store for tests that are not about the keychain itself. */
export class MemorySecretStore implements SecretStore {
  private readonly secrets = new Map<string, string>();
  async get(profileId: string) {
    return this.secrets.get(profileId);
  }
  async set(profileId: string, secret: string) {
    this.secrets.set(profileId, secret);
  }
  async delete(profileId: string) {
    return this.secrets.delete(profileId);
  }
  async has(profileId: string) {
    return this.secrets.has(profileId);
  }
  describe(): SecretStoreDescription {
    return { backend: 'keytar', detail: 'memory (tests)', canStore: true };
  }
}
