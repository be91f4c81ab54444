import {
  forwardingProxy,
  type ForwardingProxy,
  type ProxiedRequest,
  type ProxyReply,
} from './worlds/forwarding-proxy.js';

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
  private proxy: ForwardingProxy | undefined;
  private held = 0;
  /** The step each create in flight follows. */
  private readonly steps = new WeakMap<ProxiedRequest, CreateScript>();

  constructor(
    private readonly upstreamOrigin: string,
    private readonly script: (createNumber: number) => CreateScript,
    /** Rewrites a JSON answer passed through (e.g. a job read as a legacy service answers it). */
    private readonly rewriteJson?: (
      pathname: string,
      body: Record<string, unknown>,
    ) => Record<string, unknown>,
  ) {}

  /** Starts on 127.0.0.1; answers the base URL (with `/v1`). Job and result URLs name the proxy. */
  async start(): Promise<string> {
    this.proxy = await forwardingProxy(this.upstreamOrigin, {
      ownOrigin: true,
      onRequest: (request) => {
        if (request.method !== 'POST' || !/\/generations$/.test(request.pathname)) return;
        const step = this.script(++this.creates);
        const key = request.headers['idempotency-key'];
        this.sentCreates.push({
          idempotencyKey: typeof key === 'string' ? key : undefined,
          body: JSON.parse(request.body.toString('utf8') || '{}') as Record<string, unknown>,
        });
        if (typeof step === 'object') return this.publicError(step);
        this.steps.set(request, step);
      },
      onResponse: async (answer, request) => {
        const step = this.steps.get(request);
        if (step === 'hold') this.held += 1;
        if (step === 'hold' || step === 'drop') return step;
        const json = String(answer.headers['content-type'] ?? '').includes('json');
        if (!this.rewriteJson || !json || answer.status >= 300) return;
        const body = JSON.parse((await answer.body()).toString('utf8')) as Record<string, unknown>;
        return {
          status: answer.status,
          headers: answer.headers,
          body: this.rewriteJson(request.pathname, body),
        };
      },
    });
    return `${this.proxy.origin}/v1`;
  }

  /** Whether a create is held right now. */
  get holding(): boolean {
    return this.held > 0;
  }

  async close(): Promise<void> {
    this.held = 0;
    await this.proxy?.close();
  }

  private publicError(step: Exclude<CreateScript, string>): ProxyReply {
    return {
      status: step.status,
      headers: {
        'x-request-id': `req_proxy_${this.creates}`,
        ...(step.retryAfter !== undefined ? { 'retry-after': String(step.retryAfter) } : {}),
      },
      body: {
        code: step.code,
        message: step.message ?? step.code.replace(/_/g, ' '),
        requestId: `req_proxy_${this.creates}`,
        retryable: true,
      },
    };
  }
}
