import { forwardingProxy, type ForwardingProxy, type ProxiedRequest } from './worlds/forwarding-proxy.js';

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
  private proxy: ForwardingProxy | undefined;
  /** The step each scripted request in flight follows. */
  private readonly steps = new WeakMap<ProxiedRequest, RuntimeCreateStep>();

  constructor(
    private readonly upstreamOrigin: string,
    private readonly script: (createNumber: number, pathname: string) => RuntimeCreateStep,
    /** Which requests follow the script (default: `POST …/media/jobs`). */
    private readonly scripted: (method: string, pathname: string) => boolean = (method, pathname) =>
      method === 'POST' && /\/media\/jobs$/.test(pathname),
  ) {}

  /** Starts on 127.0.0.1; answers the proxy's origin (paths are the upstream's; so are its URLs in answers). */
  async start(): Promise<string> {
    this.proxy = await forwardingProxy(this.upstreamOrigin, {
      ownOrigin: true,
      onRequest: (request) => {
        if (!this.scripted(request.method, request.pathname)) return;
        const key = request.headers['idempotency-key'];
        this.sent.push({
          path: request.pathname,
          idempotencyKey: typeof key === 'string' ? key : undefined,
          body: request.body.toString('utf8'),
        });
        const step = this.script(++this.creates, request.pathname);
        if (typeof step === 'object') return step;
        this.steps.set(request, step);
      },
      onResponse: async (answer, request) => {
        const step = this.steps.get(request);
        if (step === 'drop') return 'drop';
        if (typeof step === 'function') {
          const body = JSON.parse((await answer.body()).toString('utf8')) as Record<string, unknown>;
          return step({ status: answer.status, body });
        }
      },
    });
    return this.proxy.origin;
  }

  async close(): Promise<void> {
    await this.proxy?.close();
  }
}
