import { iso } from '../clock.js';
import { parseWith, readJsonObject, sendJson } from '../http.js';
import type { StoredJob } from '../jobs/job-store.js';
import { PlatformError } from './errors.js';
import type { PlatformContext, PlatformRoute } from './router.js';
import { sessionCaller } from './runtime-auth.js';
import { CREDIT_AMOUNT_SCALE, estimateCost } from './runtime-pricing.js';
import type { RuntimeJobRecord } from './runtime-job-store.js';
import { errorDoc, ResourceUsageRequest, ResourceUsageResponse } from './schemas.js';

type GroupKey = 'accountId' | 'serviceKind' | 'day';

interface UsageItem {
  resourceId: string;
  accountId?: string;
  serviceKind?: string;
  day?: string;
  ledgerSettledCredits: number;
  reservedCredits: number;
  releasedCredits: number;
  failedCredits: number;
  pendingCredits: number;
  requestCount: number;
}

/** A job's price in scaled credits (what its dry-run estimated). */
export function jobCredits(job: StoredJob): number {
  return estimateCost(job.serviceKind, job.effectiveMediaSpec).estimatedAmount;
}

function emptyItem(resourceId: string): UsageItem {
  return {
    resourceId,
    ledgerSettledCredits: 0,
    reservedCredits: 0,
    releasedCredits: 0,
    failedCredits: 0,
    pendingCredits: 0,
    requestCount: 0,
  };
}

/**
 * Adds one job: a succeeded job is settled in the ledger; a queued or running one is reserved
 * and pending; a failed one is failed and its reservation released.
 */
function add(item: UsageItem, job: StoredJob): void {
  const credits = jobCredits(job);
  item.requestCount += 1;
  if (job.status === 'succeeded') item.ledgerSettledCredits += credits;
  else if (job.status === 'failed' || job.status === 'canceled') {
    item.failedCredits += credits;
    item.releasedCredits += credits;
  } else {
    item.reservedCredits += credits;
    item.pendingCredits += credits;
  }
}

/**
 * `POST /resource-usage:aggregate`: an organization session only; the organization and the
 * application come from the caller; sums over the jobs the simulator ran with that
 * `resourceAttribution`.
 */
async function aggregate(pc: PlatformContext): Promise<void> {
  const session = sessionCaller(pc);
  const organizationId = session.subject.organizationId;
  if (!organizationId)
    throw new PlatformError(
      403,
      'organization_session_required',
      'Resource usage needs an organization session.',
      {
        phase: 'authorization',
      },
    );
  const body = parseWith(ResourceUsageRequest, await readJsonObject(pc.req));
  const groupBy = [...new Set(body.groupBy ?? [])] as GroupKey[];
  const wanted = new Set(body.resourceIds);
  const items = new Map<string, UsageItem>();
  if (groupBy.length === 0) for (const id of wanted) items.set(id, emptyItem(id));
  const matches = (r: RuntimeJobRecord) =>
    r.appKey === pc.app.appKey &&
    r.organizationId === organizationId &&
    r.resourceAttribution?.resourceType === body.resourceType &&
    wanted.has(r.resourceAttribution.resourceId);
  for (const record of pc.state.platform.runtimeJobs.all().filter(matches)) {
    const job = pc.state.jobs.get(record.platformJobId);
    if (!job) continue;
    const keys = {
      accountId: record.accountId,
      serviceKind: job.serviceKind,
      day: iso(job.createdAtMs).slice(0, 10),
    };
    const resourceId = record.resourceAttribution!.resourceId;
    const slot = [resourceId, ...groupBy.map((k) => keys[k])].join('\u0000');
    let item = items.get(slot);
    if (!item) {
      item = emptyItem(resourceId);
      for (const k of groupBy) item[k] = keys[k];
      items.set(slot, item);
    }
    add(item, job);
  }
  sendJson(pc.res, 200, {
    items: [...items.values()],
    amountScale: CREDIT_AMOUNT_SCALE,
    asOf: pc.state.clock.now().toISOString(),
    freshness: 'realtime',
  });
}

export const usageRoutes: PlatformRoute[] = [
  {
    method: 'POST',
    path: '/runtime/resource-usage:aggregate',
    surface: 'runtime_read',
    handler: aggregate,
    doc: {
      operationId: 'aggregateResourceUsage',
      summary: "Credits used by the organization's jobs per resource (organization sessions only)",
      tags: ['runtime'],
      headers: [
        { name: 'X-Platform-Runtime-Session-Id', required: true, description: 'an organization session' },
      ],
      requestBody: { schema: ResourceUsageRequest, required: true },
      responses: {
        200: { description: 'Usage', schema: ResourceUsageResponse },
        400: errorDoc('Invalid body (resourceIds 1..200, groupBy of accountId, serviceKind, day)'),
        401: errorDoc('Credential or session missing or invalid'),
        403: errorDoc('Not an organization session, or a recovery reference'),
        413: errorDoc('Body too large'),
        415: errorDoc('Not JSON'),
        429: errorDoc('Rate limited (Retry-After)'),
        503: errorDoc('Unavailable (Retry-After)'),
        504: errorDoc('Gateway timeout'),
      },
    },
  },
];
