import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { EncryptedFileSecretStore } from './encrypted-file-secret-store.js';
import type { RowEncryptedSecretStore } from './row-encrypted-secret-store.js';
import { SecretStoreError } from './secret-store.js';

/** A credential the earlier file may have been written under, with the setting that holds it. */
export interface LegacyCredential {
  readonly setting: string;
  readonly credential: string | undefined;
}

/** The entries of the earlier secret file, and which setting's credential opened it. */
export interface LegacySecrets {
  readonly file: string;
  readonly entries: Readonly<Record<string, string>>;
  readonly openedWith: string;
}

/**
 * Reads the platform backend's earlier secret file (one AES-GCM envelope keyed by HKDF of the
 * application credential), trying each credential in turn: undefined when there is no such file.
 * When none opens it, start stops with a message naming the setting to use (never a secret), and
 * the file is left as it is.
 */
export async function readLegacySecretFile(
  file: string,
  credentials: readonly LegacyCredential[],
  previousSetting: string,
): Promise<LegacySecrets | undefined> {
  if (!existsSync(file)) return undefined;
  const tried: string[] = [];
  for (const { setting, credential } of credentials) {
    if (!credential) continue;
    tried.push(setting);
    try {
      return {
        file,
        entries: await new EncryptedFileSecretStore(file, credential).entries(),
        openedWith: setting,
      };
    } catch (error) {
      if (!(error instanceof SecretStoreError) || !/does not decrypt/.test(error.message)) throw error;
    }
  }
  throw new SecretStoreError(
    'unavailable',
    `The earlier secret file ${file} does not decrypt with ${tried.join(' nor with ')}. If the application ` +
      `credential was rotated, set ${previousSetting} to the credential this file was written under and ` +
      'start again: its sessions, recovery references and readUrl signing key are then moved into the ' +
      'secret store. The file was left as it is.',
  );
}

/**
 * Moves the earlier file's entries into the store (those it does not hold yet), then removes the
 * file: it opens with the platform's credential, which the new store must not depend on. Returns
 * how many entries were imported.
 */
export async function importLegacySecrets(
  legacy: LegacySecrets,
  store: Pick<RowEncryptedSecretStore, 'importMissing'>,
): Promise<number> {
  const imported = store.importMissing(legacy.entries);
  await rm(legacy.file, { force: true });
  return imported;
}
