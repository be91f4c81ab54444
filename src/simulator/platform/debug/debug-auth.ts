import type { CliSessionRecord } from '../developer/cli-session-store.js';
import { PlatformError } from '../errors.js';
import { findApp, type AppDependency, type FixtureApp } from '../fixtures.js';
import type { PlatformContext } from '../router.js';
import type { SimulatorState } from '../../context.js';
import type { DebugIdentity } from './debug-store.js';

/** 401 of every CLI-token surface: no live CLI session behind the Bearer (application credentials included). */
export function cliSessionRequired(): PlatformError {
  return new PlatformError(
    401,
    'UNAUTHENTICATED',
    'A live CLI session Bearer (from cli-sessions:exchange, 1 hour) is required here; application credentials and personal keys are not accepted.',
    { headers: { 'WWW-Authenticate': 'Bearer' } },
  );
}

/** The uniform 404 of a wrong application or version binding (section D). */
export function bindingNotFound(): PlatformError {
  return new PlatformError(404, 'NOT_FOUND', 'No such application version for this credential.');
}

/** The live CLI session of the Bearer, or 401. */
export function liveCliSession(pc: PlatformContext): CliSessionRecord {
  const cli = pc.state.platform.cliSessions.byToken(pc.bearer);
  if (!cli) throw cliSessionRequired();
  return cli;
}

/** The CLI session bound to the `{appId}` and `{versionId}` of the path (401 without one, 404 for another binding). */
export function debugBinding(pc: PlatformContext): { cli: CliSessionRecord; app: FixtureApp } {
  const cli = liveCliSession(pc);
  const app = findApp(cli.appKey);
  if (!app || pc.params.appId !== cli.appId || pc.params.versionId !== cli.appVersionId)
    throw bindingNotFound();
  return { cli, app };
}

/**
 * The dependencies the candidate version (the CLI session's `appVersionId`) declares. The
 * simulator's fixture applications declare the same dependencies in every version.
 */
export function candidateDependencies(cli: CliSessionRecord): readonly AppDependency[] {
  return findApp(cli.appKey)?.dependencies ?? [];
}

export function declaresDependency(
  cli: CliSessionRecord,
  calleeAppKey: string,
  apiVersion: string,
  scope: string,
): boolean {
  return candidateDependencies(cli).some(
    (d) => d.calleeAppKey === calleeAppKey && d.apiVersion === apiVersion && d.scopes.includes(scope),
  );
}

/**
 * Whether the callee's active production version opens these scopes of `apiVersion` to online
 * debugging (`onlineDebug: true`) and the provider has not withdrawn it.
 */
export function openedForDebug(
  state: SimulatorState,
  calleeAppKey: string,
  apiVersion: string,
  scopes: readonly string[],
): boolean {
  const callee = findApp(calleeAppKey);
  if (!callee || state.platform.debug.isWithdrawn(callee.appKey)) return false;
  return callee.capabilities.some(
    (c) => c.onlineDebug === true && c.apiVersion === apiVersion && scopes.every((s) => c.scopes.includes(s)),
  );
}

export const identityOf = (cli: CliSessionRecord): DebugIdentity => ({
  subject: { ...cli.subject },
  testAccountId: cli.testAccountId,
});

/**
 * "Both parties must have chosen the same approved user, organization and identity" (spec,
 * section D): the same subject. Test-account records are per application (each app approves its
 * own), so two pairings that chose the same test identity hold different record ids: the ids are
 * not compared, the identity they stand for is.
 */
export function sameIdentity(a: DebugIdentity, b: DebugIdentity): boolean {
  return (
    a.subject.userId === b.subject.userId &&
    a.subject.accountId === b.subject.accountId &&
    a.subject.tenantId === b.subject.tenantId &&
    (a.subject.organizationId ?? null) === (b.subject.organizationId ?? null) &&
    (a.subject.membershipId ?? null) === (b.subject.membershipId ?? null)
  );
}
