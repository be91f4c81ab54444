import type { IncomingMessage, ServerResponse } from 'node:http';
import { BACKEND_COMPONENT } from '../core/platform-release/framewright-submission.js';

/** Why the backend cannot take people now ("start-up resume has not run"…), or undefined when it can. */
export type ReadinessCheck = () => Promise<string | undefined>;

/** How long one readiness answer is reused: a probe flood costs one check a second, not one each. */
const READINESS_REUSE_MS = 1000;

/**
 * The orchestrator's probes on the backend's port, at the paths the submission declares (one
 * definition, `BACKEND_COMPONENT`):
 *  - `/healthz`: the process and its event loop answer — 200 whenever this runs at all;
 *  - `/readyz`: 200 when the backend names no problem and the host is not draining, else 503.
 *
 * They are answered before every other rule of the host, whatever `Host` the probe sends (it
 * addresses the container, not the public name), for GET and HEAD at the exact path only (a query
 * is ignored). The body is one word of status: never a person, a setting, a path or the reason
 * itself (that goes to the log, once per change). Nothing else is reachable through them.
 */
export class DeploymentProbes {
  private draining = false;
  private cached: { at: number; problem: Promise<string | undefined> } | undefined;
  private lastProblem: string | undefined;

  constructor(
    private readonly ready: ReadinessCheck,
    private readonly log: (line: string) => void = () => undefined,
    private readonly now: () => number = Date.now,
  ) {}

  /** From now on readiness is false (the drain has begun); it never turns true again. */
  startDraining(): void {
    this.draining = true;
  }

  get isDraining(): boolean {
    return this.draining;
  }

  /** Whether `pathname` is a probe's (answered by {@link answer} before anything else). */
  static isProbe(req: IncomingMessage): boolean {
    const pathname = (req.url ?? '').split('?')[0];
    return pathname === BACKEND_COMPONENT.healthPath || pathname === BACKEND_COMPONENT.readinessPath;
  }

  /** Answers a probe request (see {@link isProbe}). */
  async answer(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (req.method !== 'GET' && req.method !== 'HEAD') return send(req, res, 405, 'method_not_allowed');
    if ((req.url ?? '').split('?')[0] === BACKEND_COMPONENT.healthPath) return send(req, res, 200, 'ok');
    if (this.draining) return send(req, res, 503, 'draining');
    const problem = await this.problem();
    send(req, res, problem === undefined ? 200 : 503, problem === undefined ? 'ready' : 'not_ready');
  }

  /** The backend's readiness problem, checked at most once a second; a change is logged once. */
  private problem(): Promise<string | undefined> {
    const now = this.now();
    if (!this.cached || now - this.cached.at >= READINESS_REUSE_MS) {
      const problem = this.ready().catch((error: unknown) => `the readiness check failed: ${String(error)}`);
      this.cached = { at: now, problem };
      void problem.then((found) => {
        if (found !== this.lastProblem) this.log(found ? `not ready: ${found}` : 'ready');
        this.lastProblem = found;
      });
    }
    return this.cached.problem;
  }
}

function send(req: IncomingMessage, res: ServerResponse, status: number, word: string): void {
  const body = JSON.stringify({ status: word });
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(body),
    'Cache-Control': 'no-store',
  });
  res.end(req.method === 'HEAD' ? undefined : body);
}
