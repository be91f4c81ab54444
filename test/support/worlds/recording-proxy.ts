import { forwardingProxy } from './forwarding-proxy.js';

/** One runtime request as a recording proxy saw it: which session (or recovery) header it carried. */
export interface RuntimeCall {
  method: string;
  path: string;
  sessionId: string | undefined;
}

/**
 * A loopback pass-through proxy in front of the simulated runtime that records every request's
 * `X-Platform-Runtime-Session-Id` (streams, bodies and answers pass unchanged); closed when done.
 */
export function recordingProxy(upstreamBase: string, calls: RuntimeCall[]) {
  return forwardingProxy(upstreamBase, {
    onRequest: (request) => {
      const session = request.headers['x-platform-runtime-session-id'];
      calls.push({
        method: request.method,
        path: request.pathname,
        sessionId: typeof session === 'string' ? session : undefined,
      });
    },
  });
}
