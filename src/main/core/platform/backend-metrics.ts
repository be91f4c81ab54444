import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { isMethodName } from '../../../shared/bridge/names.js';

/** How a sign-in (`POST /platform/session`) ended. */
export type SignInOutcome =
  | 'signed_in'
  | 'confirm_asked'
  | 'switch_asked'
  | 'declined'
  | 'refused'
  | 'too_many'
  | 'draining'
  | 'failed';

/** A refusal that protects the backend or a person's share of it. */
export type RefusalReason =
  | 'quota.exceeded'
  | 'media.queue_full'
  | 'draft.too_large'
  | 'draft.too_many'
  | 'cap.calls'
  | 'cap.uploads'
  | 'cap.sockets'
  | 'pace.calls'
  | 'inter_app.too_many';

/** The bridge answers' error codes counted as refusals (the others are ordinary errors). */
const REFUSAL_CODES = new Set<string>([
  'quota.exceeded',
  'media.queue_full',
  'draft.too_large',
  'draft.too_many',
]);

/** Job states seen per job, so a state is counted once per job (bounded: the oldest go first). */
const JOBS_REMEMBERED = 20_000;

/**
 * The backend's metrics (Prometheus, with prom-client): what an operator watches. Recorded by the
 * host (bridge calls, sign-ins, refusals, sockets) and the backend (runtime calls, jobs); the
 * gauges read the backend when scraped. Labels are bounded sets — a method name of the contract,
 * an error code, an operation name, an HTTP status — never a person, a path or an id.
 */
export class BackendMetrics {
  readonly registry = new Registry();
  private readonly bridgeCalls = new Histogram({
    name: 'framewright_bridge_call_duration_seconds',
    help: 'Bridge calls answered, by method, from the request to the answer.',
    labelNames: ['method', 'outcome'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [this.registry],
  });
  private readonly signIns = new Counter({
    name: 'framewright_sign_ins_total',
    help: 'Sign-ins (launch codes posted, and the answers to the sign-in questions), by outcome.',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });
  private readonly runtimeCalls = new Counter({
    name: 'framewright_runtime_calls_total',
    help: "Calls to the platform's runtime, by operation and HTTP status ('network' when none came).",
    labelNames: ['operation', 'status'] as const,
    registers: [this.registry],
  });
  private readonly jobs = new Counter({
    name: 'framewright_jobs_total',
    help: 'Jobs reaching a state, by service kind and state (each job counted once per state).',
    labelNames: ['kind', 'state'] as const,
    registers: [this.registry],
  });
  private readonly refusals = new Counter({
    name: 'framewright_refusals_total',
    help: 'Quota, queue and cap refusals, by reason.',
    labelNames: ['reason'] as const,
    registers: [this.registry],
  });
  private readonly jobStates = new Map<string, string>();
  /** Event sockets open: the host that serves them says how to count them. */
  countSockets: () => number = () => 0;

  constructor(
    read: {
      /** Sessions this process holds. */
      sessions(): number;
      /** People's workspaces open. */
      workspaces(): number;
    },
    options: { defaultMetrics?: boolean } = {},
  ) {
    const gauge = (name: string, help: string, value: () => number) =>
      new Gauge({
        name,
        help,
        registers: [this.registry],
        collect() {
          this.set(value());
        },
      });
    gauge('framewright_sessions_open', 'Sessions this process holds.', () => read.sessions());
    gauge('framewright_workspaces_open', "People's workspaces open.", () => read.workspaces());
    gauge('framewright_event_sockets_open', 'Event sockets open.', () => this.countSockets());
    // memory, CPU, event-loop lag (nodejs_eventloop_lag_*), handles, GC
    if (options.defaultMetrics !== false) collectDefaultMetrics({ register: this.registry });
  }

  /** A bridge call answered: its method (a contract name, else "unknown") and its answer. */
  bridgeCall(method: unknown, seconds: number, answer: { ok: boolean; error?: { code?: unknown } }): void {
    const name = isMethodName(method) ? method : 'unknown';
    this.bridgeCalls.observe({ method: name, outcome: answer.ok ? 'ok' : 'error' }, seconds);
    const code = answer.ok ? undefined : answer.error?.code;
    if (typeof code === 'string' && REFUSAL_CODES.has(code)) this.refusals.inc({ reason: code });
  }

  signIn(outcome: SignInOutcome): void {
    this.signIns.inc({ outcome });
  }

  refused(reason: RefusalReason): void {
    this.refusals.inc({ reason });
  }

  /** A call to the runtime answered (`status`) or not (`undefined`: the network failed). */
  runtimeCall(operation: string, status: number | undefined): void {
    this.runtimeCalls.inc({ operation, status: status === undefined ? 'network' : String(status) });
  }

  /** A job's view as the core pushed it: counted when it reaches a state it was not in. */
  jobChanged(workspaceKey: string, job: { rowId: number; serviceKind: string; status: string }): void {
    const key = `${workspaceKey}:${job.rowId}`;
    if (this.jobStates.get(key) === job.status) return;
    this.jobStates.delete(key);
    this.jobStates.set(key, job.status);
    if (this.jobStates.size > JOBS_REMEMBERED) this.jobStates.delete(this.jobStates.keys().next().value!);
    this.jobs.inc({ kind: job.serviceKind, state: job.status });
  }

  /** The Prometheus text exposition. */
  text(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}
