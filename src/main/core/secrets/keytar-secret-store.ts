import { createRequire } from 'node:module';
import { backendFailure, checkProfileId, normaliseSecret } from './secret-store.js';
import type { SecretStore, SecretStoreDescription } from './secret-store.js';

/** The part of keytar's API used here. */
export interface KeytarLike {
  getPassword(service: string, account: string): Promise<string | null>;
  setPassword(service: string, account: string, password: string): Promise<void>;
  deletePassword(service: string, account: string): Promise<boolean>;
}

export type KeytarLoadResult = { ok: true; keytar: KeytarLike } | { ok: false; reason: string };

/** Keychain entries are "Framewright" / <profile id>. */
export const DEFAULT_SERVICE_NAME = 'Framewright';

/** Account read by the availability probe; never written. */
export const PROBE_ACCOUNT = '__framewright_keychain_probe__';

/**
 * Loads the optional keytar module lazily (it is a native module that may be missing or built for
 * another runtime); never throws.
 */
export function loadKeytar(): KeytarLoadResult {
  try {
    const require = createRequire(import.meta.url);
    const mod = require('keytar') as KeytarLike & { default?: KeytarLike };
    const keytar = typeof mod.getPassword === 'function' ? mod : mod.default;
    if (!keytar || typeof keytar.getPassword !== 'function') {
      return { ok: false, reason: 'the keytar module has an unexpected shape' };
    }
    return { ok: true, keytar };
  } catch (error) {
    const message = error instanceof Error ? error.message.split('\n')[0] : String(error);
    return { ok: false, reason: `keytar could not be loaded: ${message}` };
  }
}

function platformKeychain(platform: NodeJS.Platform): string {
  if (platform === 'darwin') return 'macOS Keychain';
  if (platform === 'win32') return 'Windows Credential Manager';
  return 'Secret Service';
}

/** Turns a keytar/libsecret failure into a short cause for the user. */
export function describeKeychainFailure(
  error: unknown,
  platform: NodeJS.Platform = process.platform,
): string {
  const message = error instanceof Error ? error.message : String(error);
  if (platform === 'linux') return `Secret Service not running: ${message}`;
  return `${platformKeychain(platform)} unreachable: ${message}`;
}

/**
 * Reads a never-written account: resolves when the keychain answers, rejects with the cause when
 * it is unreachable (no D-Bus session, no Secret Service, locked and refusing, timeout).
 */
export async function probeKeytar(keytar: KeytarLike, service: string, timeoutMs: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    await Promise.race([keytar.getPassword(service, PROBE_ACCOUNT), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Secrets in the OS keychain through keytar: service {@link DEFAULT_SERVICE_NAME}, account = profile id. */
export class KeytarSecretStore implements SecretStore {
  constructor(
    private readonly keytar: KeytarLike,
    readonly service: string = DEFAULT_SERVICE_NAME,
    private readonly platform: NodeJS.Platform = process.platform,
  ) {}

  async get(profileId: string): Promise<string | undefined> {
    checkProfileId(profileId);
    try {
      return (await this.keytar.getPassword(this.service, profileId)) ?? undefined;
    } catch (error) {
      throw backendFailure(
        `Could not read the key of profile "${profileId}" from the ${this.keychain()}`,
        error,
        [],
      );
    }
  }

  async set(profileId: string, secret: string): Promise<void> {
    checkProfileId(profileId);
    const value = normaliseSecret(secret);
    try {
      await this.keytar.setPassword(this.service, profileId, value);
    } catch (error) {
      throw backendFailure(
        `Could not save the key of profile "${profileId}" in the ${this.keychain()}`,
        error,
        [secret, value],
      );
    }
  }

  async delete(profileId: string): Promise<boolean> {
    checkProfileId(profileId);
    try {
      return await this.keytar.deletePassword(this.service, profileId);
    } catch (error) {
      throw backendFailure(
        `Could not delete the key of profile "${profileId}" from the ${this.keychain()}`,
        error,
        [],
      );
    }
  }

  async has(profileId: string): Promise<boolean> {
    return (await this.get(profileId)) !== undefined;
  }

  describe(): SecretStoreDescription {
    return { backend: 'keytar', detail: `OS keychain (${this.keychain()}) via keytar`, canStore: true };
  }

  private keychain(): string {
    return platformKeychain(this.platform);
  }
}
