import type { NewProfile, Profile, ProfilesRepository } from '../journal/profiles-repository.js';
import { normaliseSecret } from './secret-store.js';
import type { SecretStore } from './secret-store.js';

export interface NewProfileWithSecret extends NewProfile {
  /** API key (personal) or debug token (debug). Goes to the secret store only. */
  readonly secret?: string;
}

/**
 * Profiles and their secrets together: the journal row (with `has_secret`) and the secret store
 * entry (account = profile id) are kept in step. This is the only API that takes a secret; the
 * journal never sees it.
 */
export class ProfileCredentials {
  constructor(
    private readonly profiles: ProfilesRepository,
    private readonly store: SecretStore,
  ) {}

  /**
   * Creates the profile and stores its secret. If the secret cannot be stored (no keychain), the
   * profile is not kept and the store's error (which says why) is thrown.
   */
  async createProfile(input: NewProfileWithSecret): Promise<Profile> {
    const { secret, ...fields } = input;
    const value = secret === undefined ? undefined : normaliseSecret(secret);
    const profile = this.profiles.create(fields);
    if (value === undefined) return profile;
    try {
      await this.store.set(profile.id, value);
    } catch (error) {
      this.profiles.delete(profile.id);
      throw error;
    }
    return this.profiles.setHasSecret(profile.id, true);
  }

  /** Stores (replaces) the key or token; for debug profiles, with its expiry. */
  async setSecret(
    profileId: string,
    secret: string,
    options: { debugTokenExpiresAt?: number } = {},
  ): Promise<Profile> {
    const profile = this.profiles.require(profileId);
    if (options.debugTokenExpiresAt !== undefined && profile.kind !== 'debug') {
      throw new RangeError('Only debug profiles have a token expiry.');
    }
    await this.store.set(profileId, normaliseSecret(secret));
    return this.profiles.setHasSecret(profileId, true, options.debugTokenExpiresAt);
  }

  /** The secret, for the HTTP client of the main process only. */
  async getSecret(profileId: string): Promise<string | undefined> {
    this.profiles.require(profileId);
    return this.store.get(profileId);
  }

  async deleteSecret(profileId: string): Promise<Profile> {
    this.profiles.require(profileId);
    await this.store.delete(profileId);
    return this.profiles.setHasSecret(profileId, false, null);
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
    const has = await this.store.has(profileId);
    return has === profile.hasSecret ? profile : this.profiles.setHasSecret(profileId, has);
  }
}
