import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { AssetStore } from './assets/asset-store.js';
import { SimClock } from './clock.js';
import type { SimulatorState } from './context.js';
import { IdempotencyStore } from './idempotency.js';
import { FIXED_LOCAL_TEST_TOKEN, IdentityRegistry } from './identities.js';
import { JobRunner, type JobRunnerHooks } from './jobs/job-runner.js';
import { JobStore, type StoredJob } from './jobs/job-store.js';
import { executeRenderTask } from './jobs/render-tasks.js';
import { killRunningTools } from './media/ffmpeg.js';
import { RenderCache } from './media/render-cache.js';
import { StateLog } from './persistence.js';
import { platformInfo, type PlatformInfo } from './platform/info.js';
import { createPlatformState } from './platform/state.js';
import { parseScenario, type ScenarioName } from './scenarios.js';
import { checkBindAddress, isLoopbackAddress, loopbackHostGuard } from './host-policy.js';
import { createRequestHandler } from './server.js';

export { FIXED_LOCAL_TEST_TOKEN } from './identities.js';
export { SCENARIO_NAMES, type ScenarioName } from './scenarios.js';
export type { PlatformInfo } from './platform/info.js';

export interface SimulatorOptions {
  /** Bind address; loopback by default. Another address is refused unless `allowRemote`. */
  host?: string;
  /** Allows a bind address reachable from other machines (the local test token is public). */
  allowRemote?: boolean;
  /** 0 (default) picks a free port. */
  port?: number;
  /** Extra bearer tokens; each is its own identity besides the fixed local test token. */
  tokens?: string[];
  /** Multiplies job pacing: 1 = demo pacing (seconds per job); tests use e.g. 0.01. */
  timeScale?: number;
  /** Scenario active from the start. */
  scenario?: string;
  /** Where uploads and rendered outputs are written; a temporary folder (removed on close) by default. */
  dataDir?: string;
  /**
   * Where rendered outputs are kept, content-addressed by their render plan (default: `outputs/`
   * under the data folder). Simulators sharing one folder render each plan once between them —
   * the test suite points every simulator it starts at one folder per run
   * (`FRAMEWRIGHT_SIMULATOR_RENDER_CACHE`).
   */
  renderCacheDir?: string;
  /**
   * Business base addresses of fixture applications by appKey (default `{origin}/apps/{appKey}`):
   * where the online debugging relay forwards a debug call (tests point it at a local server).
   */
  businessTargets?: Record<string, string>;
}

export interface RunningSimulator {
  /** `http://127.0.0.1:PORT/v1` */
  baseUrl: string;
  /** The fixed local test token. */
  token: string;
  /** The Application Platform surfaces on the same port (the `platform` object of `--json`). */
  platform: PlatformInfo;
  close(): Promise<void>;
  /** Sets (or clears with null) the scenario; throws for an unknown name. */
  setScenario(name: string | null): void;
}

let running = 0;

function urlHost(host: string): string {
  if (host === '0.0.0.0' || host === '::' || host === '') return '127.0.0.1';
  return host.includes(':') ? `[${host}]` : host;
}

/** Starts the simulator of the Public Model and Media API on a real HTTP server. */
export async function startSimulator(options: SimulatorOptions = {}): Promise<RunningSimulator> {
  const host = options.host ?? '127.0.0.1';
  checkBindAddress(host, options.allowRemote ?? false);
  const timeScale = options.timeScale ?? 1;
  if (!Number.isFinite(timeScale) || timeScale < 0)
    throw new Error(`timeScale must be a non-negative number (got ${timeScale}).`);
  const initialScenario = options.scenario ? parseScenario(options.scenario) : null;
  const ownsDir = !options.dataDir;
  const root = options.dataDir
    ? path.resolve(options.dataDir)
    : await mkdtemp(path.join(os.tmpdir(), 'framewright-sim-'));
  const dirs = {
    root,
    uploads: path.join(root, 'uploads'),
    outputs: path.join(root, 'outputs'),
    tmp: path.join(root, 'tmp'),
  };
  await Promise.all([dirs.uploads, dirs.outputs, dirs.tmp].map((dir) => mkdir(dir, { recursive: true })));

  const clock = new SimClock();
  const hooks: JobRunnerHooks = {
    execute: (job) => executeRenderTask(state, job, job.task),
    changed: (job) => {
      state.log?.job(job);
      state.platform.jobChanged(job);
    },
  };
  const state: SimulatorState = {
    baseUrl: '',
    timeScale,
    clock,
    identities: new IdentityRegistry(options.tokens ?? []),
    assets: new AssetStore(),
    jobs: new JobStore(),
    idempotency: new IdempotencyStore(),
    optimizations: new Map(),
    runner: new JobRunner(clock, timeScale, hooks),
    renders: new RenderCache(
      options.renderCacheDir ?? process.env.FRAMEWRIGHT_SIMULATOR_RENDER_CACHE ?? dirs.outputs,
    ),
    dirs,
    scenario: initialScenario,
    platform: createPlatformState(clock, ownsDir ? undefined : root),
  };
  if (options.businessTargets) state.platform.businessTargets = { ...options.businessTargets };
  // A given data folder keeps the state across restarts; a temporary one lives as long as the process.
  const pending: StoredJob[] = [];
  if (!ownsDir) {
    state.log = new StateLog(path.join(root, 'state.jsonl'));
    pending.push(...state.log.restore(state));
  }
  const handler = createRequestHandler(state);
  // on loopback, only requests that name it by a loopback address reach a route (DNS rebinding)
  const hostIsOurs = isLoopbackAddress(host)
    ? loopbackHostGuard(host, () => (server.address() as AddressInfo).port)
    : () => true;
  const server: Server = createServer((req, res) => {
    if (hostIsOurs(req, res)) handler(req, res);
  });
  server.keepAliveTimeout = 5000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  running += 1;
  const address = server.address() as AddressInfo;
  state.baseUrl = `http://${urlHost(host)}:${address.port}/v1`;
  for (const job of pending) {
    job.pollSeconds = state.runner.pollSeconds(job.pacing);
    state.runner.run(job);
  }

  let closed = false;
  return {
    baseUrl: state.baseUrl,
    token: FIXED_LOCAL_TEST_TOKEN,
    platform: platformInfo(state.baseUrl),
    setScenario(name: string | null) {
      state.scenario = name === null ? null : (parseScenario(name) as ScenarioName);
    },
    async close() {
      if (closed) return;
      closed = true;
      running -= 1;
      state.runner.close();
      if (running === 0) killRunningTools();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      if (ownsDir) await rm(root, { recursive: true, force: true });
    },
  };
}
