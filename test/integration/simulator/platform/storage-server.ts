import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * The application's own storage in local simulation: a loopback server answering the files
 * put into it (as a signed URL would), counting every request it receives.
 */
export class LoopbackStorage {
  private readonly files = new Map<string, { bytes: Buffer; type: string }>();
  private server?: Server;
  hits = 0;
  origin = '';

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      this.hits += 1;
      const file = this.files.get(new URL(req.url ?? '/', 'http://x').pathname);
      if (!file) {
        res.writeHead(404).end();
        return;
      }
      res.writeHead(200, { 'Content-Type': file.type, 'Content-Length': String(file.bytes.length) });
      res.end(file.bytes);
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.origin = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** Serves `bytes` at a signed-looking URL and returns it. */
  put(name: string, bytes: Buffer, type = 'application/octet-stream'): string {
    const pathname = `/bucket/${name}`;
    this.files.set(pathname, { bytes, type });
    return `${this.origin}${pathname}?X-Signature=simulated`;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
