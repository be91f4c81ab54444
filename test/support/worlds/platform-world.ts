/**
 * The platform world: the simulated platform, a `serve --platform` backend and its host over it,
 * all in this process (restartable on the same data), and its signed-in people's pages. Closed,
 * and its folder removed, when done.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import {
  openPlatformBackend,
  type PlatformBackend,
} from '../../../src/main/core/platform/platform-backend.js';
import {
  DEFAULT_PLATFORM_LIMITS,
  type PlatformLimits,
  type PlatformSettings,
} from '../../../src/main/core/platform/platform-settings.js';
import type { RunningPlatformHost } from '../../../src/main/host/platform-host.js';
import { startPlatformStudio, type PlatformStudioInterApp } from '../../../src/main/host/platform-studio.js';
import type { ActiveSession } from '../../../src/main/core/platform/runtime-sessions/server-sessions.js';
import type { BridgeResponse } from '../../../src/shared/bridge/api.js';
import { PLATFORM_CSRF_HEADER } from '../../../src/shared/bridge/platform-host-protocol.js';
import type { RunningSimulator } from '../../../src/simulator/index.js';
import { closeWhenDone } from './cleanup.js';
import { APP_KEY, backendPlace, openPlatformSimulator, type PlatformUser } from './platform-simulator.js';
import { recordingProxy, type RuntimeCall } from './recording-proxy.js';
import { signInWithLaunchCode } from '../platform-sign-in.js';

export type { RuntimeCall } from './recording-proxy.js';

const FAST_POLL = { initialMs: 20, maxMs: 100, factor: 2, jitter: 0 };

/** One person's page: the cookie and CSRF token a browser would hold after the launch. */
export interface PlatformPage {
  invoke<T = unknown>(method: string, params?: unknown): Promise<BridgeResponse<T>>;
  call<T = unknown>(method: string, params?: unknown): Promise<T>;
  stage(file: string, name?: string): Promise<BridgeResponse>;
  get(pathAndQuery: string): Promise<Response>;
  cookie: string;
  csrf: string;
}

/** The simulator, a platform backend and its host, all in this process (restartable on the same data). */
export interface PlatformWorld {
  /** Every runtime request, with its session header (only with `recordRuntime`). */
  runtimeCalls: RuntimeCall[];
  /** Every session-service request (only with `recordSessions`). */
  sessionCalls: RuntimeCall[];
  sim: RunningSimulator;
  dataDir: string;
  origin: string;
  backend: PlatformBackend;
  host: RunningPlatformHost;
  logLines: string[];
  settings: PlatformSettings;
  open(user: PlatformUser): Promise<PlatformPage>;
  /** A page of an existing cookie (after a restart). */
  pageOf(cookie: string, csrf: string): PlatformPage;
  /** The server-side session behind a page's cookie (tests read the RuntimeSession from it). */
  sessionOf(page: PlatformPage): Promise<ActiveSession>;
  /** The platform's jobs of a person with this clientTaskId (an events snapshot). */
  platformJobsOf(
    page: PlatformPage,
    clientTaskId: string,
  ): Promise<{ platformJobId: string; clientTaskId: string }[]>;
  /** An administrator changes a person's access to the application. */
  setAccess(user: PlatformUser, access: 'granted' | 'revoked'): Promise<void>;
  restart(): Promise<void>;
  /** Stops the backend without a graceful stop of its work (what a killed process leaves). */
  crash(): Promise<void>;
  close(): Promise<void>;
}

export interface PlatformWorldOptions {
  /** Put a recording proxy in front of the runtime (`rig.runtimeCalls`). */
  recordRuntime?: boolean;
  /** Put a recording proxy in front of the session service (`rig.sessionCalls`). */
  recordSessions?: boolean;
  /** Limits per person and session (over the defaults). */
  limits?: Partial<PlatformLimits>;
  /** The backend's clock for the idle close. */
  now?: () => number;
  /** Configure Storyboard Helper (`FRAMEWRIGHT_STORYBOARD_HELPER_URL`: the simulator's businessBaseUrl). */
  storyboardHelper?: boolean;
  /** Put this in front of the session service instead (its base address from the simulator's). */
  sessionProxy?: (sessionBaseUrl: string) => Promise<{ base: string }>;
  /** Other applications' calls (`/inter-app/…`); absent: that prefix is 404. */
  interApp?: PlatformStudioInterApp;
}

export async function openPlatformWorld(rigOptions: PlatformWorldOptions = {}): Promise<PlatformWorld> {
  const platform = await openPlatformSimulator({ prefix: 'fw-platform-studio-' });
  const { root, sim, app } = platform;
  const { dataDir, rendererDir, port, origin } = await backendPlace(root);
  const runtimeCalls: RuntimeCall[] = [];
  const proxy = rigOptions.recordRuntime
    ? await recordingProxy(sim.platform.runtimeBaseUrl, runtimeCalls)
    : undefined;
  const sessionCalls: RuntimeCall[] = [];
  const sessionProxy = rigOptions.recordSessions
    ? await recordingProxy(sim.platform.sessionBaseUrl, sessionCalls)
    : undefined;
  const customSessionProxy = await rigOptions.sessionProxy?.(sim.platform.sessionBaseUrl);
  const storyboardHelperUrl = sim.platform.apps.find((a) => a.businessBaseUrl)?.businessBaseUrl;
  const settings: PlatformSettings = {
    runtimeBaseUrl: proxy?.base ?? sim.platform.runtimeBaseUrl,
    sessionBaseUrl: customSessionProxy?.base ?? sessionProxy?.base ?? sim.platform.sessionBaseUrl,
    ...(rigOptions.storyboardHelper && storyboardHelperUrl ? { storyboardHelperUrl } : {}),
    appKey: APP_KEY,
    appCredential: app.appCredential,
    publicOrigin: origin,
    secureCookies: false,
    ...(rigOptions.limits ? { limits: { ...DEFAULT_PLATFORM_LIMITS, ...rigOptions.limits } } : {}),
  };
  const logLines: string[] = [];
  const open = async () => {
    const backend = await openPlatformBackend({
      dataDir,
      settings,
      timing: { engine: { pollBackoff: FAST_POLL }, events: { pollBackoff: FAST_POLL } },
      ...(rigOptions.now ? { now: rigOptions.now } : {}),
    });
    const host = await startPlatformStudio(backend, {
      publicOrigin: origin,
      rendererDir,
      port,
      log: (line) => logLines.push(line),
      // a test's own callee, else the backend's (offered when Storyboard Helper is configured)
      ...(rigOptions.interApp
        ? { interApp: rigOptions.interApp }
        : backend.interApp
          ? { interApp: backend.interApp }
          : {}),
    });
    await backend.resumeAll();
    return { backend, host };
  };
  let running = await open();

  /**
   * A request as a browser sends it: one whose kept-alive connection the server had just closed
   * as idle (reset before any answer) is sent again once on a fresh connection, as Chromium does
   * for a reused socket; Node's fetch does not, and a loaded machine makes that race visible.
   */
  const browserFetch = async (url: string, init: RequestInit): Promise<Response> => {
    try {
      return await fetch(url, init);
    } catch (error) {
      const cause = (error as { cause?: { code?: string } }).cause;
      if (cause?.code !== 'ECONNRESET') throw error;
      return fetch(url, init);
    }
  };

  const pageOf = (cookie: string, csrf: string): PlatformPage => {
    const headers = { Origin: origin, Cookie: cookie, [PLATFORM_CSRF_HEADER]: csrf };
    const invoke = async <T>(method: string, params: unknown = {}) => {
      const response = await browserFetch(`${origin}/bridge/invoke`, {
        method: 'POST',
        headers: { ...headers, 'Content-Type': 'application/json' },
        body: JSON.stringify({ method, params }),
      });
      return (await response.json()) as BridgeResponse<T>;
    };
    return {
      cookie,
      csrf,
      invoke,
      async call<T>(method: string, params: unknown = {}) {
        const answer = await invoke<T>(method, params);
        if (!answer.ok) throw new Error(`${method}: ${answer.error.code} ${answer.error.message}`);
        return answer.result;
      },
      async stage(file: string, name = path.basename(file)) {
        const response = await browserFetch(`${origin}/bridge/files?name=${encodeURIComponent(name)}`, {
          method: 'POST',
          headers: { ...headers, 'Content-Type': 'application/octet-stream' },
          body: readFileSync(file),
        });
        return (await response.json()) as BridgeResponse;
      },
      get: (pathAndQuery: string) => fetch(`${origin}${pathAndQuery}`, { headers: { Cookie: cookie } }),
    };
  };

  const rig: PlatformWorld = {
    runtimeCalls,
    sessionCalls,
    sim,
    dataDir,
    origin,
    logLines,
    settings,
    get backend() {
      return running.backend;
    },
    get host() {
      return running.host;
    },
    async open(user) {
      const launchCode = await platform.launchCode(user);
      const { json, cookie } = await signInWithLaunchCode(origin, launchCode);
      if (!json.result) throw new Error(`sign-in failed for ${user}`);
      return pageOf(cookie, json.result.csrfToken);
    },
    pageOf,
    async sessionOf(page) {
      const session = await running.backend.sessions.current(page.cookie.split('=')[1]);
      if (session.status !== 'active') throw new Error('no active session');
      return session;
    },
    async platformJobsOf(page, clientTaskId) {
      const { sessionId } = await rig.sessionOf(page);
      return (await platform.jobsOfSession(sessionId)).filter((j) => j.clientTaskId === clientTaskId);
    },
    setAccess: (user, access) => platform.setAccess(user, access),
    async restart() {
      await running.host.close();
      await running.backend.close();
      running = await open();
    },
    async crash() {
      // the sockets go at once and nothing is finished; the journal and secrets stay as they were
      await running.host.close();
      await running.backend.close();
    },
    async close() {
      await running.host.close().catch(() => undefined);
      await running.backend.close().catch(() => undefined);
      await proxy?.close();
      await sessionProxy?.close();
      await sim.close();
    },
  };
  return closeWhenDone(rig);
}

/**
 * A text-to-video draft form as a person's page sends it on the platform (the platform ignores the
 * profile: a workspace has one backend): for the platform tests and the platform bench.
 */
export const PLATFORM_T2V_FORM = {
  profileId: 'ignored-by-the-platform',
  model: 'h3-video',
  generationMode: 't2v',
  prompt: 'A lighthouse at dusk, waves rolling in',
  orientation: 'landscape',
  seconds: 5,
  resolutionTier: '768p',
  seed: null,
  references: [],
} as const;
