import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createAppCore, type AppCore } from '../../src/main/core/app/app-core.js';
import { defaultSimulatorLauncher } from '../../src/main/core/app/default-simulator-launcher.js';
import type { DraftForm } from '../../src/shared/bridge/contract.js';
import { MemorySecretStore } from '../unit/secrets/fakes.js';
import { BROWSER_HOST } from '../../src/main/core/studio/studio-host.js';

/** A valid text-to-video draft form of the simulator profile. */
export function t2vForm(model: string, prompt: string, seed: number): DraftForm {
  return {
    profileId: 'simulator',
    model,
    generationMode: 't2v',
    prompt,
    orientation: 'landscape',
    seconds: 5,
    resolutionTier: '768p',
    seed,
    references: [],
  };
}

export interface StudioCore {
  core: AppCore;
  /** One bridge call, as the renderer makes it; a refusal rejects with the error's code. */
  call<T = unknown>(method: string, params: unknown): Promise<T>;
  /** The embedded simulator's own record of the caller's idempotency keys. */
  serverKeys(): Promise<{ operation: string; idempotencyKey: string; created: number; replays: number }[]>;
  close(): Promise<void>;
}

/** A real app core over a temporary data folder and its embedded simulator (no resume at start). */
export async function openStudioCore(prefix: string): Promise<StudioCore> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), prefix));
  const core = await createAppCore({
    dataDir,
    host: BROWSER_HOST,
    launchSimulator: defaultSimulatorLauncher(dataDir, 0.02),
    secretStore: new MemorySecretStore(),
    resumeOnStart: false,
  });
  return {
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
    async close() {
      await core.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
