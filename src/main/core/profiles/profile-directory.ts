import { createHash } from 'node:crypto';
import type { ProfileSummary } from '../../../shared/bridge/contract.js';
import { AppError } from '../errors.js';
import type { Journal } from '../journal/open-journal.js';
import { normaliseBaseUrl, type Profile } from '../journal/profiles-repository.js';
import { apiKeyFromEnvironment, API_KEY_ENV_VARIABLE } from '../secrets/env-secret-store.js';
import type { ProfileCredentials } from '../secrets/profile-credentials.js';
import { PublicApiClient, type ServiceIdentity } from '../api-clients/public-api-client.js';
import type { EmbeddedSimulator } from './embedded-simulator.js';

export const SIMULATOR_PROFILE_ID = 'simulator';
const ACTIVE_PROFILE_SETTING = 'activeProfileId';

/**
 * A profile stored before plain http to other machines was refused is not used until its base URL
 * is changed: the key would cross the network in clear.
 */
function checkStoredBaseUrl(name: string, baseUrl: string): void {
  try {
    normaliseBaseUrl(baseUrl);
  } catch (error) {
    throw new AppError(
      'profile.insecure_base_url',
      `The profile "${name}" cannot be used: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}

/** The profile id used for `--base-url` with a key from the environment: one per origin+path. */
export function environmentProfileId(baseUrl: string): string {
  return `env-${createHash('sha256').update(baseUrl).digest('hex').slice(0, 16)}`;
}

/**
 * Every identity Framewright can call with: the embedded simulator (default), personal profiles
 * (base URL + key in the keychain), debug profiles (debug token with an expiry), and, for scripts,
 * a `--base-url` profile whose key comes from `FRAMEWRIGHT_API_KEY` and is never stored.
 * Credentials of different kinds are never mixed: each profile is its own identity.
 */
export class ProfileDirectory {
  constructor(
    private readonly journal: Journal,
    private readonly credentials: ProfileCredentials,
    private readonly simulator: EmbeddedSimulator,
    private readonly env: NodeJS.ProcessEnv = process.env,
    /** Told every secret as it is read, so that logs can redact it. */
    private readonly onSecretRead: (secret: string) => void = () => undefined,
    private readonly now: () => number = Date.now,
  ) {
    if (!journal.profiles.get(SIMULATOR_PROFILE_ID)) {
      journal.profiles.create({ id: SIMULATOR_PROFILE_ID, name: 'Local simulator', kind: 'simulator' });
    }
  }

  list(): Profile[] {
    return this.journal.profiles.list();
  }

  get(id: string): Profile {
    const profile = this.journal.profiles.get(id);
    if (!profile) throw new AppError('profile.not_found', `There is no profile "${id}".`);
    return profile;
  }

  /** By id or (case-insensitive) name. */
  find(idOrName: string): Profile {
    const profile = this.journal.profiles.get(idOrName) ?? this.journal.profiles.getByName(idOrName);
    if (!profile) {
      const names = this.list().map((p) => p.name);
      throw new AppError(
        'profile.not_found',
        `There is no profile "${idOrName}". Profiles: ${names.join(', ')}.`,
      );
    }
    return profile;
  }

  activeId(): string {
    const id = this.journal.settings.get<string>(ACTIVE_PROFILE_SETTING);
    return id && this.journal.profiles.get(id) ? id : SIMULATOR_PROFILE_ID;
  }

  setActive(id: string): Profile {
    const profile = this.get(id);
    this.journal.settings.set(ACTIVE_PROFILE_SETTING, id);
    return profile;
  }

  /** The `--base-url` profile for scripts; its key is read from the environment at each use. */
  ensureEnvironmentProfile(baseUrl: string): Profile {
    const id = environmentProfileId(baseUrl);
    return (
      this.journal.profiles.get(id) ??
      this.journal.profiles.create({
        id,
        name: `env ${new URL(baseUrl).host} ${id.slice(4, 10)}`,
        kind: 'personal',
        baseUrl,
      })
    );
  }

  summary(profile: Profile, simulatorBaseUrl: string | null): ProfileSummary {
    return {
      id: profile.id,
      name: profile.name,
      kind: profile.kind,
      baseUrl: profile.kind === 'simulator' ? simulatorBaseUrl : (profile.baseUrl ?? null),
      hasSecret: profile.kind === 'simulator' ? false : profile.hasSecret,
    };
  }

  /** Who calls for a profile. The secret is read at each request and never kept on the identity. */
  async identityFor(profileId: string): Promise<ServiceIdentity> {
    const profile = this.get(profileId);
    if (profile.kind === 'simulator') {
      const running = await this.simulator.get();
      return { profileId, kind: 'simulator', baseUrl: running.baseUrl, secret: async () => running.token };
    }
    if (!profile.baseUrl)
      throw new AppError('profile.no_base_url', `The profile "${profile.name}" has no base URL.`);
    checkStoredBaseUrl(profile.name, profile.baseUrl);
    if (profile.id.startsWith('env-')) {
      return {
        profileId,
        kind: profile.kind,
        baseUrl: profile.baseUrl,
        secret: async () => {
          const key = apiKeyFromEnvironment(this.env);
          if (!key) {
            throw new AppError(
              'profile.no_key',
              `Set ${API_KEY_ENV_VARIABLE} to the key for ${profile.baseUrl}; it is read from the environment and never stored.`,
            );
          }
          this.onSecretRead(key);
          return key;
        },
      };
    }
    if (profile.kind === 'debug') this.assertDebugTokenValid(profileId);
    return {
      profileId,
      kind: profile.kind,
      baseUrl: profile.baseUrl,
      secret: async () => {
        // read before every request: a debug token past its expiry is never sent
        if (profile.kind === 'debug') this.assertDebugTokenValid(profileId);
        const secret = await this.credentials.getSecret(profileId);
        if (!secret) {
          throw new AppError(
            'profile.no_key',
            `No ${profile.kind === 'debug' ? 'debug token' : 'API key'} is stored for "${profile.name}". Add it in Settings or with \`framewright login\`.`,
          );
        }
        this.onSecretRead(secret);
        return secret;
      },
    };
  }

  /**
   * A debug token is short-lived: its expiry is required and read from the journal at each use (a
   * new token stored meanwhile counts). Past it, the user is asked for a new token.
   */
  private assertDebugTokenValid(profileId: string): void {
    const profile = this.get(profileId);
    const expiresAt = profile.debugTokenExpiresAt;
    if (expiresAt !== undefined && expiresAt > this.now()) return;
    throw new AppError(
      'profile.debug_token_expired',
      expiresAt === undefined
        ? `The debug token of "${profile.name}" has no recorded expiry; pair again with \`framewright login --debug --profile "${profile.name}" …\` (or Settings → Pair for debugging), or store a new token with its expiry (\`framewright login --debug-token-expires …\`). Nothing was sent.`
        : `The debug session of "${profile.name}" expired at ${new Date(expiresAt).toISOString()}; pair again with \`framewright login --debug --profile "${profile.name}" …\` (or Settings → Pair for debugging), or store a new one (\`framewright login --debug-token-expires …\`). Nothing was sent.`,
    );
  }

  async clientFor(profileId: string): Promise<PublicApiClient> {
    return new PublicApiClient(await this.identityFor(profileId));
  }
}
