/**
 * The desktop core's worlds: its opened parts over a simulator the test owns (`openDesktopCore`),
 * or the whole app core over its own embedded simulator, called as the renderer calls it
 * (`openStudioCore`). Both on a fresh data folder; both closed, and the folder removed, when done.
 */
import { createAppCore, type AppCore } from '../../../src/main/core/app/app-core.js';
import {
  openCoreParts,
  type CoreParts,
  type CorePartsOptions,
} from '../../../src/main/core/app/core-parts.js';
import { defaultSimulatorLauncher } from '../../../src/main/core/app/default-simulator-launcher.js';
import { UnavailableSecretStore } from '../../../src/main/core/secrets/unavailable-secret-store.js';
import type { SecretStore } from '../../../src/main/core/secrets/secret-store.js';
import { BROWSER_HOST } from '../../../src/main/core/library/studio-host.js';
import type { RunningSimulator } from '../../../src/simulator/index.js';
import { MemorySecretStore } from '../../unit/secrets/fakes.js';
import { closeWhenDone } from './cleanup.js';
import { tempFolder } from './temp-folder.js';

/** Fast timings for tests: the engine's loops keep their shape, only the waits shrink. */
export const FAST_ENGINE: NonNullable<CorePartsOptions['engine']> = {
  pollBackoff: { initialMs: 50, maxMs: 200, factor: 1.5, jitter: 0.1 },
  create: { backoff: { initialMs: 50, maxMs: 300, factor: 2, jitter: 0.1 } },
  download: { retryDelayMs: 20 },
};

/** The core's parts on a fresh (or the given) data folder whose "simulator" profile is `sim`. */
export async function openDesktopCore(
  sim: RunningSimulator,
  options: { dataDir?: string; secretStore?: SecretStore; engine?: CorePartsOptions['engine'] } = {},
): Promise<CoreParts> {
  const parts = await openCoreParts({
    dataDir: options.dataDir ?? tempFolder(),
    // the test owns the simulator: the core must not close it
    launchSimulator: async () => ({ ...sim, close: async () => undefined }),
    secretStore: options.secretStore ?? new UnavailableSecretStore('tests use the simulator token'),
    engine: options.engine ?? FAST_ENGINE,
  });
  return closeWhenDone(parts);
}

export interface StudioCore {
  core: AppCore;
  /** One bridge call, as the renderer makes it; a refusal rejects with the error's code. */
  call<T = unknown>(method: string, params: unknown): Promise<T>;
  /** The embedded simulator's own record of the caller's idempotency keys. */
  serverKeys(): Promise<{ operation: string; idempotencyKey: string; created: number; replays: number }[]>;
  close(): Promise<void>;
}

/** A real app core over a fresh data folder and its embedded simulator (no resume at start). */
export async function openStudioCore(prefix: string): Promise<StudioCore> {
  const dataDir = tempFolder(prefix);
  const core = await createAppCore({
    dataDir,
    host: BROWSER_HOST,
    launchSimulator: defaultSimulatorLauncher(dataDir, 0.02),
    secretStore: new MemorySecretStore(),
    resumeOnStart: false,
  });
  return closeWhenDone({
    core,
    async call<T>(method: string, params: unknown): Promise<T> {
      const response = await core.dispatcher.dispatch(method, params);
      if (!response.ok) throw Object.assign(new Error(response.error.message), response.error);
      return response.result as T;
    },
    async serverKeys() {
      const running = await core.services.simulator.get();
      const res = await fetch(`${running.baseUrl}/_simulator/idempotency`, {
        headers: { authorization: `Bearer ${running.token}` },
      });
      const body = (await res.json()) as {
        data: { operation: string; idempotencyKey: string; created: number; replays: number }[];
      };
      return body.data;
    },
    close: () => core.close(),
  });
}
