import type { KeytarLike } from '../../../src/main/core/secrets/keytar-secret-store.js';
import type { SafeStorageLike } from '../../../src/main/core/secrets/safe-storage-secret-store.js';
import { normaliseSecret } from '../../../src/main/core/secrets/secret-store.js';
import type { SecretStore, SecretStoreDescription } from '../../../src/main/core/secrets/secret-store.js';

/** An in-memory keytar: the "OS keychain" of unit tests. */
export function fakeKeytar(options: { failWith?: string; hang?: boolean } = {}) {
  const entries = new Map<string, string>();
  const reads: string[] = [];
  const keytar: KeytarLike = {
    async getPassword(service, account) {
      reads.push(`${service}/${account}`);
      if (options.hang) return new Promise<never>(() => {});
      if (options.failWith) throw new Error(options.failWith);
      return entries.get(`${service}/${account}`) ?? null;
    },
    async setPassword(service, account, password) {
      if (options.failWith) throw new Error(options.failWith);
      entries.set(`${service}/${account}`, password);
    },
    async deletePassword(service, account) {
      return entries.delete(`${service}/${account}`);
    },
  };
  return { keytar, entries, reads };
}

/** A safeStorage stand-in: "encrypts" by XOR so that ciphertext differs from the plaintext. */
export function fakeSafeStorage(backend: string | undefined, available = true): SafeStorageLike {
  const xor = (b: Buffer) => Buffer.from(b.map((x) => x ^ 0x5a));
  const adapter: SafeStorageLike = {
    isEncryptionAvailable: () => available,
    encryptString: (s) => Buffer.concat([Buffer.from('v10'), xor(Buffer.from(s, 'utf8'))]),
    decryptString: (b) => {
      if (b.subarray(0, 3).toString() !== 'v10') throw new Error('Error while decrypting the ciphertext');
      return xor(b.subarray(3)).toString('utf8');
    },
  };
  if (backend !== undefined) adapter.getSelectedStorageBackend = () => backend;
  return adapter;
}

/** A memory secret store for tests of the layers above the store. */
export class MemorySecretStore implements SecretStore {
  readonly entries = new Map<string, string>();
  async get(id: string) {
    return this.entries.get(id);
  }
  async set(id: string, secret: string) {
    this.entries.set(id, normaliseSecret(secret));
  }
  async delete(id: string) {
    return this.entries.delete(id);
  }
  async has(id: string) {
    return this.entries.has(id);
  }
  describe(): SecretStoreDescription {
    return { backend: 'keytar', detail: 'memory (test)', canStore: true };
  }
}
