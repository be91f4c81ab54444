import type { Journal } from '../journal/open-journal.js';
import type { PublicApiClient } from '../api-clients/public-api-client.js';
import type { ProfileDirectory } from '../profiles/profile-directory.js';
import { resolveService, type ResolvedService } from './resolve-service.js';
import { discoverServices, type DiscoveredServices } from './service-list.js';

export interface ServiceCatalogDeps {
  /** The discovery cache lives in the journal (the last known list, shown offline). */
  readonly journal: Journal;
  readonly profiles: Pick<ProfileDirectory, 'clientFor'>;
}

/** What a profile can call: `GET /services` (cached for offline use) and the choice of one service. */
export class ServiceCatalog {
  constructor(private readonly deps: ServiceCatalogDeps) {}

  clientFor(profileId: string): Promise<PublicApiClient> {
    return this.deps.profiles.clientFor(profileId);
  }

  /** The profile's services (of one kind when asked), from the service or, offline, the journal's copy. */
  async discover(profileId: string, options: { serviceKind?: string } = {}): Promise<DiscoveredServices> {
    return discoverServices(this.deps.journal, await this.clientFor(profileId), options);
  }

  /** The profile's client and the service `model` (or the first available one) of the given kinds. */
  resolve(profileId: string, kinds: readonly string[], model?: string): Promise<ResolvedService> {
    return resolveService(this.deps, profileId, kinds, model);
  }
}
