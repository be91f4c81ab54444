import type { ServiceEntry } from '../../../shared/api/discovery.js';
import { isCallable, notCallableReason } from '../../../shared/api/service-availability.js';
import { AppError } from '../errors.js';
import type { Journal } from '../journal/open-journal.js';
import { ApiError, OutcomeUnknownError } from '../api-clients/api-errors.js';
import type { PublicApiClient } from '../api-clients/public-api-client.js';

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

/**
 * The service named `model` among `kinds` (the spec names some kinds; embeddings, rerank and OCR are
 * picked by their own aliases), or the first callable one of those kinds when no model is given.
 * Only `available: true` is callable; a service that says `false` or does not say is refused with
 * its reason.
 */
export function chooseService(
  services: readonly ServiceEntry[],
  kinds: readonly string[],
  model?: string,
): ServiceEntry {
  const callable = services.filter((s) => kinds.includes(s.serviceKind) && isCallable(s));
  if (model) {
    const named = services.filter((s) => s.modelAlias === model);
    const match =
      named.find((s) => kinds.includes(s.serviceKind)) ?? (kinds.length === 0 ? named[0] : undefined);
    if (!match) {
      const offered = callable.map((s) => s.modelAlias);
      throw new AppError(
        'service.not_found',
        `No ${kinds.join(' or ')} service "${model}" is visible to this profile.${offered.length ? ` Available: ${offered.join(', ')}.` : ''}`,
      );
    }
    const reason = notCallableReason(match);
    if (reason) {
      throw new AppError(
        'service.unavailable',
        `The service "${model}" is listed but not callable: ${reason}; choose another.`,
      );
    }
    return match;
  }
  const first = callable[0];
  if (!first)
    throw new AppError(
      'service.not_found',
      `No available ${kinds.join(' or ')} service is visible to this profile.`,
    );
  return first;
}
