import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openCoreParts, type CoreParts, type CorePartsOptions } from '../../src/main/core/app/core-parts.js';
import type { SubmitRequest } from '../../src/main/core/jobs/job-engine.js';
import { UnavailableSecretStore } from '../../src/main/core/secrets/unavailable-secret-store.js';
import type { SecretStore } from '../../src/main/core/secrets/secret-store.js';
import { startSimulator, type RunningSimulator, type SimulatorOptions } from '../../src/simulator/index.js';

/** Fast timings for tests: the engine's loops keep their shape, only the waits shrink. */
export const FAST_ENGINE: NonNullable<CorePartsOptions['engine']> = {
  pollBackoff: { initialMs: 50, maxMs: 200, factor: 1.5, jitter: 0.1 },
  create: { backoff: { initialMs: 50, maxMs: 300, factor: 2, jitter: 0.1 } },
  download: { retryDelayMs: 20 },
};

export async function startTestSimulator(options: SimulatorOptions = {}): Promise<RunningSimulator> {
  return startSimulator({ port: 0, timeScale: 0.02, ...options });
}

export function tempDir(prefix = 'fw-test-'): string {
  return mkdtempSync(path.join(os.tmpdir(), prefix));
}

/** A core on a fresh data dir whose "simulator" profile is the given running simulator. */
export async function openTestCore(
  sim: RunningSimulator,
  options: { dataDir?: string; secretStore?: SecretStore; engine?: CorePartsOptions['engine'] } = {},
): Promise<CoreParts> {
  return openCoreParts({
    dataDir: options.dataDir ?? tempDir(),
    // the test owns the simulator: the core must not close it
    launchSimulator: async () => ({ ...sim, close: async () => undefined }),
    secretStore: options.secretStore ?? new UnavailableSecretStore('tests use the simulator token'),
    engine: options.engine ?? FAST_ENGINE,
  });
}

/** The simulator's own count of jobs created per idempotency key (its inspection route). */
export async function createdPerKey(baseUrl: string, token: string): Promise<Map<string, number>> {
  const response = await fetch(`${baseUrl}/_simulator/idempotency`, {
    headers: { authorization: `Bearer ${token}` },
  });
  const body = (await response.json()) as {
    data: { idempotencyKey: string; created: number; operation: string }[];
  };
  return new Map(body.data.map((d) => [d.idempotencyKey, d.created]));
}

export async function setScenario(baseUrl: string, token: string, scenario: string | null): Promise<void> {
  const response = await fetch(`${baseUrl}/_simulator/scenario`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ scenario }),
  });
  if (!response.ok) throw new Error(`setScenario ${scenario}: HTTP ${response.status}`);
}

/** An H3 text-to-video submission under the simulator profile (5 s, landscape, 768p). */
export function h3VideoSubmission(idempotencyKey: string, prompt: string, seed = 11): SubmitRequest {
  return {
    idempotencyKey,
    profileId: 'simulator',
    model: 'h3-video',
    serviceKind: 'video_generation',
    body: {
      model: 'h3-video',
      generationMode: 't2v',
      prompt,
      orientation: 'landscape',
      seconds: 5,
      resolutionTier: '768p',
      seed,
    },
  };
}
