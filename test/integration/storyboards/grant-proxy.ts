import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { closeWhenDone } from '../../support/worlds/cleanup.js';

/** One `POST …/app-grants` as the session service received it, and what it answered (the proxy saw it). */
export interface SeenIssue {
  body: Record<string, unknown>;
  answer: Record<string, unknown> | undefined;
  dropped: boolean;
}

/**
 * A proxy in front of the session service that forwards everything and, for the first
 * `dropIssues` grant issues, lets the session service answer but drops the answer (the socket is
 * destroyed): what a caller sees when a connection breaks after the request was served.
 */
export async function grantIssueProxy(upstreamBase: string, dropIssues: number) {
  const upstream = new URL(upstreamBase);
  const issues: SeenIssue[] = [];
  let toDrop = dropIssues;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const isIssue = req.method === 'POST' && /\/app-grants$/.test((req.url ?? '').split('?')[0]!);
      const forwarded = http.request(
        {
          host: upstream.hostname,
          port: upstream.port,
          method: req.method,
          path: req.url,
          headers: { ...req.headers, host: upstream.host },
        },
        (answer) => {
          const out: Buffer[] = [];
          answer.on('data', (c: Buffer) => out.push(c));
          answer.on('end', () => {
            const text = Buffer.concat(out).toString('utf8');
            if (isIssue) {
              const drop = toDrop > 0;
              if (drop) toDrop -= 1;
              let parsed: Record<string, unknown> | undefined;
              try {
                parsed = JSON.parse(text) as Record<string, unknown>;
              } catch {
                parsed = undefined;
              }
              issues.push({
                body: JSON.parse(body.toString('utf8')) as Record<string, unknown>,
                answer: parsed,
                dropped: drop,
              });
              if (drop) {
                res.destroy();
                return;
              }
            }
            res.writeHead(answer.statusCode ?? 502, answer.headers);
            res.end(Buffer.concat(out));
          });
        },
      );
      forwarded.on('error', () => res.destroy());
      forwarded.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = new URL(upstreamBase);
  base.host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  return closeWhenDone({
    base: base.toString().replace(/\/$/, ''),
    issues,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  });
}
