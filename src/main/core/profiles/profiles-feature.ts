import type { ProfileKind, ProfileSummary } from '../../../shared/bridge/contract.js';
import { AppError } from '../errors.js';
import { normaliseBaseUrl, type Profile } from '../journal/profiles-repository.js';
import type { PublicApiClient } from '../api-clients/public-api-client.js';
import { SIMULATOR_PROFILE_ID, type ProfileDirectory } from './profile-directory.js';
import { API_KEY_ENV_VARIABLE } from '../secrets/env-secret-store.js';
import type { ProfileCredentials } from '../secrets/profile-credentials.js';
import { SecretStoreError, type SecretStore } from '../secrets/secret-store.js';

/** What the profiles feature needs from the core: nothing else reaches it. */
export interface ProfilesFeatureDeps {
  readonly directory: Pick<
    ProfileDirectory,
    'list' | 'get' | 'find' | 'activeId' | 'setActive' | 'summary' | 'clientFor'
  >;
  readonly credentials: Pick<ProfileCredentials, 'createProfile' | 'replaceCredential' | 'deleteProfile'>;
  readonly secrets: Pick<SecretStore, 'describe'>;
  /** The profile of that name, without regard to case. */
  byName(name: string): Profile | undefined;
  /** Whether any job in the journal belongs to the profile. */
  ownsJobs(profileId: string): boolean;
  /** The embedded simulator's base URL when it runs (never starts it). */
  simulatorBaseUrl(): Promise<string | null>;
  /** The profile for `--base-url` whose key is read from the environment at each use. */
  environmentProfile(baseUrl: string): Profile;
  /** Whether the environment carries a key for `--base-url` (it is never stored). */
  hasEnvironmentKey(): boolean;
}

export interface NewProfileInput {
  kind: Exclude<ProfileKind, 'simulator'>;
  name: string;
  baseUrl: string;
  secret: string;
  debugTokenExpiresAt?: number;
}

export interface LoginInput {
  name: string;
  baseUrl: string;
  /** A debug token's expiry (a debug profile); none for a personal key. */
  debugTokenExpiresAt?: number;
  /** Read only once the name, URL and key store are known to be good: no one types a key that cannot be kept. */
  readSecret(): Promise<string>;
}

export interface ProfileListing extends ProfileSummary {
  /** Which key store holds the key (recorded when it was stored). */
  secretBackend: string | null;
  active: boolean;
}

/** A base URL as every profile keeps it; a refused one names what to fix (never a secret). */
export function checkedBaseUrl(baseUrl: string): string {
  try {
    return normaliseBaseUrl(baseUrl);
  } catch (error) {
    if (error instanceof RangeError) throw new AppError('profile.invalid', error.message);
    throw error;
  }
}

/**
 * The profiles use cases, shared by the bridge and the CLI: list, add (or log in again), remove,
 * switch, test. The secret goes straight to the key store and no answer carries it.
 */
export class ProfilesFeature {
  constructor(private readonly deps: ProfilesFeatureDeps) {}

  activeId(): string {
    return this.deps.directory.activeId();
  }

  /** A profile by id or (case-insensitive) name; a clear error lists the profiles there are. */
  find(idOrName: string): Profile {
    return this.deps.directory.find(idOrName);
  }

  /**
   * The identity a script acts as: `baseUrl` with the key from the environment (never stored),
   * the profile `profile` names, or the active profile (the local simulator when nothing else is set).
   */
  choose(choice: { profile?: string; baseUrl?: string }): string {
    if (choice.baseUrl) {
      if (choice.profile) throw new AppError('usage', 'Use either --profile or --base-url, not both.');
      if (!this.deps.hasEnvironmentKey()) {
        throw new AppError(
          'profile.no_key',
          `--base-url needs the key in ${API_KEY_ENV_VARIABLE}; it is never stored.`,
        );
      }
      return this.deps.environmentProfile(choice.baseUrl).id;
    }
    if (choice.profile) return this.deps.directory.find(choice.profile).id;
    return this.deps.directory.activeId();
  }

  clientFor(profileId: string): Promise<PublicApiClient> {
    return this.deps.directory.clientFor(profileId);
  }

  /** Where keys are kept, and whether a new one can be stored there. */
  keyStore(): ReturnType<SecretStore['describe']> {
    return this.deps.secrets.describe();
  }

  async summary(profileId: string): Promise<ProfileSummary> {
    return this.deps.directory.summary(
      this.deps.directory.get(profileId),
      await this.deps.simulatorBaseUrl(),
    );
  }

  async list(): Promise<{ activeProfileId: string; profiles: ProfileSummary[] }> {
    const simulatorBaseUrl = await this.deps.simulatorBaseUrl();
    return {
      activeProfileId: this.deps.directory.activeId(),
      profiles: this.deps.directory.list().map((p) => this.deps.directory.summary(p, simulatorBaseUrl)),
    };
  }

  /** Every profile with its key store and whether it is active (the simulator is not started for it). */
  listing(): ProfileListing[] {
    const active = this.deps.directory.activeId();
    return this.deps.directory.list().map((p) => ({
      ...this.deps.directory.summary(p, null),
      secretBackend: p.secretBackend ?? null,
      active: p.id === active,
    }));
  }

  async add(input: NewProfileInput): Promise<ProfileSummary> {
    const baseUrl = checkedBaseUrl(input.baseUrl);
    let profile: Profile;
    try {
      profile = await this.deps.credentials.createProfile({
        kind: input.kind,
        name: input.name,
        baseUrl,
        secret: input.secret,
        ...(input.kind === 'debug' && input.debugTokenExpiresAt !== undefined
          ? { debugTokenExpiresAt: input.debugTokenExpiresAt }
          : {}),
      });
    } catch (error) {
      // the journal's checks (name taken, expiry missing) name the field, never the secret
      if (error instanceof RangeError) throw new AppError('profile.invalid', error.message);
      throw error;
    }
    return this.summary(profile.id);
  }

  /**
   * Stores a key (or debug token) for the profile of that name: a new profile, or the same one
   * with its key and base URL replaced together. The URL and the key store are checked before the
   * key is read; a profile of the other kind is never given it.
   */
  async login(input: LoginInput): Promise<Profile> {
    const baseUrl = checkedBaseUrl(input.baseUrl);
    const kind = input.debugTokenExpiresAt === undefined ? 'personal' : 'debug';
    const keyStore = this.deps.secrets.describe();
    if (!keyStore.canStore) throw new SecretStoreError('unavailable', keyStore.detail);
    const secret = await input.readSecret();
    const existing = this.deps.byName(input.name);
    if (!existing) {
      return this.deps.credentials.createProfile({
        name: input.name,
        kind,
        baseUrl,
        debugTokenExpiresAt: input.debugTokenExpiresAt,
        secret,
      });
    }
    if (existing.kind !== kind) {
      throw new AppError(
        'usage',
        `The profile "${existing.name}" is a ${existing.kind} profile; credentials of different kinds are never mixed.`,
      );
    }
    // the key is stored first; the base URL changes with it, or not at all
    return this.deps.credentials.replaceCredential(existing.id, {
      baseUrl,
      secret,
      ...(input.debugTokenExpiresAt !== undefined ? { debugTokenExpiresAt: input.debugTokenExpiresAt } : {}),
    });
  }

  /** Removes a profile and its key; the simulator is built in, and a profile owning jobs stays. */
  async remove(profileId: string): Promise<{ removed: boolean }> {
    if (profileId === SIMULATOR_PROFILE_ID)
      throw new AppError('profile.builtin', 'The local simulator is built in and cannot be removed.');
    if (this.deps.ownsJobs(profileId))
      throw new AppError('profile.has_jobs', 'This profile owns jobs in the library; it cannot be removed.');
    if (this.deps.directory.activeId() === profileId) this.deps.directory.setActive(SIMULATOR_PROFILE_ID);
    return { removed: await this.deps.credentials.deleteProfile(profileId) };
  }

  async setActive(profileId: string): Promise<ProfileSummary> {
    this.deps.directory.setActive(profileId);
    return this.summary(profileId);
  }

  /** Asks the profile's service for its list, as the connection check does. */
  async test(profileId: string): Promise<{ ok: boolean; serviceCount: number; message: string | null }> {
    try {
      const client = await this.deps.directory.clientFor(profileId);
      const list = await client.listServices();
      return { ok: true, serviceCount: list.data.length, message: null };
    } catch (error) {
      return { ok: false, serviceCount: 0, message: error instanceof Error ? error.message : String(error) };
    }
  }
}
