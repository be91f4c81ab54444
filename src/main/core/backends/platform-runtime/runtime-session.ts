import { AppError } from '../../errors.js';
import { sessionAuth, type SessionAuth } from '../../api-clients/runtime/runtime-auth.js';

/** The person's RuntimeSession now, or null when there is none. */
export type CurrentSession = () => Promise<{ sessionId: string } | null>;

/**
 * The auth of a call that needs the person's session (never a recovery reference): without one,
 * `runtime.no_session` and nothing is sent.
 */
export async function requireSession(session: CurrentSession): Promise<SessionAuth> {
  const current = await session();
  if (!current)
    throw new AppError(
      'runtime.no_session',
      'Your platform session is over: reopen Framewright from your application center.',
    );
  return sessionAuth(current.sessionId);
}
