import { ServiceCatalog } from '../discovery/service-catalog.js';
import { JobViews } from '../library/job-views.js';
import { LibraryFeature } from '../library/library-feature.js';
import { MediaJobsFeature } from '../media-jobs/media-jobs-feature.js';
import { PlaygroundFeature } from '../operations/playground-feature.js';
import { ProfilesFeature } from '../profiles/profiles-feature.js';
import { DebugPairingFeature } from '../debug-pairing/debug-pairing-feature.js';
import { apiKeyFromEnvironment } from '../secrets/env-secret-store.js';
import type { ProfileDirectory } from '../profiles/profile-directory.js';
import type { CoreParts } from './core-parts.js';

/** Every use case of the core, each built with only what it needs. Hosts and the CLI map onto these. */
export interface CoreFeatures {
  readonly profiles: ProfilesFeature;
  /** `login --debug` and "Pair for debugging": the PKCE pairing and the paired debug sessions. */
  readonly debugPairing: DebugPairingFeature;
  readonly catalog: ServiceCatalog;
  readonly jobs: JobViews;
  readonly library: LibraryFeature;
  readonly media: MediaJobsFeature;
  readonly playground: PlaygroundFeature;
}

/**
 * The composition root's second half: from the opened parts (journal, key store, simulator,
 * engine: `openCoreParts`) to the features. Only this file and `core-parts.ts` see the
 * parts together; below them every feature receives the narrow dependencies it names.
 */
export function composeFeatures(
  parts: CoreParts,
  options: {
    /** The catalog's clients (the app's share the start-up check's service list); the profiles' by default. */
    catalogClientFor?: ProfileDirectory['clientFor'];
  } = {},
): CoreFeatures {
  const { journal } = parts;
  const debugPairing = new DebugPairingFeature({
    secrets: parts.secrets,
    credentials: parts.credentials,
    byName: (name) => journal.profiles.getByName(name),
    get: (id) => journal.profiles.get(id),
    tokenFor: async (id) => (await parts.profiles.identityFor(id)).secret(),
  });
  return {
    debugPairing,
    profiles: new ProfilesFeature({
      directory: parts.profiles,
      credentials: {
        createProfile: (input) => parts.credentials.createProfile(input),
        replaceCredential: (id, change) => parts.credentials.replaceCredential(id, change),
        // a paired debug profile's binding goes with it
        deleteProfile: async (id) => {
          const removed = await parts.credentials.deleteProfile(id);
          if (removed) await debugPairing.forget(id);
          return removed;
        },
      },
      secrets: parts.secrets,
      byName: (name) => journal.profiles.getByName(name),
      ownsJobs: (profileId) => journal.jobs.listJobs({ profileId, limit: 1 }).items.length > 0,
      simulatorBaseUrl: async () => (await parts.simulator.peek())?.baseUrl ?? null,
      environmentProfile: (baseUrl) => parts.profiles.ensureEnvironmentProfile(baseUrl),
      hasEnvironmentKey: () => Boolean(apiKeyFromEnvironment()),
    }),
    catalog: new ServiceCatalog({
      journal,
      profiles: options.catalogClientFor ? { clientFor: options.catalogClientFor } : parts.profiles,
    }),
    jobs: JobViews.over(journal),
    library: new LibraryFeature({
      journal,
      folders: parts.libraryFolders,
      findProfile: (idOrName) => parts.profiles.find(idOrName),
    }),
    media: new MediaJobsFeature({ journal, profiles: parts.profiles, engine: parts.engine }),
    playground: new PlaygroundFeature({ journal }),
  };
}
