import { PlatformError } from './errors.js';
import type { PlatformContext } from './router.js';
import type { SessionRecord } from './session-store.js';

export const SESSION_HEADER = 'x-platform-runtime-session-id';
export const RECOVERY_HEADER = 'x-platform-job-recovery-ref';

export type RuntimeCaller =
  { kind: 'session'; session: SessionRecord } | { kind: 'recovery'; recoveryRef: string };

function header(pc: PlatformContext, name: string): string | undefined {
  const value = pc.req.headers[name];
  const text = Array.isArray(value) ? value[0] : value;
  return text === undefined || text === '' ? undefined : text;
}

/**
 * Who calls the runtime (the application credential was already checked by the router): the
 * person of a usable RuntimeSession of this application, or, where `recovery` is allowed (the
 * single-job read and its result download), a job recovery reference. The two headers are
 * never accepted together; a recovery reference never authorizes anything else.
 */
export function runtimeCaller(pc: PlatformContext, options: { recovery?: boolean } = {}): RuntimeCaller {
  const sessionId = header(pc, SESSION_HEADER);
  const recoveryRef = header(pc, RECOVERY_HEADER);
  if (sessionId && recoveryRef)
    throw new PlatformError(
      400,
      'conflicting_runtime_credentials',
      'Send X-Platform-Runtime-Session-Id or X-Platform-Job-Recovery-Ref, never both.',
      { phase: 'authentication' },
    );
  if (recoveryRef) {
    if (!options.recovery)
      throw new PlatformError(
        403,
        'job_recovery_ref_not_allowed',
        'A job recovery reference only reads its own job and its results; this call needs a user session.',
        { phase: 'authentication' },
      );
    return { kind: 'recovery', recoveryRef };
  }
  if (!sessionId)
    throw new PlatformError(401, 'runtime_session_required', 'X-Platform-Runtime-Session-Id is required.', {
      phase: 'authentication',
    });
  const session = pc.state.platform.sessions.usable(pc.app.appKey, sessionId);
  if (!session)
    throw new PlatformError(
      401,
      'runtime_session_invalid',
      'The runtime session is unknown, expired or revoked; the person must reopen the application.',
      { phase: 'authentication' },
    );
  return { kind: 'session', session };
}

/** Requires a user session (creation, batch-get, events, exports, optimization, usage). */
export function sessionCaller(pc: PlatformContext): SessionRecord {
  const caller = runtimeCaller(pc);
  if (caller.kind !== 'session') throw new Error('unreachable: recovery refused above');
  return caller.session;
}
