import { z } from 'zod';
import { ProfileSummary } from './app.js';

/**
 * "Pair for debugging" (application-platform-api.md section E's PKCE pairing, section B's online
 * debugging runtime): the studio's Settings start a pairing, show the developer portal page to
 * open, wait for the approval, and then list the new debug profile. Offered only where the
 * backend allows profiles (`capabilities.profiles`). The verifier and the code never cross the
 * bridge; the developer token, typed only to read the test-account list, is never kept.
 */

const Url = z.url().max(2000);
const Id = z.string().trim().min(1).max(200);

export const DebugTestAccount = z.object({
  id: z.string(),
  displayName: z.string(),
  organizationName: z.string(),
});
export type DebugTestAccount = z.infer<typeof DebugTestAccount>;

/** A paired debug profile as the studio shows it: who is billed and until when. */
export const DebugSession = z.object({
  profileId: z.string(),
  profileName: z.string(),
  appKey: z.string(),
  appVersionId: z.string(),
  /** null: the developer's own identity. */
  testAccount: DebugTestAccount.nullable(),
  /** Calls through the debugging runtime really charge that account. */
  billed: z.literal(true),
  /** ISO date-time: the session's end; nothing is sent after it. */
  expiresAt: z.string(),
  expired: z.boolean(),
});
export type DebugSession = z.infer<typeof DebugSession>;

export const debugPairingMethods = {
  'debugPairing.testAccounts': {
    params: z
      .object({ developerBaseUrl: Url, appId: Id, developerToken: z.string().min(1).max(10_000) })
      .strict(),
    result: z.object({ items: z.array(DebugTestAccount) }),
  },
  'debugPairing.start': {
    params: z
      .object({
        name: z.string().trim().min(1).max(100),
        developerBaseUrl: Url,
        portalUrl: Url.optional(),
        appId: Id,
        versionId: Id,
        /** A record id (or name) of the application's test-account list; absent: the developer. */
        testAccount: z.string().trim().min(1).max(200).optional(),
        developerToken: z.string().min(1).max(10_000).optional(),
      })
      .strict(),
    result: z.object({
      pairingId: z.string(),
      portalUrl: z.string(),
      testAccount: DebugTestAccount.nullable(),
    }),
  },
  'debugPairing.wait': {
    params: z.object({ pairingId: Id }).strict(),
    result: z.object({ profile: ProfileSummary, session: DebugSession.nullable() }),
  },
  'debugPairing.cancel': {
    params: z.object({ pairingId: Id }).strict(),
    result: z.object({ cancelled: z.literal(true) }),
  },
  'debugPairing.session': {
    params: z.object({ profileId: Id }).strict(),
    result: z.object({ session: DebugSession.nullable() }),
  },
} as const;

export const debugPairingEvents = {} as const;
