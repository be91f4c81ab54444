import type { ServiceEntry } from '../../../shared/api/discovery.js';
import type { Journal } from '../journal/open-journal.js';
import type { PublicApiClient } from '../api-clients/public-api-client.js';
import type { ProfileDirectory } from '../profiles/profile-directory.js';
import { chooseService, discoverServices } from './service-list.js';

export interface ResolvedService {
  client: PublicApiClient;
  service: ServiceEntry;
  /** Every service of the same kinds visible to the profile. */
  choices: ServiceEntry[];
}

/** The profile's client and the service `model` (or the first available one) of the given kinds, from discovery. */
export async function resolveService(
  core: { readonly journal: Journal; readonly profiles: Pick<ProfileDirectory, 'clientFor'> },
  profileId: string,
  kinds: readonly string[],
  model?: string,
): Promise<ResolvedService> {
  const client = await core.profiles.clientFor(profileId);
  const { services } = await discoverServices(core.journal, client);
  return {
    client,
    service: chooseService(services, kinds, model),
    choices: services.filter((s) => kinds.includes(s.serviceKind)),
  };
}
