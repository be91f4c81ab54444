import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { BackendMetrics } from '../core/platform/backend-metrics.js';
import { SERVER_OPTIONS, withServerLimits } from '../core/process/server-limits.js';
import { safeEqual } from './http-serving.js';

/** Where the metrics are scraped: `GET /metrics` on their own port. */
export const METRICS_PATH = '/metrics';

export interface RunningMetricsServer {
  origin: string;
  close(): Promise<void>;
}

/**
 * The backend's metrics (Prometheus text) on a port of their own (`FRAMEWRIGHT_METRICS_PORT`),
 * never the public one: the platform routes people to the declared port only. With a token
 * (`FRAMEWRIGHT_METRICS_TOKEN`) a scrape must send `Authorization: Bearer <token>`; anything but
 * `GET /metrics` is 404. The server has the same bounds as every server of the project.
 */
export async function startMetricsServer(
  metrics: Pick<BackendMetrics, 'text' | 'contentType'>,
  options: { host: string; port: number; token?: string },
): Promise<RunningMetricsServer> {
  const server = withServerLimits(
    http.createServer(SERVER_OPTIONS, (req, res) => {
      const pathname = (req.url ?? '').split('?')[0];
      if (pathname !== METRICS_PATH || (req.method !== 'GET' && req.method !== 'HEAD'))
        return void res.writeHead(404, { 'Content-Type': 'text/plain' }).end('Not found.\n');
      if (options.token && !safeEqual(String(req.headers.authorization ?? ''), `Bearer ${options.token}`))
        return void res
          .writeHead(401, { 'Content-Type': 'text/plain', 'WWW-Authenticate': 'Bearer' })
          .end('A bearer token is needed.\n');
      metrics.text().then(
        (text) => {
          res.writeHead(200, { 'Content-Type': metrics.contentType, 'Cache-Control': 'no-store' });
          res.end(req.method === 'HEAD' ? undefined : text);
        },
        () => res.writeHead(500, { 'Content-Type': 'text/plain' }).end('The metrics could not be read.\n'),
      );
    }),
    { maxConnections: 64 },
  );
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const hostPart = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    origin: `http://${hostPart}:${address.port}`,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
