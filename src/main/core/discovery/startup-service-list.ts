import type { ServiceEntryList } from '../../../shared/api/discovery.js';
import type { PublicApiClient } from '../api-clients/public-api-client.js';

export type ListingClient = Pick<PublicApiClient, 'listServices'>;

/** How long the start-up check's list may answer the first screen's request (ms). */
export const STARTUP_LIST_MAX_AGE_MS = 5000;

/**
 * The start-up connection check's `GET /services`, handed once to the first full list asked for the
 * same profile while it is in flight or younger than `maxAgeMs`: the first screen's service list
 * then costs no second request (and no second parse) while the studio starts. Only the first list
 * is kept; every later one goes to the service. A failed check hands nothing: the caller asks
 * again, with its own error handling (the journal's offline copy, identity errors).
 */
export class StartupServiceList {
  private kept?: { profileId: string; list: Promise<ServiceEntryList>; answeredAt?: number };
  private recorded = false;

  constructor(
    private readonly maxAgeMs = STARTUP_LIST_MAX_AGE_MS,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * The check's client, from the moment it is asked for (the simulator may still be starting):
   * its first full `listServices()` is kept for the first screen.
   */
  async recording<C extends ListingClient>(profileId: string, client: Promise<C>): Promise<C> {
    if (this.recorded) return client;
    this.recorded = true;
    let answer!: (list: Promise<ServiceEntryList>) => void;
    const kept: NonNullable<StartupServiceList['kept']> = {
      profileId,
      list: new Promise<ServiceEntryList>((resolve) => (answer = resolve)),
    };
    this.kept = kept;
    kept.list.then(
      () => (kept.answeredAt = this.now()),
      () => {
        if (this.kept === kept) this.kept = undefined;
      },
    );
    let opened: C;
    try {
      opened = await client;
    } catch (error) {
      answer(Promise.reject(error));
      throw error;
    }
    let first = true;
    return withListServices(opened, (serviceKind?: string) => {
      if (!first || serviceKind) return opened.listServices(serviceKind);
      first = false;
      const list = opened.listServices();
      answer(list);
      return list;
    });
  }

  /** A client whose first full `listServices()` takes the kept list when it is still fresh. */
  sharing<C extends ListingClient>(profileId: string, client: C): C {
    const listServices = (serviceKind?: string): Promise<ServiceEntryList> => {
      const kept = serviceKind ? undefined : this.take(profileId);
      return kept ? kept.catch(() => client.listServices()) : client.listServices(serviceKind);
    };
    return withListServices(client, listServices);
  }

  private take(profileId: string): Promise<ServiceEntryList> | undefined {
    const kept = this.kept;
    if (!kept || kept.profileId !== profileId) return undefined;
    this.kept = undefined;
    const fresh = kept.answeredAt === undefined || this.now() - kept.answeredAt <= this.maxAgeMs;
    return fresh ? kept.list : undefined;
  }
}

/** `client` with its own `listServices` replaced; every other method (and `this`) stays the client's. */
export function withListServices<C extends ListingClient>(client: C, listServices: C['listServices']): C {
  return new Proxy(client, {
    get: (target, key) => {
      if (key === 'listServices') return listServices;
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}
