import http from 'node:http';

/**
 * A GET of `url` carrying another `Host` header (what a DNS-rebinding page sends: fetch cannot set
 * it); answers the status.
 */
export function getWithHost(url: string, host: string): Promise<number> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: target.hostname,
        port: target.port,
        path: target.pathname + target.search,
        method: 'GET',
        headers: { Host: host, Connection: 'close' },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end();
  });
}
