/**
 * Caps on what one browser session holds at once on the platform host: uploads in flight, bridge
 * calls in flight (each body up to 12 MB, so the cap also bounds the memory one session can pin)
 * and open event sockets. A request over a cap is answered 429 with `Retry-After` and a code that
 * names the cap; its count is released when the request ends, however it ends (answered, failed,
 * or the client went away).
 */
export interface SessionCaps {
  uploads: number;
  calls: number;
  sockets: number;
}

export type CapKind = keyof SessionCaps;

/** Four uploads, sixteen calls and eight event sockets at once per session. */
export const DEFAULT_SESSION_CAPS: SessionCaps = { uploads: 4, calls: 16, sockets: 8 };

/** The code and words of a refusal past each cap. */
export const CAP_REFUSALS: Record<CapKind, { code: string; message: string }> = {
  uploads: {
    code: 'host.too_many_uploads',
    message: 'Too many files are being sent at once from this browser: wait for one to finish.',
  },
  calls: {
    code: 'host.too_many_calls',
    message: 'Too many requests are in flight from this browser: try again shortly.',
  },
  sockets: {
    code: 'host.too_many_sockets',
    message: 'Too many Framewright tabs are open in this browser: close one and reload.',
  },
};

/** What a refused request is told to wait, in seconds. */
export const CAP_RETRY_AFTER_SECONDS = 2;

export class SessionCounters {
  private readonly held = new Map<string, Record<CapKind, number>>();

  constructor(private readonly caps: SessionCaps = DEFAULT_SESSION_CAPS) {}

  /**
   * Takes one of `kind` for the session, or undefined when it holds its cap already. The returned
   * release may be called any number of times; it gives the count back once.
   */
  take(sessionId: string, kind: CapKind): (() => void) | undefined {
    const counts = this.held.get(sessionId) ?? { uploads: 0, calls: 0, sockets: 0 };
    if (counts[kind] >= this.caps[kind]) return undefined;
    counts[kind] += 1;
    this.held.set(sessionId, counts);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      counts[kind] -= 1;
      // an idle session holds no entry
      if (counts.uploads + counts.calls + counts.sockets === 0 && this.held.get(sessionId) === counts)
        this.held.delete(sessionId);
    };
  }

  /** What a session holds now (tests). */
  heldBy(sessionId: string): Record<CapKind, number> {
    return { ...(this.held.get(sessionId) ?? { uploads: 0, calls: 0, sockets: 0 }) };
  }
}
