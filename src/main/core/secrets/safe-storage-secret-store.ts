import { createHash, randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { SecretStoreError, backendFailure, checkProfileId, normaliseSecret } from './secret-store.js';
import type { SecretStore, SecretStoreDescription } from './secret-store.js';

/**
 * The part of Electron's `safeStorage` used here. The Electron shell passes `safeStorage` itself
 * (after `app.whenReady()`); the core never imports electron.
 */
export interface SafeStorageLike {
  isEncryptionAvailable(): boolean;
  /** Linux only in Electron: 'basic_text' | 'gnome_libsecret' | 'kwallet' | 'kwallet5' | 'kwallet6' | 'unknown'. */
  getSelectedStorageBackend?(): string;
  encryptString(plainText: string): Buffer;
  decryptString(encrypted: Buffer): string;
}

/** Linux backends whose encryption key is held by a real keychain. */
export const LINUX_KEYCHAIN_BACKENDS: readonly string[] = [
  'gnome_libsecret',
  'kwallet',
  'kwallet5',
  'kwallet6',
];

export type SafeStorageVerdict = { usable: true; backend: string } | { usable: false; reason: string };

/**
 * Whether `safeStorage` protects data with a real keychain. Never for `basic_text` (a hard-coded
 * key: obfuscation, not protection), nor for an unknown or unreported backend on Linux.
 */
export function judgeSafeStorage(
  adapter: SafeStorageLike,
  platform: NodeJS.Platform = process.platform,
): SafeStorageVerdict {
  let available: boolean;
  try {
    available = adapter.isEncryptionAvailable();
  } catch (error) {
    return {
      usable: false,
      reason: `safeStorage failed: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
  if (!available) return { usable: false, reason: 'safeStorage encryption is not available' };
  let backend: string | undefined;
  try {
    backend = adapter.getSelectedStorageBackend?.();
  } catch {
    backend = undefined;
  }
  if (backend === 'basic_text') {
    return {
      usable: false,
      reason: 'safeStorage only has the basic_text backend (no keychain protects its key)',
    };
  }
  if (platform === 'linux') {
    if (backend === undefined || !LINUX_KEYCHAIN_BACKENDS.includes(backend)) {
      return {
        usable: false,
        reason: `safeStorage backend "${backend ?? 'not reported'}" is not a known keychain`,
      };
    }
    return { usable: true, backend };
  }
  if (platform === 'darwin') return { usable: true, backend: backend ?? 'macOS Keychain' };
  if (platform === 'win32') return { usable: true, backend: backend ?? 'Windows DPAPI' };
  return { usable: false, reason: `safeStorage on ${platform} is not known to use a keychain` };
}

/**
 * Secrets encrypted by `safeStorage` (whose key the OS keychain holds), one ciphertext file per
 * profile in `<dataDir>/secrets/` (folder 0700, files 0600, written atomically). Only constructed
 * by {@link selectSecretStore} after {@link judgeSafeStorage} accepted the adapter.
 */
export class SafeStorageSecretStore implements SecretStore {
  readonly directory: string;

  constructor(
    private readonly adapter: SafeStorageLike,
    dataDir: string,
    private readonly backend: string,
  ) {
    this.directory = path.join(dataDir, 'secrets');
  }

  /** The file holding a profile's ciphertext (named by a hash, so any id is a safe file name). */
  fileFor(profileId: string): string {
    const name = createHash('sha256').update(checkProfileId(profileId), 'utf8').digest('hex');
    return path.join(this.directory, `${name}.bin`);
  }

  async get(profileId: string): Promise<string | undefined> {
    let blob: Buffer;
    try {
      blob = await readFile(this.fileFor(profileId));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw backendFailure(`Could not read the stored key of profile "${profileId}"`, error, []);
    }
    try {
      return this.adapter.decryptString(blob);
    } catch (error) {
      throw new SecretStoreError(
        'backend-failed',
        `The stored key of profile "${profileId}" could not be decrypted (the keychain entry that protects it ` +
          `may have changed). Log in to this profile again.`,
        { cause: new Error(error instanceof Error ? error.message : String(error)) },
      );
    }
  }

  async set(profileId: string, secret: string): Promise<void> {
    const value = normaliseSecret(secret);
    const file = this.fileFor(profileId);
    let blob: Buffer;
    try {
      blob = this.adapter.encryptString(value);
    } catch (error) {
      throw backendFailure(`Could not encrypt the key of profile "${profileId}"`, error, [secret, value]);
    }
    const temp = `${file}.${randomBytes(6).toString('hex')}.tmp`;
    try {
      await mkdir(this.directory, { recursive: true, mode: 0o700 });
      await chmod(this.directory, 0o700);
      await writeFile(temp, blob, { mode: 0o600, flag: 'wx' });
      await rename(temp, file);
    } catch (error) {
      await rm(temp, { force: true });
      throw backendFailure(`Could not save the encrypted key of profile "${profileId}"`, error, [
        secret,
        value,
      ]);
    }
  }

  async delete(profileId: string): Promise<boolean> {
    try {
      await rm(this.fileFor(profileId));
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
      throw backendFailure(`Could not delete the stored key of profile "${profileId}"`, error, []);
    }
  }

  async has(profileId: string): Promise<boolean> {
    try {
      await readFile(this.fileFor(profileId));
      return true;
    } catch {
      return false;
    }
  }

  describe(): SecretStoreDescription {
    return {
      backend: 'safe-storage',
      detail: `Electron safeStorage (${this.backend}), encrypted files in ${this.directory}`,
      canStore: true,
    };
  }
}
