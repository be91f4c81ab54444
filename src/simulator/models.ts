import { findService, type CatalogService } from './catalog.js';
import { ApiError, modelNotFound } from './errors.js';

/**
 * Resolves `model` to a callable service of one of the given kinds: 404 when unknown, 409 when
 * not available, 400 when the service is of another kind.
 */
export function resolveModel(alias: string, kinds: readonly string[]): CatalogService {
  const service = findService(alias);
  if (!service) throw modelNotFound(alias);
  if (!kinds.includes(service.serviceKind)) {
    throw new ApiError(
      400,
      'model_not_supported',
      `Model "${alias}" (${service.serviceKind}) does not serve this operation.`,
      {
        details: { field: 'model', serviceKind: service.serviceKind, expected: [...kinds] },
      },
    );
  }
  if (!service.available) {
    throw new ApiError(
      409,
      'service_not_available',
      `Model "${alias}" is not available right now; choose a service with available: true.`,
      {
        retryable: false,
        details: { field: 'model' },
      },
    );
  }
  return service;
}

/** Resolves the `model` query of an asset or job route (400 when missing, 404 when unknown). */
export function resolveScopeModel(query: URLSearchParams): CatalogService {
  const alias = query.get('model');
  if (!alias) {
    throw new ApiError(400, 'invalid_request', 'Query parameter "model" is required.', {
      details: { field: 'model' },
    });
  }
  const service = findService(alias);
  if (!service) throw modelNotFound(alias);
  return service;
}
