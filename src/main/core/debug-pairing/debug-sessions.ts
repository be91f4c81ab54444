import { z } from 'zod';
import type { SecretStore } from '../secrets/secret-store.js';

/** The secret-store name of a debug profile's binding (beside its token, stored under the profile id). */
export const debugSessionName = (profileId: string): string => `debug-session:${profileId}`;

const BindingSchema = z.object({
  appId: z.string(),
  appKey: z.string(),
  appVersionId: z.string(),
  /** Section D's `{sessionId}` of the pairing: a secret like the token (spec "Authentication"). */
  runtimeSessionId: z.string(),
  testAccount: z.object({ id: z.string(), displayName: z.string(), organizationName: z.string() }).nullable(),
  runtimeBaseUrl: z.string(),
  relayBaseUrl: z.string().nullable(),
  uploadBaseUrl: z.string().nullable(),
  developerBaseUrl: z.string(),
  scopes: z.array(z.string()),
  expiresAt: z.number(),
  pairedAt: z.number(),
});

/** What a paired debug profile is bound to, kept in the OS keychain with its token. */
export type DebugBinding = z.infer<typeof BindingSchema>;

/**
 * The bindings of paired debug profiles, in the secret store (the same keychain entry family as
 * the token): the application, version and test account the CLI session acts for, its addresses
 * (debug runtime, relay, upload, developer) and its expiry. Encoded as base64url JSON because a
 * secret-store value is one printable word.
 */
export class DebugSessions {
  constructor(private readonly store: Pick<SecretStore, 'get' | 'set' | 'delete'>) {}

  async save(profileId: string, binding: DebugBinding): Promise<void> {
    const value = Buffer.from(JSON.stringify(BindingSchema.parse(binding)), 'utf8').toString('base64url');
    await this.store.set(debugSessionName(profileId), value);
  }

  /** The binding of a paired profile; undefined for a pasted debug token or an unreadable entry. */
  async read(profileId: string): Promise<DebugBinding | undefined> {
    const value = await this.store.get(debugSessionName(profileId)).catch(() => undefined);
    if (!value) return undefined;
    try {
      const parsed = BindingSchema.safeParse(JSON.parse(Buffer.from(value, 'base64url').toString('utf8')));
      return parsed.success ? parsed.data : undefined;
    } catch {
      return undefined;
    }
  }

  forget(profileId: string): Promise<boolean> {
    return this.store.delete(debugSessionName(profileId));
  }
}
