import type { SecretStore, SecretStoreDescription } from '../../secrets/secret-store.js';

/**
 * Sessions held in this process only: what the platform host uses when no persistent secret store
 * is available (a restart then signs everyone out, and the host says so when it starts).
 */
export class ProcessMemorySecretStore implements SecretStore {
  private readonly entries = new Map<string, string>();
  async get(key: string) {
    return this.entries.get(key);
  }
  async set(key: string, secret: string) {
    this.entries.set(key, secret);
  }
  async delete(key: string) {
    return this.entries.delete(key);
  }
  async has(key: string) {
    return this.entries.has(key);
  }
  describe(): SecretStoreDescription {
    return { backend: 'unavailable', detail: 'this process’s memory only', canStore: true };
  }
}
