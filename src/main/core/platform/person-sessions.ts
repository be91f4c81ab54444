import { PLATFORM_SESSION_OVER_CODE } from '../../../shared/bridge/platform-host-protocol.js';
import type { BridgeHandlers } from '../bridge/dispatcher.js';
import { AppError } from '../errors.js';
import {
  requestSessionId,
  type ActiveSession,
  type SessionOver,
} from './runtime-sessions/server-sessions.js';
import { ApiError } from '../api-clients/api-errors.js';

/** The backend's session table, as one person's workspace reads it. */
export interface SessionTable {
  /** The session behind a cookie id (the request's own). */
  current(id: string | undefined): Promise<ActiveSession | SessionOver>;
  latestOf(subjectKey: string): Promise<ActiveSession | undefined>;
  /** A runtime 401: whether the session is over or the backend's credential was refused. */
  refusedByRuntime(id: string): Promise<'over' | 'credential' | 'unknown'>;
}

/** The error that tells the page to reopen Framewright from the application center. */
export function sessionOver(): AppError {
  return new AppError(
    PLATFORM_SESSION_OVER_CODE,
    'Your platform session is over: reopen Framewright from your application center.',
  );
}

/**
 * The runtime refused the backend, not the person (its application credential, or an answer the
 * session service could not confirm): the person's session is kept and the call can be tried again.
 */
export function backendRefused(): AppError {
  return new AppError(
    'platform.backend_refused',
    'Framewright’s server could not act for you just now: the platform refused the server itself, not your sign-in. Your session is kept; try again shortly (the operator has been told).',
  );
}

/**
 * One person's RuntimeSession as their workspace acts with it: while a request is answered, its
 * own cookie's session (another browser's sign-out or another organization's session changes
 * nothing for it); for the backend's own work (resume, events, polling after the answer), the
 * person's latest. After a runtime 401 that the session service confirms (the session is unknown
 * to it) the session is over: reads go on with recovery references and the page reopens; a 401
 * for the backend's own credential ends no session.
 */
export class PersonSessions {
  private refusedSessionId: string | undefined;

  constructor(
    private readonly table: SessionTable,
    private readonly subjectKey: string,
  ) {}

  /** The session to act with now, if any. */
  async latest(): Promise<ActiveSession | undefined> {
    const ownId = requestSessionId();
    const found = ownId ? await this.table.current(ownId) : await this.table.latestOf(this.subjectKey);
    return found?.status === 'active' && found.sessionId !== this.refusedSessionId ? found : undefined;
  }

  /** The session, or the "reopen Framewright" error. */
  async require(): Promise<ActiveSession> {
    const session = await this.latest();
    if (!session) throw sessionOver();
    return session;
  }

  /** The runtime session id to act with (null: none), for the transport and the studio's calls. */
  readonly source = {
    current: async (): Promise<{ sessionId: string } | null> => {
      const session = await this.latest();
      return session ? { sessionId: session.sessionId } : null;
    },
  };

  /**
   * The runtime answered 401 with this session: the session service decides whether the session is
   * over (never used again here) or the backend's credential was refused (the session is kept).
   */
  async refusedByRuntime(session: ActiveSession): Promise<'over' | 'credential' | 'unknown'> {
    const verdict = await this.table.refusedByRuntime(session.id).catch(() => 'unknown' as const);
    if (verdict === 'over') this.refusedSessionId = session.sessionId;
    return verdict;
  }

  /** The events stream was refused with 401: the person's latest session, checked the same way. */
  async endLatest(): Promise<void> {
    const session = await this.table.latestOf(this.subjectKey);
    if (session) await this.refusedByRuntime(session);
  }

  /** Every handler, with a runtime 401 ending the session and telling the page to reopen. */
  guard(handlers: BridgeHandlers): BridgeHandlers {
    return Object.fromEntries(
      Object.entries(handlers).map(([method, handler]) => [
        method,
        async (params: never) => {
          try {
            return await (handler as (p: never) => unknown)(params);
          } catch (error) {
            if (error instanceof ApiError && error.status === 401) {
              const session = await this.latest();
              if (!session || (await this.refusedByRuntime(session)) === 'over') throw sessionOver();
              throw backendRefused();
            }
            throw error;
          }
        },
      ]),
    ) as unknown as BridgeHandlers;
  }
}
