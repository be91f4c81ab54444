import { SERVICES, type CatalogService } from '../catalog.js';
import { parseWith, sendJson } from '../http.js';
import { PlatformError } from './errors.js';
import type { PlatformContext, PlatformRoute } from './router.js';
import { sessionCaller } from './runtime-auth.js';
import { AvailableServicesQuery, errorDoc, RuntimeServiceList } from './schemas.js';

export const SERVICES_DEFAULT_PAGE_SIZE = 100;

/** A catalogue service as the runtime lists it (the same catalogue as the public simulator). */
function toRuntimeService(service: CatalogService): Record<string, unknown> {
  const item: Record<string, unknown> = {
    model: service.modelAlias,
    displayName: service.serviceDisplayName ?? service.modelAlias,
    serviceKind: service.serviceKind,
    status: service.available ? 'available' : 'unavailable',
  };
  for (const key of ['mediaSpecContract', 'apiUsageContract', 'promptOptimization'] as const)
    if (service[key] !== undefined) item[key] = structuredClone(service[key]);
  return item;
}

/** `GET /available-services`: exact `serviceKind`, paging (100 by default, at most 200), `includeUnavailable` (default true). */
async function listServices(pc: PlatformContext): Promise<void> {
  sessionCaller(pc);
  const query = parseWith(AvailableServicesQuery, Object.fromEntries(pc.query));
  if (pc.query.getAll('page').length > 1 || pc.query.getAll('pageSize').length > 1)
    throw new PlatformError(400, 'invalid_request', 'page and pageSize may be given once.');
  const includeUnavailable = query.includeUnavailable !== 'false';
  const matching = SERVICES.filter(
    (s) => (!query.serviceKind || s.serviceKind === query.serviceKind) && (includeUnavailable || s.available),
  );
  const page = query.page ?? 1;
  const pageSize = query.pageSize ?? SERVICES_DEFAULT_PAGE_SIZE;
  sendJson(pc.res, 200, {
    object: 'list',
    items: matching.slice((page - 1) * pageSize, page * pageSize).map(toRuntimeService),
    page,
    pageSize,
    total: matching.length,
    filters: { ...(query.serviceKind ? { serviceKind: query.serviceKind } : {}), includeUnavailable },
  });
}

export const servicesRoutes: PlatformRoute[] = [
  {
    method: 'GET',
    path: '/runtime/available-services',
    surface: 'runtime_read',
    handler: listServices,
    doc: {
      operationId: 'listAvailableServices',
      summary: 'Services callable by the application (presence does not guarantee later acceptance)',
      tags: ['runtime'],
      headers: [
        { name: 'X-Platform-Runtime-Session-Id', required: true, description: "the person's RuntimeSession" },
      ],
      query: AvailableServicesQuery,
      responses: {
        200: { description: 'Service list', schema: RuntimeServiceList },
        400: errorDoc('Invalid query (pageSize above 200, page below 1)'),
        401: errorDoc('Credential or session missing or invalid'),
        403: errorDoc('A recovery reference cannot list services'),
        429: errorDoc('Rate limited (Retry-After)'),
        503: errorDoc('Unavailable (Retry-After)'),
        504: errorDoc('Gateway timeout'),
      },
    },
  },
];
