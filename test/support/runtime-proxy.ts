import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** The upstream's answer to a create, as the proxy read it. */
export interface UpstreamAnswer {
  status: number;
  body: Record<string, unknown>;
}

/**
 * What the proxy does with the Nth runtime create (`POST …/media/jobs`, 1-based):
 * - `pass`: forwarded and answered as the upstream answers;
 * - `drop`: forwarded (the upstream creates the job) and the connection destroyed once the
 *   upstream has answered: an unknown outcome;
 * - a function: forwarded, and its result answered instead of the upstream's (e.g. the job's body
 *   under a failure status, or a 409 naming the job);
 * - `{ status, body }`: answered at once, not forwarded.
 */
export type RuntimeCreateStep =
  | 'pass'
  | 'drop'
  | ((upstream: UpstreamAnswer) => { status: number; body: unknown })
  | { status: number; body: unknown };

/** One scripted request as it reached the proxy: its path, `Idempotency-Key` and exact body text. */
export interface ScriptedRequest {
  path: string;
  idempotencyKey: string | undefined;
  body: string;
}

/**
 * A loopback proxy in front of the simulated runtime whose job creates (or, with `scripted`, the
 * requests it names, e.g. optimizations or synchronous calls) follow a script.
 */
export class RuntimeProxy {
  /** How many scripted requests reached the proxy. */
  creates = 0;
  /** Every scripted request, in order. */
  readonly sent: ScriptedRequest[] = [];
  private server: Server | undefined;
  private origin = '';

  constructor(
    private readonly upstreamOrigin: string,
    private readonly script: (createNumber: number, pathname: string) => RuntimeCreateStep,
    /** Which requests follow the script (default: `POST …/media/jobs`). */
    private readonly scripted: (method: string, pathname: string) => boolean = (method, pathname) =>
      method === 'POST' && /\/media\/jobs$/.test(pathname),
  ) {}

  /** Starts on 127.0.0.1; answers the proxy's origin (paths are the upstream's). */
  async start(): Promise<string> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.origin = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this.origin;
  }

  async close(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const pathname = new URL(req.url!, 'http://x').pathname;
    const isCreate = this.scripted(req.method ?? '', pathname);
    if (isCreate) {
      const key = req.headers['idempotency-key'];
      this.sent.push({
        path: pathname,
        idempotencyKey: typeof key === 'string' ? key : undefined,
        body: Buffer.concat(chunks).toString('utf8'),
      });
    }
    const step: RuntimeCreateStep = isCreate ? this.script(++this.creates, pathname) : 'pass';
    if (typeof step === 'object') return sendJson(res, step.status, step.body);
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(req.headers))
      if (typeof value === 'string' && !['host', 'connection', 'content-length'].includes(name))
        headers[name] = value;
    const upstream = await fetch(this.upstreamOrigin + req.url, {
      method: req.method,
      headers,
      body: chunks.length ? Buffer.concat(chunks) : undefined,
    });
    let bytes = Buffer.from(await upstream.arrayBuffer());
    // the upstream's URLs (results, exports) are answered on the proxy's origin
    if (upstream.headers.get('content-type')?.includes('json'))
      bytes = Buffer.from(bytes.toString().replaceAll(this.upstreamOrigin, this.origin));
    if (step === 'drop') return void res.destroy();
    if (typeof step === 'function')
      return sendJson(res, ...spread(step({ status: upstream.status, body: JSON.parse(bytes.toString()) })));
    const out: Record<string, string> = {};
    upstream.headers.forEach((value, name) => {
      if (!['content-encoding', 'transfer-encoding', 'content-length', 'connection'].includes(name))
        out[name] = value;
    });
    res.writeHead(upstream.status, out);
    res.end(bytes);
  }
}

function spread(answer: { status: number; body: unknown }): [number, unknown] {
  return [answer.status, answer.body];
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}
