import { z } from 'zod';
import type { RequestContext, RouteDef } from '../context.js';
import { iso } from '../clock.js';
import { parseWith, readJsonObject, sendJson } from '../http.js';
import { parseScenario, SCENARIO_NAMES } from '../scenarios.js';

/**
 * Simulator-only routes under /v1/_simulator (a valid token is required; they never appear
 * in the public OpenAPI paths of the service).
 */

const ScenarioBody = z.object({ scenario: z.string().min(1).nullable() });
const ClockBody = z.object({
  advanceSeconds: z
    .number()
    .min(0)
    .max(10 * 365 * 24 * 3600),
});

async function getScenario(rc: RequestContext): Promise<void> {
  sendJson(rc.res, 200, { scenario: rc.state.scenario, known: [...SCENARIO_NAMES] });
}

async function setScenario(rc: RequestContext): Promise<void> {
  const body = parseWith(ScenarioBody, await readJsonObject(rc.req));
  rc.state.scenario = body.scenario === null ? null : parseScenario(body.scenario);
  sendJson(rc.res, 200, { scenario: rc.state.scenario, known: [...SCENARIO_NAMES] });
}

/** Per identity (the caller's): how many resources each idempotency key created. */
async function listIdempotency(rc: RequestContext): Promise<void> {
  const records = rc.state.idempotency.listFor(rc.identity.id);
  sendJson(rc.res, 200, {
    object: 'list',
    identity: rc.identity.label,
    data: records.map((record) => ({
      operation: record.operation,
      idempotencyKey: record.key,
      model: record.model,
      created: record.created,
      replays: record.replays,
      resourceIds: [record.resourceId],
      firstSeenAt: iso(record.firstSeenMs),
    })),
  });
}

async function advanceClock(rc: RequestContext): Promise<void> {
  const body = parseWith(ClockBody, await readJsonObject(rc.req));
  rc.state.clock.advance(body.advanceSeconds);
  rc.state.log?.clock(rc.state.clock.offsetSeconds);
  sendJson(rc.res, 200, {
    now: rc.state.clock.now().toISOString(),
    offsetSeconds: rc.state.clock.offsetSeconds,
  });
}

export const adminRoutes: RouteDef[] = [
  { method: 'GET', path: '/_simulator/scenario', routeClass: 'admin', handler: getScenario },
  { method: 'POST', path: '/_simulator/scenario', routeClass: 'admin', handler: setScenario },
  { method: 'GET', path: '/_simulator/idempotency', routeClass: 'admin', handler: listIdempotency },
  { method: 'POST', path: '/_simulator/clock', routeClass: 'admin', handler: advanceClock },
];
