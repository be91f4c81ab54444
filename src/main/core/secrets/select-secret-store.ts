import {
  DEFAULT_SERVICE_NAME,
  KeytarSecretStore,
  describeKeychainFailure,
  loadKeytar,
  probeKeytar,
} from './keytar-secret-store.js';
import type { KeytarLoadResult } from './keytar-secret-store.js';
import { SafeStorageSecretStore, judgeSafeStorage } from './safe-storage-secret-store.js';
import type { SafeStorageLike } from './safe-storage-secret-store.js';
import type { SecretStore } from './secret-store.js';
import { UnavailableSecretStore } from './unavailable-secret-store.js';

export interface SelectSecretStoreOptions {
  /** Keychain service name (tests use their own). Default "Framewright". */
  readonly serviceName?: string;
  /** Electron's safeStorage, passed by the shell; absent in the CLI and browser host. */
  readonly safeStorage?: SafeStorageLike;
  /** Folder for safeStorage's encrypted files (required for the safeStorage fallback). */
  readonly dataDir?: string;
  readonly platform?: NodeJS.Platform;
  /** How long the keychain probe may take. Default 10 s (a desktop keychain may ask to unlock). */
  readonly probeTimeoutMs?: number;
  /** Injectable for tests; defaults to loading the real optional keytar module. */
  readonly loadKeytar?: () => KeytarLoadResult;
}

export interface SecretStoreSelection {
  readonly store: SecretStore;
  /** Why each better backend was not used (empty when keytar was). Never contains a secret. */
  readonly refused: readonly string[];
}

/**
 * Chooses where secrets live, best first:
 * 1. keytar, when it loads and a harmless read (a never-written account) answers;
 * 2. the injected safeStorage adapter, only when its backend is a real keychain (never
 *    `basic_text`, never an unknown/unreported backend on Linux) and a data dir is given;
 * 3. otherwise {@link UnavailableSecretStore}, which refuses to store and says why.
 */
export async function selectSecretStore(
  options: SelectSecretStoreOptions = {},
): Promise<SecretStoreSelection> {
  const platform = options.platform ?? process.platform;
  const service = options.serviceName ?? DEFAULT_SERVICE_NAME;
  const refused: string[] = [];

  const loaded = (options.loadKeytar ?? loadKeytar)();
  if (loaded.ok) {
    try {
      await probeKeytar(loaded.keytar, service, options.probeTimeoutMs ?? 10_000);
      return { store: new KeytarSecretStore(loaded.keytar, service, platform), refused };
    } catch (error) {
      refused.push(describeKeychainFailure(error, platform));
    }
  } else {
    refused.push(loaded.reason);
  }

  if (options.safeStorage) {
    const verdict = judgeSafeStorage(options.safeStorage, platform);
    if (verdict.usable && options.dataDir) {
      return {
        store: new SafeStorageSecretStore(options.safeStorage, options.dataDir, verdict.backend),
        refused,
      };
    }
    refused.push(verdict.usable ? 'safeStorage needs a data directory' : verdict.reason);
  }

  return { store: new UnavailableSecretStore(refused.join('; ')), refused };
}
