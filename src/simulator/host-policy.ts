import { isIP } from 'node:net';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError } from './errors.js';
import { newRequestId, sendError } from './http.js';

/** Whether a bind address keeps the simulator on this machine (127.0.0.0/8, ::1, localhost). */
export function isLoopbackAddress(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (bare === 'localhost' || bare === '::1') return true;
  return isIP(bare) === 4 && bare.startsWith('127.');
}

/**
 * Refuses a bind address off this machine unless `allowRemote` says so on purpose: the simulator
 * accepts a fixed, published token, so on a network anyone could use it.
 */
export function checkBindAddress(host: string, allowRemote: boolean): void {
  if (isLoopbackAddress(host) || allowRemote) return;
  throw new Error(
    `The simulator binds to loopback only; "${host}" is reachable from other machines and its local test token is public. Pass --allow-remote (allowRemote) to bind there on purpose.`,
  );
}

/**
 * A loopback simulator answers only requests that name it by its loopback address and port (as
 * the browser host does): a web page on another name that resolves to 127.0.0.1 (DNS rebinding)
 * gets 421 and never reaches a route.
 */
export function loopbackHostGuard(
  bindHost: string,
  port: () => number,
): (req: IncomingMessage, res: ServerResponse) => boolean {
  const bound = isIP(bindHost) === 6 ? `[${bindHost}]` : bindHost.toLowerCase();
  return (req, res) => {
    const p = port();
    const allowed = [`127.0.0.1:${p}`, `localhost:${p}`, `[::1]:${p}`, `${bound}:${p}`];
    if (allowed.includes((req.headers.host ?? '').toLowerCase())) return true;
    req.resume();
    sendError(
      res,
      new ApiError(
        421,
        'misdirected_request',
        'Requests must address the simulator by its loopback name and port.',
      ),
      newRequestId(),
    );
    return false;
  };
}
