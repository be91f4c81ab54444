import type { SimulatorState } from '../../context.js';
import { FIXTURE_SUBJECTS, FIXTURE_USERS, type FixtureApp } from '../fixtures.js';
import type { GrantRecord } from '../grant-store.js';
import { openedForDebug } from './debug-auth.js';

/**
 * A relay-mode debug grant (`developer_debug`) as its production callee resolves it with its own
 * credential (`POST {session_base_url}/apps/{calleeAppKey}/app-grants:resolve`): the callee of a
 * relayed call resolves the grant it received like any grant. Undefined when no such live grant
 * exists for this callee, or its provider no longer opens the capability to online debugging
 * (withdrawal). Debug grants are never launched by production (`app-grants:launch` answers 404).
 */
export function debugGrantForProductionResolve(
  state: SimulatorState,
  callee: FixtureApp,
  grant: string,
): GrantRecord | undefined {
  const g = state.platform.debug.grantByPlaintext(grant);
  if (
    !g ||
    g.sourceChannel !== 'developer_debug' ||
    g.calleeAppKey !== callee.appKey ||
    g.expiresAtMs <= state.clock.nowMs() ||
    !openedForDebug(state, g.calleeAppKey, g.apiVersion, [g.scope])
  )
    return undefined;
  const user = FIXTURE_USERS.find((u) => FIXTURE_SUBJECTS[u].userId === g.subject.userId) ?? 'personal';
  return {
    grantId: g.grantId,
    grantHash: g.grantHash,
    callerAppKey: g.callerAppKey,
    callerAppVersionId: g.callerAppVersionId,
    calleeAppKey: g.calleeAppKey,
    calleeAppVersionId: g.calleeAppVersionId,
    apiVersion: g.apiVersion,
    user,
    subject: { ...g.subject },
    callerAppRoles: [...g.callerAppRoles],
    scope: g.scope,
    idempotencyKey: g.idempotencyKey,
    requestDigest: g.requestDigest,
    requestHash: g.requestHash,
    expiresAtMs: g.expiresAtMs,
  };
}
