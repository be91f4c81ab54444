import { normaliseBaseUrl } from '../journal/profiles-repository.js';
import type {
  NewProfile,
  Profile,
  ProfilesRepository,
  StoredSecretBackend,
} from '../journal/profiles-repository.js';
import { SecretStoreError, normaliseSecret } from './secret-store.js';
import type { SecretBackend, SecretStore } from './secret-store.js';

export interface NewProfileWithSecret extends NewProfile {
  /** API key (personal) or debug token (debug). Goes to the secret store only. */
  readonly secret?: string;
}

export interface CredentialChange {
  readonly baseUrl: string;
  /** API key (personal) or debug token (debug). */
  readonly secret: string;
  /** Required for debug profiles: when the token stops being valid (epoch ms). */
  readonly debugTokenExpiresAt?: number;
}

export interface ProfileCredentialsOptions {
  /**
   * Told when a profile's secret was replaced or removed: what was obtained under the old
   * credential (uploaded assets) belongs to the old identity and must be forgotten.
   */
  readonly onSecretChanged?: (profileId: string) => void;
}

const BACKEND_NAMES: Record<StoredSecretBackend, string> = {
  keytar: 'the OS keychain (keytar)',
  'safe-storage': "the desktop app's encrypted store (Electron safeStorage)",
};

/**
 * Profiles and their secrets together: the journal row (with `has_secret` and the store that holds
 * the secret) and the secret store entry (account = profile id) are kept in step. This is the only
 * API that takes a secret; the journal never sees it.
 *
 * A profile's secret is read only from the store recorded for it: a process whose store is another
 * one (the CLI has no safeStorage; a keychain that stopped answering) says so instead of looking
 * elsewhere, so that the app and the CLI never split a profile's keys across two stores.
 */
export class ProfileCredentials {
  constructor(
    private readonly profiles: ProfilesRepository,
    private readonly store: SecretStore,
    private readonly options: ProfileCredentialsOptions = {},
  ) {}

  /**
   * Creates the profile and stores its secret. If the secret cannot be stored (no keychain), the
   * profile is not kept and the store's error (which says why) is thrown.
   */
  async createProfile(input: NewProfileWithSecret): Promise<Profile> {
    const { secret, ...fields } = input;
    const value = secret === undefined ? undefined : normaliseSecret(secret);
    if (value !== undefined) requireExpiryForDebug(fields.kind, fields.debugTokenExpiresAt);
    const profile = this.profiles.create(fields);
    if (value === undefined) return profile;
    try {
      await this.store.set(profile.id, value);
    } catch (error) {
      this.profiles.delete(profile.id);
      throw error;
    }
    return this.profiles.setHasSecret(profile.id, true, undefined, this.writableBackend());
  }

  /** Stores (replaces) the key or token; for debug profiles, with its (required) expiry. */
  async setSecret(
    profileId: string,
    secret: string,
    options: { debugTokenExpiresAt?: number } = {},
  ): Promise<Profile> {
    const profile = this.profiles.require(profileId);
    const value = normaliseSecret(secret);
    if (options.debugTokenExpiresAt !== undefined && profile.kind !== 'debug') {
      throw new RangeError('Only debug profiles have a token expiry.');
    }
    requireExpiryForDebug(profile.kind, options.debugTokenExpiresAt);
    const backend = this.writableBackend();
    await this.store.set(profileId, value);
    const updated = this.profiles.setHasSecret(profileId, true, options.debugTokenExpiresAt, backend);
    this.options.onSecretChanged?.(profileId);
    return updated;
  }

  /**
   * A new login on an existing profile: the new secret is stored first, then the base URL, expiry
   * and store change in one journal statement. If either step fails, the previous secret is put
   * back, so the old key is never left pointing at the new URL (nor the new key at the old one).
   */
  async replaceCredential(profileId: string, change: CredentialChange): Promise<Profile> {
    const profile = this.profiles.require(profileId);
    const value = normaliseSecret(change.secret);
    if (change.debugTokenExpiresAt !== undefined && profile.kind !== 'debug') {
      throw new RangeError('Only debug profiles have a token expiry.');
    }
    requireExpiryForDebug(profile.kind, change.debugTokenExpiresAt);
    normaliseBaseUrl(change.baseUrl); // a refused URL loses nothing: checked before the key moves
    const backend = this.writableBackend();
    const previous = profile.hasSecret ? await this.readPrevious(profileId) : undefined;
    await this.store.set(profileId, value);
    let updated: Profile;
    try {
      updated = this.profiles.replaceCredential(profileId, {
        baseUrl: change.baseUrl,
        debugTokenExpiresAt: change.debugTokenExpiresAt,
        secretBackend: backend,
      });
    } catch (error) {
      await this.restore(profileId, previous);
      throw error;
    }
    this.options.onSecretChanged?.(profileId);
    return updated;
  }

  /** The secret, for the HTTP client of the main process only. */
  async getSecret(profileId: string): Promise<string | undefined> {
    const profile = this.profiles.require(profileId);
    this.assertRecordedStoreReachable(profile);
    const secret = await this.store.get(profileId);
    if (secret !== undefined && profile.secretBackend === undefined) {
      // stored before the journal recorded the store: it is the one that answered
      const backend = this.recordableBackend();
      if (backend) this.profiles.setHasSecret(profileId, true, undefined, backend);
    }
    return secret;
  }

  async deleteSecret(profileId: string): Promise<Profile> {
    const profile = this.profiles.require(profileId);
    this.assertRecordedStoreReachable(profile);
    await this.store.delete(profileId);
    const updated = this.profiles.setHasSecret(profileId, false, null, null);
    this.options.onSecretChanged?.(profileId);
    return updated;
  }

  /** Deletes the profile (refused while it owns jobs) and then its secret. */
  async deleteProfile(profileId: string): Promise<boolean> {
    if (!this.profiles.delete(profileId)) return false;
    await this.store.delete(profileId);
    return true;
  }

  /** Re-reads whether the store holds a secret (it may have been removed outside Framewright). */
  async refresh(profileId: string): Promise<Profile> {
    const profile = this.profiles.require(profileId);
    if (profile.secretBackend !== undefined && profile.secretBackend !== this.store.describe().backend) {
      return profile; // another process's store: this one cannot tell
    }
    const has = await this.store.has(profileId);
    return has === profile.hasSecret ? profile : this.profiles.setHasSecret(profileId, has);
  }

  /**
   * Refuses, with the reason, when the profile's secret is recorded in a store this process does
   * not use: reading (or deleting) elsewhere would split the profile's keys across two stores.
   */
  private assertRecordedStoreReachable(profile: Profile): void {
    const recorded = profile.secretBackend;
    if (!profile.hasSecret || recorded === undefined) return;
    const current = this.store.describe();
    if (current.backend === recorded) return;
    throw new SecretStoreError(
      'unavailable',
      `The key of "${profile.name}" is kept in ${BACKEND_NAMES[recorded]}, which this process cannot reach ` +
        `(it has ${describeCurrent(current.backend, current.detail)}). Framewright does not look for keys ` +
        `elsewhere: ${recorded === 'safe-storage' ? 'use the desktop app, ' : 'start that keychain, '}or log in ` +
        `to this profile again here to store a new key.`,
    );
  }

  /** The store a new secret goes to; refuses (with the store's reason) when it cannot store. */
  private writableBackend(): StoredSecretBackend {
    const backend = this.recordableBackend();
    if (backend) return backend;
    const { detail } = this.store.describe();
    throw new SecretStoreError('unavailable', detail);
  }

  private recordableBackend(): StoredSecretBackend | undefined {
    const { backend, canStore } = this.store.describe();
    return canStore && isStoredBackend(backend) ? backend : undefined;
  }

  private async readPrevious(profileId: string): Promise<string | undefined> {
    try {
      return await this.store.get(profileId);
    } catch {
      return undefined;
    }
  }

  private async restore(profileId: string, previous: string | undefined): Promise<void> {
    try {
      if (previous === undefined) await this.store.delete(profileId);
      else await this.store.set(profileId, previous);
    } catch {
      // the journal is unchanged; the error being thrown says what failed
    }
  }
}

function isStoredBackend(backend: SecretBackend): backend is StoredSecretBackend {
  return backend === 'keytar' || backend === 'safe-storage';
}

function describeCurrent(backend: SecretBackend, detail: string): string {
  return backend === 'unavailable' ? `no keychain: ${detail}` : detail;
}

/** A debug token is short-lived by definition: it is never stored without its expiry. */
function requireExpiryForDebug(kind: Profile['kind'], expiresAt: number | undefined): void {
  if (kind !== 'debug') return;
  if (expiresAt === undefined || !Number.isFinite(expiresAt)) {
    throw new RangeError(
      'A debug token needs its expiry (the time the online debugging runtime gave with it).',
    );
  }
}
