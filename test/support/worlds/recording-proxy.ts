import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { closeWhenDone } from './cleanup.js';

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
export async function recordingProxy(upstreamBase: string, calls: RuntimeCall[]) {
  const upstream = new URL(upstreamBase);
  const server = http.createServer((req, res) => {
    const session = req.headers['x-platform-runtime-session-id'];
    calls.push({
      method: req.method ?? '',
      path: (req.url ?? '').split('?')[0]!,
      sessionId: typeof session === 'string' ? session : undefined,
    });
    const forwarded = http.request(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, host: upstream.host },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forwarded.on('error', () => res.destroy());
    res.on('close', () => forwarded.destroy());
    req.pipe(forwarded);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = new URL(upstreamBase);
  base.host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  return closeWhenDone({
    base: base.toString().replace(/\/$/, ''),
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  });
}
