import type {
  SecretNames,
  SecretStore,
  SecretStoreDescription,
} from '../../src/main/core/secrets/secret-store.js';

/** An in-process secret store for tests that are not about the keychain itself. */
export class MemorySecretStore implements SecretStore, SecretNames {
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
  async namesWithPrefix(prefix: string) {
    return [...this.secrets.keys()].filter((name) => name.startsWith(prefix));
  }
  describe(): SecretStoreDescription {
    return { backend: 'keytar', detail: 'memory (tests)', canStore: true };
  }
}
