import type { ServiceEntry } from '../../../shared/api/discovery.js';
import type { Journal } from '../journal/open-journal.js';
import { ApiError, OutcomeUnknownError } from '../platform/api-errors.js';
import type { PublicApiClient } from '../platform/public-api-client.js';

export interface DiscoveredServices {
  services: ServiceEntry[];
  fetchedAt: number;
  /** The service could not be reached; this is the journal's last copy. */
  fromCache: boolean;
}

/**
 * `GET /services` for a profile, cached in the journal so that the studio still shows the last
 * known contracts offline. Identity errors are never hidden behind the cache.
 */
export async function discoverServices(
  journal: Journal,
  client: PublicApiClient,
  options: { serviceKind?: string } = {},
): Promise<DiscoveredServices> {
  const filter = (list: ServiceEntry[]) =>
    options.serviceKind ? list.filter((s) => s.serviceKind === options.serviceKind) : list;
  try {
    const list = await client.listServices();
    const fetchedAt = Date.now();
    journal.discovery.put(client.profileId, 'services', list, fetchedAt);
    return { services: filter(list.data), fetchedAt, fromCache: false };
  } catch (error) {
    const transient =
      error instanceof OutcomeUnknownError ||
      (error instanceof ApiError && ['unavailable', 'gateway_timeout', 'rate_limited'].includes(error.kind));
    const cached = transient ? journal.discovery.get(client.profileId, 'services') : undefined;
    if (!cached) throw error;
    const body = cached.body as { data?: ServiceEntry[] };
    return { services: filter(body.data ?? []), fetchedAt: cached.fetchedAt, fromCache: true };
  }
}
