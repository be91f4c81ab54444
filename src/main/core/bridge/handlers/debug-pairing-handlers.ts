import type { debugPairingMethods, DebugSession } from '../../../../shared/bridge/domains/debug-pairing.js';
import type { DebugSessionView } from '../../debug-pairing/debug-pairing-feature.js';
import type { DebugPairingFeature } from '../../debug-pairing/debug-pairing-feature.js';
import type { ProfilesFeature } from '../../profiles/profiles-feature.js';
import type { DomainHandlers } from './handler-context.js';

export function sessionForBridge(view: DebugSessionView | null): DebugSession | null {
  if (!view) return null;
  return {
    profileId: view.profileId,
    profileName: view.profileName,
    appKey: view.appKey,
    appVersionId: view.appVersionId,
    testAccount: view.testAccount,
    billed: true,
    expiresAt: new Date(view.expiresAt).toISOString(),
    expired: view.expired,
  };
}

/** "Pair for debugging": each method maps onto the pairing feature (src/main/core/debug-pairing/). */
export function createDebugPairingHandlers(features: {
  debugPairing: DebugPairingFeature;
  profiles: Pick<ProfilesFeature, 'summary'>;
}): DomainHandlers<typeof debugPairingMethods> {
  const { debugPairing, profiles } = features;
  return {
    'debugPairing.testAccounts': async ({ developerBaseUrl, appId, developerToken }) => ({
      items: (await debugPairing.testAccounts(developerBaseUrl, appId, developerToken)).map((a) => ({
        id: a.id,
        displayName: a.displayName,
        organizationName: a.organizationName,
      })),
    }),
    'debugPairing.start': async (params) => {
      const started = await debugPairing.start({
        profileName: params.name,
        developerBaseUrl: params.developerBaseUrl,
        portalUrl: params.portalUrl,
        appId: params.appId,
        versionId: params.versionId,
        testAccount: params.testAccount,
        developerToken: params.developerToken,
      });
      return { pairingId: started.pairingId, portalUrl: started.portalUrl, testAccount: started.testAccount };
    },
    'debugPairing.wait': async ({ pairingId }) => {
      const profile = await debugPairing.wait(pairingId);
      return {
        profile: await profiles.summary(profile.id),
        session: sessionForBridge(await debugPairing.session(profile.id)),
      };
    },
    'debugPairing.cancel': ({ pairingId }) => {
      debugPairing.cancel(pairingId);
      return { cancelled: true };
    },
    'debugPairing.session': async ({ profileId }) => ({
      session: sessionForBridge(await debugPairing.session(profileId)),
    }),
  };
}
