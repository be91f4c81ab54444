import type { IncomingMessage, ServerResponse } from 'node:http';
import type { BridgeResponse } from '../../../src/shared/bridge/api.js';
import { PlatformWorkspaces } from '../../../src/main/core/platform/platform-workspaces.js';
import { ServerSessions } from '../../../src/main/core/platform/runtime-sessions/server-sessions.js';
import { createSessionService } from '../../../src/main/core/platform/runtime-sessions/session-service.js';
import { OutcomeUnknownError } from '../../../src/main/core/api-clients/api-errors.js';
import type { SecretStore } from '../../../src/main/core/secrets/secret-store.js';
import { startPlatformHost, type RunningPlatformHost } from '../../../src/main/host/platform-host.js';
import type { AttemptLimits } from '../../../src/main/host/attempt-limits.js';
import type { CallPacing } from '../../../src/main/host/call-pacing.js';
import type { RunningSimulator } from '../../../src/simulator/index.js';
import { MemorySecretStore } from '../../support/memory-secret-store.js';
import { closeWhenDone } from '../../support/worlds/cleanup.js';
import { APP_KEY, backendPlace, openPlatformSimulator } from '../../support/worlds/platform-simulator.js';
import type { ServerLimits } from '../../../src/main/core/process/server-limits.js';

export { APP_KEY, freePort } from '../../support/worlds/platform-simulator.js';

/**
 * A small fake studio over the real per-subject journal: `notes.add {text}` writes a row into the
 * workspace's journal, `notes.list` reads them, `where` answers the workspace's key. It stands in
 * for the studio's features, which the coordinator wires into the same factory.
 */
function fakeStudio(
  workspace: {
    subjectKey: string;
    journal: { settings: { get<T>(k: string): T | undefined; set(k: string, v: unknown): void } };
  },
  held: Held,
) {
  return {
    async dispatch(method: unknown, params: unknown): Promise<BridgeResponse> {
      if (method === 'hold') {
        // a call that stays in flight until the test lets it go (`rig.held.release()`)
        held.started += 1;
        await held.gate;
        return { ok: true, result: 'held call finished' };
      }
      const notes = workspace.journal.settings.get<string[]>('test.notes') ?? [];
      if (method === 'notes.add') {
        workspace.journal.settings.set('test.notes', [
          ...notes,
          String((params as { text?: unknown })?.text),
        ]);
        return { ok: true, result: null };
      }
      if (method === 'notes.list') return { ok: true, result: notes };
      if (method === 'where') return { ok: true, result: workspace.subjectKey };
      return { ok: false, error: { code: 'bridge.unknown_method', message: 'Unknown method.' } };
    },
  };
}

/** The fake studio's `hold` calls: how many started, and the gate that lets them all finish. */
export interface Held {
  started: number;
  gate: Promise<void>;
  release(): void;
}

function newHeld(): Held {
  const held = { started: 0 } as Held;
  held.gate = new Promise<void>((resolve) => (held.release = resolve));
  return held;
}

export interface PlatformRig {
  /** The fake studio's `hold` bridge calls (in flight until released). */
  held: Held;
  /** What `/readyz` hears from the backend (undefined: ready). */
  readinessProblem: string | undefined;
  sim: RunningSimulator;
  dataDir: string;
  origin: string;
  host: RunningPlatformHost;
  secrets: SecretStore;
  logLines: string[];
  /** Moves the simulator's clock and the host's together. */
  advance(seconds: number): Promise<void>;
  launchCode(user: 'member' | 'personal' | 'manager'): Promise<string>;
  restartHost(): Promise<void>;
  renewCalls: number;
  exchangeCalls: number;
  resolveCalls: number;
  /** An administrator changes a person's access to the application (the simulator's route). */
  setAccess(user: 'member' | 'personal' | 'manager', access: 'granted' | 'revoked'): Promise<void>;
  /** Pushes an event to the sockets of one workspace. */
  emitTo(subjectKey: string, event: string, payload: unknown): void;
  close(): Promise<void>;
}

export interface RigOptions {
  /** The session service's exchange happens, but its answer is lost (the outcome is unknown). */
  loseExchangeAnswers?: boolean;
  /** The host's sign-in limits (its clock is the rig's). */
  signInLimits?: AttemptLimits;
  /** Proxies whose X-Forwarded-For names the client. */
  trustedProxies?: string[];
  /** `/inter-app/`'s handler, and the host's limits of it and of its server. */
  interApp?: (req: IncomingMessage, res: ServerResponse) => Promise<void>;
  interAppLimits?: AttemptLimits;
  interAppConcurrent?: number;
  serverLimits?: Partial<ServerLimits>;
  /** The pace of one person's bridge calls. */
  callPacing?: CallPacing;
  /** A studio whose uploads (`/bridge/files`) read the whole body and answer its size. */
  uploads?: boolean;
}

/** The studio routes of `uploads`: staging counts the bytes; nothing else is served. */
const countingStudio = {
  stage: async (_workspace: unknown, source: IncomingMessage) => {
    let bytes = 0;
    for await (const chunk of source) bytes += (chunk as Buffer).length;
    return { bytes };
  },
  media: () => Promise.resolve(undefined),
  exportedFile: () => undefined,
  serveObject: (_req: IncomingMessage, res: ServerResponse) => {
    res.writeHead(404).end();
    return Promise.resolve();
  },
};

export async function startRig(rigOptions: RigOptions = {}): Promise<PlatformRig> {
  const platform = await openPlatformSimulator({ prefix: 'fw-platform-host-' });
  const { root, sim, app } = platform;
  const { dataDir, rendererDir, port, origin } = await backendPlace(root);
  const secrets = new MemorySecretStore();
  const logLines: string[] = [];
  let offsetMs = 0;
  const rig = {
    renewCalls: 0,
    exchangeCalls: 0,
    resolveCalls: 0,
    held: newHeld(),
    readinessProblem: undefined,
  } as PlatformRig;
  const real = createSessionService({
    sessionBaseUrl: sim.platform.sessionBaseUrl,
    appKey: APP_KEY,
    appCredential: app.appCredential,
  });
  const service = {
    ...real,
    resolve: (id: string) => ((rig.resolveCalls += 1), real.resolve(id)),
    renew: (id: string) => real.renew(id),
    // the exchange is sent; with loseExchangeAnswers its answer is lost on the way back
    exchange: async (launchCode: string) => {
      rig.exchangeCalls += 1;
      const session = await real.exchange(launchCode);
      if (rigOptions.loseExchangeAnswers)
        throw new OutcomeUnknownError('Exchange launch code', 'fetch failed: other side closed');
      return session;
    },
  };
  const counted = { ...service, renew: (id: string) => ((rig.renewCalls += 1), service.renew(id)) };
  let workspaces: PlatformWorkspaces;
  type Listener = (event: never, payload: unknown) => void;
  const hubs = new Map<string, Set<Listener>>();
  const hubOf = (subjectKey: string) =>
    hubs.get(subjectKey) ?? hubs.set(subjectKey, new Set()).get(subjectKey)!;
  const start = async () => {
    workspaces = new PlatformWorkspaces({
      dataDir,
      workspaceDispatcher: (workspace) => fakeStudio(workspace, rig.held),
    });
    const sessions = new ServerSessions({ service: counted, secrets, now: () => Date.now() + offsetMs });
    return startPlatformHost({
      publicOrigin: origin,
      sessions,
      workspaces,
      eventsOf: (workspace) => ({
        subscribe: (listener: Listener) => {
          hubOf(workspace.subjectKey).add(listener);
          return () => hubOf(workspace.subjectKey).delete(listener);
        },
      }),
      rendererDir,
      port,
      log: (line) => logLines.push(line),
      readiness: () => Promise.resolve(rig.readinessProblem),
      ...(rigOptions.signInLimits ? { signInLimits: rigOptions.signInLimits } : {}),
      ...(rigOptions.trustedProxies ? { trustedProxies: rigOptions.trustedProxies } : {}),
      ...(rigOptions.interApp ? { interApp: rigOptions.interApp } : {}),
      ...(rigOptions.interAppLimits ? { interAppLimits: rigOptions.interAppLimits } : {}),
      ...(rigOptions.interAppConcurrent ? { interAppConcurrent: rigOptions.interAppConcurrent } : {}),
      ...(rigOptions.serverLimits ? { serverLimits: rigOptions.serverLimits } : {}),
      ...(rigOptions.callPacing ? { callPacing: rigOptions.callPacing } : {}),
      ...(rigOptions.uploads ? { studio: countingStudio } : {}),
      now: () => Date.now() + offsetMs,
    });
  };
  Object.assign(rig, {
    sim,
    dataDir,
    origin,
    secrets,
    logLines,
    host: await start(),
    async advance(seconds: number) {
      offsetMs += seconds * 1000;
      await platform.advance(seconds);
    },
    launchCode: (user: string) => platform.launchCode(user),
    setAccess: (user: string, access: 'granted' | 'revoked') => platform.setAccess(user, access),
    emitTo(subjectKey: string, event: string, payload: unknown) {
      for (const listener of hubOf(subjectKey)) listener(event as never, payload);
    },
    async restartHost() {
      await rig.host.close();
      await workspaces.close();
      rig.host = await start();
    },
    async close() {
      await rig.host.close();
      await workspaces.close();
      await sim.close();
    },
  });
  return closeWhenDone(rig);
}

/** A page of the public origin: keeps its cookie and CSRF token as a browser tab would. */
export class Page {
  cookie = '';
  csrf = '';
  answers: string[] = [];
  constructor(private readonly rig: PlatformRig) {}

  async request(
    pathname: string,
    init: { method?: string; body?: unknown; headers?: Record<string, string> } = {},
  ) {
    const headers: Record<string, string> = {
      Origin: this.rig.origin,
      // one connection per request: a restarted host must not meet a pooled socket of the old one
      Connection: 'close',
      ...(this.cookie ? { Cookie: this.cookie } : {}),
      ...(this.csrf ? { 'X-Framewright-CSRF': this.csrf } : {}),
      ...(init.body === undefined ? {} : { 'Content-Type': 'application/json' }),
      ...init.headers,
    };
    const response = await fetch(`${this.rig.origin}${pathname}`, {
      method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
      headers,
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
    const text = await response.text();
    this.answers.push(text, JSON.stringify([...response.headers]));
    const setCookie = response.headers.get('set-cookie');
    if (setCookie) this.cookie = setCookie.split(';')[0]!.endsWith('=') ? '' : setCookie.split(';')[0]!;
    const json = response.headers.get('content-type')?.startsWith('application/json');
    return {
      status: response.status,
      // eslint-disable-next-line @typescript-eslint/no-explicit-any -- any answer of the host, read by the tests
      body: (json ? JSON.parse(text) : text) as any,
      setCookie,
    };
  }

  /** Opens a launch link as the page does, the person confirming whom it signs in when asked. */
  async open(launchCode: string) {
    let answer = await this.request('/platform/session', { body: { launchCode } });
    if (answer.status === 409 && answer.body.error.code === 'platform.signin_confirm')
      answer = await this.request('/platform/session', {
        body: { confirmToken: answer.body.error.details.confirmToken, confirm: true },
      });
    if (answer.status === 200) this.csrf = answer.body.result.csrfToken;
    return answer;
  }

  invoke(method: string, params?: unknown) {
    return this.request('/bridge/invoke', { body: { method, params } });
  }
}
