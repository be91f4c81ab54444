/**
 * Which discovered services may be called. The spec ("ServiceEntry", "Discovery"): `available` is
 * optional and only `available: true` services are to be chosen — a service that says `false`,
 * and one that does not say, are both listed as not available, each with its reason.
 */
export type ServiceAvailability = 'available' | 'not_available' | 'not_stated';

export function serviceAvailability(service: { available?: unknown }): ServiceAvailability {
  if (service.available === true) return 'available';
  return service.available === false ? 'not_available' : 'not_stated';
}

/** True only for `available: true`. */
export function isCallable(service: { available?: unknown }): boolean {
  return service.available === true;
}

/** Why a listed service is not offered (English, for the CLI and core errors); undefined when callable. */
export function notCallableReason(service: { available?: unknown }): string | undefined {
  switch (serviceAvailability(service)) {
    case 'available':
      return undefined;
    case 'not_available':
      return 'the service says it is not available right now';
    case 'not_stated':
      return 'the service does not say it is available (no "available: true" in discovery)';
  }
}
