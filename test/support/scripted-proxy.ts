import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * What the proxy does with the Nth create (`POST …/generations`, 1-based):
 * - `pass`: forwarded, answered as the upstream answers;
 * - `hold`: forwarded (the upstream creates the job), and the answer is never sent: the caller waits
 *   until `releaseHeld()` (or the close), as a server that accepted a job and hangs would;
 * - `drop`: forwarded, and once the upstream has answered the connection is destroyed: the job
 *   exists but its answer is never read (an unknown outcome);
 * - `{ status, code, retryAfter }`: answered at once with that PublicError, not forwarded.
 */
export type CreateScript =
  'pass' | 'hold' | 'drop' | { status: number; code: string; message?: string; retryAfter?: number };

/**
 * A loopback proxy in front of a simulator whose creates follow a script; every other request
 * passes through unchanged. It counts the creates it saw.
 */
export class ScriptedProxy {
  creates = 0;
  /** Every create that reached the proxy, in order: its `Idempotency-Key` header and its body. */
  readonly sentCreates: { idempotencyKey: string | undefined; body: Record<string, unknown> }[] = [];
  private server: Server | undefined;
  private readonly held: ServerResponse[] = [];

  constructor(
    private readonly upstreamOrigin: string,
    private readonly script: (createNumber: number) => CreateScript,
    /** Rewrites a JSON answer passed through (e.g. a job read as a legacy service answers it). */
    private readonly rewriteJson?: (
      pathname: string,
      body: Record<string, unknown>,
    ) => Record<string, unknown>,
  ) {}

  /** Starts on 127.0.0.1; answers the base URL (with `/v1`). */
  async start(): Promise<string> {
    this.server = createServer((req, res) => this.handle(req, res));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/v1`;
  }

  /** Whether a create is held right now. */
  get holding(): boolean {
    return this.held.length > 0;
  }

  async close(): Promise<void> {
    for (const res of this.held.splice(0)) res.destroy();
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const isCreate = req.method === 'POST' && /\/generations$/.test(new URL(req.url!, 'http://x').pathname);
    const step: CreateScript = isCreate ? this.script(++this.creates) : 'pass';
    if (isCreate) {
      const chunks: Buffer[] = [];
      const key = req.headers['idempotency-key'];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () =>
        this.sentCreates.push({
          idempotencyKey: typeof key === 'string' ? key : undefined,
          body: JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Record<string, unknown>,
        }),
      );
    }
    if (typeof step === 'object') {
      req.resume();
      res.writeHead(step.status, {
        'content-type': 'application/json',
        'x-request-id': `req_proxy_${this.creates}`,
        ...(step.retryAfter !== undefined ? { 'retry-after': String(step.retryAfter) } : {}),
      });
      res.end(
        JSON.stringify({
          code: step.code,
          message: step.message ?? step.code.replace(/_/g, ' '),
          requestId: `req_proxy_${this.creates}`,
          retryable: true,
        }),
      );
      return;
    }
    const target = new URL(req.url!, this.upstreamOrigin);
    const forward = request(
      target,
      { method: req.method, headers: { ...req.headers, host: target.host } },
      (upstream) => {
        if (step === 'hold') {
          upstream.resume();
          this.held.push(res);
          return;
        }
        if (step === 'drop') {
          upstream.resume();
          upstream.on('end', () => res.socket?.destroy());
          return;
        }
        const ownOrigin = `http://${req.headers.host}`;
        const headers = { ...upstream.headers };
        if (typeof headers.location === 'string')
          headers.location = headers.location.replace(this.upstreamOrigin, ownOrigin);
        if (!String(headers['content-type'] ?? '').includes('json')) {
          res.writeHead(upstream.statusCode!, headers);
          upstream.pipe(res);
          return;
        }
        // job and result URLs name the upstream's origin: the caller sees the proxy's instead
        const chunks: Buffer[] = [];
        upstream.on('data', (chunk: Buffer) => chunks.push(chunk));
        upstream.on('end', () => {
          let text = Buffer.concat(chunks).toString('utf8').split(this.upstreamOrigin).join(ownOrigin);
          if (this.rewriteJson && upstream.statusCode! < 300)
            text = JSON.stringify(
              this.rewriteJson(
                new URL(req.url!, 'http://x').pathname,
                JSON.parse(text) as Record<string, unknown>,
              ),
            );
          const body = Buffer.from(text);
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
