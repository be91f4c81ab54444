/**
 * The platform bench's HTTP client (`bench/platform.ts` for the people, `bench/platform-junk.ts`
 * for the junk clients): one request over a keep-alive agent bound to the client's own loopback
 * address, the whole answer read.
 */
import http from 'node:http';

export interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** An agent for one client: its own source address, at most `sockets` connections (a page: 2). */
export function clientAgent(address: string, sockets = 1): http.Agent {
  return new http.Agent({ keepAlive: true, maxSockets: sockets, localAddress: address });
}

export function send(
  agent: http.Agent,
  url: URL,
  method: string,
  headers: Record<string, string>,
  body?: string,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      {
        method,
        agent,
        headers: body === undefined ? headers : { ...headers, 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
        );
      },
    );
    req.on('error', reject);
    req.setTimeout(120_000, () => req.destroy(new Error('no answer within 120 s')));
    req.end(body);
  });
}
