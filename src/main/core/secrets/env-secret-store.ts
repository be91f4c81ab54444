import { SecretStoreError, checkProfileId, normaliseSecret } from './secret-store.js';
import type { SecretStore, SecretStoreDescription } from './secret-store.js';

export const API_KEY_ENV_VARIABLE = 'FRAMEWRIGHT_API_KEY';

/** The key from the environment, normalised; undefined when unset or empty. */
export function apiKeyFromEnvironment(
  env: NodeJS.ProcessEnv = process.env,
  variable = API_KEY_ENV_VARIABLE,
): string | undefined {
  const raw = env[variable];
  if (raw === undefined || raw.trim() === '') return undefined;
  try {
    return normaliseSecret(raw);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new SecretStoreError('invalid-secret', `${variable} is not a usable key: ${reason}`);
  }
}

/**
 * For scripts: the CLI's `--base-url` profile takes its key from `FRAMEWRIGHT_API_KEY`. The key is
 * read for that one profile only and never stored anywhere.
 */
export class EnvironmentSecretStore implements SecretStore {
  private readonly key: string | undefined;

  constructor(
    private readonly profileId: string,
    env: NodeJS.ProcessEnv = process.env,
    private readonly variable = API_KEY_ENV_VARIABLE,
  ) {
    checkProfileId(profileId);
    this.key = apiKeyFromEnvironment(env, variable);
  }

  async get(profileId: string): Promise<string | undefined> {
    return profileId === this.profileId ? this.key : undefined;
  }

  async set(): Promise<void> {
    throw new SecretStoreError(
      'read-only',
      `A key from ${this.variable} is used for this command only and is never stored; use \`framewright login\` to save one.`,
    );
  }

  async delete(): Promise<boolean> {
    return false;
  }

  async has(profileId: string): Promise<boolean> {
    return (await this.get(profileId)) !== undefined;
  }

  describe(): SecretStoreDescription {
    return {
      backend: 'environment',
      detail: this.key
        ? `the ${this.variable} environment variable (not stored)`
        : `${this.variable} is not set`,
      canStore: false,
    };
  }
}
