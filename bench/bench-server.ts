/**
 * The benchmark's server (`bench/run.ts` starts it): multipart uploads are parsed and counted but
 * not stored; result downloads are served from the file given as the first argument.
 * Prints its base URL on the first line.
 */
import { createReadStream, statSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import busboy from 'busboy';

const file = process.argv[2]!;
const SIZE = statSync(file).size;

/** One server for both clients: multipart uploads are streamed to nowhere, results are served from disk. */
async function main() {
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (req.method === 'POST' && url.pathname === '/v1/assets/input') {
      const parser = busboy({ headers: req.headers });
      let bytes = 0;
      parser.on('file', (_name, stream) => stream.on('data', (chunk: Buffer) => (bytes += chunk.length)));
      parser.on('close', () => {
        const now = new Date().toISOString();
        res.writeHead(201, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            asset: {
              assetId: `asset_${bytes}`,
              publicationId: 'pub',
              kind: 'video',
              mimeType: 'video/mp4',
              byteSize: bytes,
              status: 'available',
              createdAt: now,
              lastUploadedAt: now,
              expiresAt: new Date(Date.now() + 86_400_000).toISOString(),
              reused: false,
            },
          }),
        );
      });
      req.pipe(parser);
      return;
    }
    if (req.method === 'GET' && url.pathname.endsWith('/content')) {
      res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': String(SIZE) });
      createReadStream(file).pipe(res);
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  process.stdout.write(`http://127.0.0.1:${(server.address() as AddressInfo).port}/v1\n`);
}

await main();
