import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A loopback proxy in front of a simulator's developer control plane and its image part uploads.
 * JSON answers name the proxy's origin instead of the upstream's (so part URLs come back through
 * it); it counts what it forwarded, and `dropPart(n)` destroys the connection of part n's first
 * upload once the upstream has answered it: the platform has the part, the client never reads its
 * ETag (a dropped connection).
 */
export class DeveloperProxy {
  /** Part uploads forwarded to the upstream, by part number (every `PUT`, answered or not). */
  readonly partsForwarded = new Map<number, number>();
  /** `POST …/image-imports` forwarded (import sessions opened or replayed). */
  importCreates = 0;
  /** `POST …/versions` forwarded. */
  versionCreates = 0;
  /** Connections destroyed after the upstream answered (by `dropPart`). */
  dropped = 0;
  private readonly drops = new Set<number>();
  private server: Server | undefined;
  private origin = '';

  constructor(private readonly upstreamOrigin: string) {}

  dropPart(partNumber: number): void {
    this.drops.add(partNumber);
  }

  async start(): Promise<string> {
    this.server = createServer((req, res) => this.handle(req, res));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.origin = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this.origin;
  }

  async close(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const pathname = new URL(req.url!, 'http://x').pathname;
    const part = /\/uploads\/image-imports\/[^/]+\/parts\/(\d+)$/.exec(pathname);
    let drop = false;
    if (part && req.method === 'PUT') {
      const n = Number(part[1]);
      this.partsForwarded.set(n, (this.partsForwarded.get(n) ?? 0) + 1);
      drop = this.drops.delete(n);
    }
    if (req.method === 'POST' && /\/image-imports$/.test(pathname)) this.importCreates += 1;
    if (req.method === 'POST' && /\/apps\/[^/]+\/versions$/.test(pathname)) this.versionCreates += 1;
    const target = new URL(req.url!, this.upstreamOrigin);
    const forward = request(
      target,
      { method: req.method, headers: { ...req.headers, host: target.host } },
      (upstream) => {
        if (drop) {
          upstream.resume();
          upstream.on('end', () => {
            this.dropped += 1;
            res.socket?.destroy();
          });
          return;
        }
        const chunks: Buffer[] = [];
        upstream.on('data', (chunk: Buffer) => chunks.push(chunk));
        upstream.on('end', () => {
          const headers = { ...upstream.headers };
          let body = Buffer.concat(chunks);
          if (String(headers['content-type'] ?? '').includes('json'))
            body = Buffer.from(body.toString('utf8').split(this.upstreamOrigin).join(this.origin));
          delete headers['transfer-encoding'];
          res.writeHead(upstream.statusCode!, { ...headers, 'content-length': String(body.length) });
          res.end(body);
        });
      },
    );
    forward.on('error', () => res.destroy());
    req.pipe(forward);
  }
}
