import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SeenRequest {
  method: string;
  path: string;
  /** The test clock's time when the request arrived (virtual waits included). */
  at: number;
}

/**
 * A local HTTP server (127.0.0.1 only) that answers as each test scripts it: the kind of server
 * the spec allows or an attacker runs. Every request is recorded with the time of `now()`.
 */
export async function startHostileServer(
  handler: (req: http.IncomingMessage, res: http.ServerResponse, seen: SeenRequest[]) => void,
  now: () => number = Date.now,
): Promise<{ base: string; origin: string; seen: SeenRequest[]; close(): Promise<void> }> {
  const seen: SeenRequest[] = [];
  const server = http.createServer((req, res) => {
    seen.push({ method: req.method ?? 'GET', path: (req.url ?? '/').replace(/^\/v1/, ''), at: now() });
    req.resume();
    req.on('end', () => handler(req, res, seen));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    base: `${origin}/v1`,
    origin,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A PublicError answer. */
export function publicError(
  res: http.ServerResponse,
  status: number,
  code: string,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { 'content-type': 'application/json', 'x-request-id': 'req_err', ...headers });
  res.end(JSON.stringify({ code, message: code.replace(/_/g, ' '), requestId: 'req_err', retryable: true }));
}
