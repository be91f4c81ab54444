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
  endedByService(id: string): Promise<unknown>;
}

/** The error that tells the page to reopen Framewright from the application center. */
export function sessionOver(): AppError {
  return new AppError(
    PLATFORM_SESSION_OVER_CODE,
    'Your platform session is over: reopen Framewright from your application center.',
  );
}

/**
 * One person's RuntimeSession as their workspace acts with it: while a request is answered, its
 * own cookie's session (another browser's sign-out or another organization's session changes
 * nothing for it); for the backend's own work (resume, events, polling after the answer), the
 * person's latest. After a runtime 401 the session is over: reads go on with recovery
 * references and the page reopens.
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

  /** Ends a session the runtime refused (401): never used again here, and the service is told. */
  async end(session: ActiveSession): Promise<void> {
    this.refusedSessionId = session.sessionId;
    await this.table.endedByService(session.id).catch(() => undefined);
  }

  /** Ends the person's latest session (the events stream was refused with 401). */
  async endLatest(): Promise<void> {
    const session = await this.table.latestOf(this.subjectKey);
    if (session) await this.end(session);
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
              if (session) await this.end(session);
              throw sessionOver();
            }
            throw error;
          }
        },
      ]),
    ) as unknown as BridgeHandlers;
  }
}
