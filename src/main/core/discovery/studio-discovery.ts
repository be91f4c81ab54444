import type { ServiceEntry } from '../../../shared/api/discovery.js';
import { isCallable, serviceAvailability } from '../../../shared/api/service-availability.js';
import type { ServiceEntryView } from '../../../shared/bridge/domains/studio.js';
import type { ServiceCatalog } from './service-catalog.js';
import type { Journal } from '../journal/open-journal.js';
import type { PublicApiClient } from '../api-clients/public-api-client.js';
import { chooseService, discoverServices } from './service-list.js';

/** A profile's API client (the profile directory's `clientFor`). */
export type ClientFor = (profileId: string) => Promise<PublicApiClient>;

export interface StudioDiscoveryDeps {
  /** The discovery cache lives in the journal (offline answers). */
  journal: Journal;
  /** A profile's services, as every other caller lists them (client, cache, offline copy). */
  catalog: Pick<ServiceCatalog, 'discover'>;
  activeProfileId: () => string;
}

/** The services a profile's gateway lists (journal-cached for offline), as the studio shows them. */
export class StudioDiscovery {
  constructor(private readonly d: StudioDiscoveryDeps) {}

  async services(profileId: string | undefined, serviceKind?: string) {
    const id = profileId ?? this.d.activeProfileId();
    const found = await this.d.catalog.discover(id, { serviceKind });
    return {
      profileId: id,
      services: found.services.map(toServiceEntryView),
      fetchedAt: found.fetchedAt,
      fromCache: found.fromCache,
    };
  }

  /** The video service a draft names (its live contract decides the rules). */
  async videoService(client: PublicApiClient, model: string): Promise<ServiceEntry> {
    const { services } = await discoverServices(this.d.journal, client, {
      serviceKind: 'video_generation',
    });
    return chooseService(services, ['video_generation'], model);
  }
}

export function toServiceEntryView(s: ServiceEntry): ServiceEntryView {
  const obj = (v: unknown) => (v && typeof v === 'object' ? (v as Record<string, unknown>) : null);
  return {
    modelAlias: s.modelAlias,
    serviceKind: s.serviceKind,
    available: isCallable(s),
    availability: serviceAvailability(s),
    displayName: s.serviceDisplayName ?? s.modelAlias,
    mediaSpecContract: obj(s.mediaSpecContract),
    apiUsageContract: obj(s.apiUsageContract),
    promptOptimization: obj(s.promptOptimization),
  };
}
