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

/**
 * One request, its whole answer read. A kept-alive connection the server closed as idle just as
 * the request went out fails before any answer ("socket hang up", ECONNRESET): sent again once on a
 * new connection, as browsers do (and as Node's documentation advises for `reusedSocket`).
 */
export async function send(
  agent: http.Agent,
  url: URL,
  method: string,
  headers: Record<string, string>,
  body?: string,
): Promise<Answer> {
  try {
    return await sendOnce(agent, url, method, headers, body);
  } catch (error) {
    if (!(error as { reusedSocket?: boolean }).reusedSocket) throw error;
    return sendOnce(agent, url, method, headers, body);
  }
}

function sendOnce(
  agent: http.Agent,
  url: URL,
  method: string,
  headers: Record<string, string>,
  body?: string,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    let answered = false;
    const req = http.request(
      url,
      {
        method,
        agent,
        headers: body === undefined ? headers : { ...headers, 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        answered = true;
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
        );
      },
    );
    req.on('error', (error: NodeJS.ErrnoException) => {
      // the server closed an idle kept-alive connection as this request went out: nothing was answered
      const closedIdle =
        req.reusedSocket && !answered && (error.code === 'ECONNRESET' || error.message === 'socket hang up');
      reject(closedIdle ? Object.assign(error, { reusedSocket: true }) : error);
    });
    req.setTimeout(120_000, () => req.destroy(new Error('no answer within 120 s')));
    req.end(body);
  });
}
