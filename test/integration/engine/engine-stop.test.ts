/**
 * Closing the app while jobs run: the engine stops at once (its waits end, nothing is half
 * recorded), the journal keeps every unfinished job, and the next start finishes each of them
 * without creating anything twice.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CoreParts, CorePartsOptions } from '../../../src/main/core/app/core-parts.js';
import { ENGINE_STOPPED } from '../../../src/main/core/jobs/engine-stopped.js';
import type { RunningSimulator } from '../../../src/simulator/index.js';
import { createdPerKey, setScenario } from '../../support/engine-harness.js';
import { FAST_ENGINE, openDesktopCore } from '../../support/worlds/desktop-core.js';
import { openSimulator } from '../../support/worlds/simulator.js';
import { tempFolder } from '../../support/worlds/temp-folder.js';

let sim: RunningSimulator;

beforeAll(async () => {
  sim = await openSimulator();
});
afterAll(async () => {
  await sim.close();
});

/** Waits long enough that a close which waited for them would time the test out. */
const MINUTE_WAITS: NonNullable<CorePartsOptions['engine']> = {
  pollBackoff: { initialMs: 60_000, maxMs: 60_000, factor: 1, jitter: 0 },
  create: { maxAttempts: 5, backoff: { initialMs: 60_000, maxMs: 60_000, factor: 1, jitter: 0 } },
  download: { retryDelayMs: 60_000 },
};

const body = (prompt: string) => ({
  model: 'h3-video',
  generationMode: 't2v',
  prompt,
  orientation: 'landscape',
  seconds: 5,
  resolutionTier: '768p',
  seed: 11,
});

async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 400 && !check(); i += 1) await new Promise((r) => setTimeout(r, 25));
  expect(check()).toBe(true);
}

function submit(core: CoreParts, key: string) {
  return core.engine.submit(
    {
      idempotencyKey: key,
      profileId: 'simulator',
      model: 'h3-video',
      serviceKind: 'video_generation',
      body: body(`A lighthouse at dusk (${key})`),
    },
    { waitSeconds: 600 },
  );
}

describe('stopping the engine when the app closes', () => {
  it('a job being polled: close returns at once, the job stays accepted, the next start finishes it once', async () => {
    const dataDir = tempFolder('fw-stop-');
    const first = await openDesktopCore(sim, { dataDir, engine: MINUTE_WAITS });
    const run = submit(first, 'stop-while-polling');
    await until(() => first.journal.jobs.getIntent('stop-while-polling')?.state === 'accepted');

    await first.close();
    const result = await run;
    expect(result.state).toBe('pending');
    expect(result.state === 'pending' && result.reason).toMatch(/closing/);

    const second = await openDesktopCore(sim, { dataDir, engine: FAST_ENGINE });
    const unfinished = second.journal.jobs.listUnfinished();
    expect(unfinished.jobsToPoll.map((j) => j.intentId)).toHaveLength(1);
    const resumed = await second.engine.resume({ waitSeconds: 120 });
    expect(resumed.errors).toEqual([]);
    expect(resumed.results.map((r) => r.state)).toEqual(['succeeded']);
    await second.close();
    expect((await createdPerKey(sim.baseUrl, sim.token)).get('stop-while-polling')).toBe(1);
  });

  it('a create waiting out a 503: close ends the wait, the intent is kept and sent again with the same key at the next start', async () => {
    const dataDir = tempFolder('fw-stop-');
    let retries = 0;
    const first = await openDesktopCore(sim, {
      dataDir,
      engine: { ...MINUTE_WAITS, create: { ...MINUTE_WAITS.create, onRetry: () => (retries += 1) } },
    });
    await setScenario(sim.baseUrl, sim.token, 'unavailable');
    try {
      const run = submit(first, 'stop-while-retrying');
      await until(() => retries === 1); // answered 503, now waiting a minute before the next try
      await first.close();
      const result = await run;
      expect(result.state).toBe('pending');
    } finally {
      await setScenario(sim.baseUrl, sim.token, null);
    }
    expect(retries).toBe(1);
    expect((await createdPerKey(sim.baseUrl, sim.token)).get('stop-while-retrying') ?? 0).toBe(0);

    const second = await openDesktopCore(sim, { dataDir, engine: FAST_ENGINE });
    const resumed = await second.engine.resume({ waitSeconds: 120 });
    expect(resumed.results.map((r) => r.state)).toEqual(['succeeded']);
    await second.close();
    expect((await createdPerKey(sim.baseUrl, sim.token)).get('stop-while-retrying')).toBe(1);
  });

  it('after the stop nothing new is recorded or sent', async () => {
    const core = await openDesktopCore(sim, { engine: FAST_ENGINE });
    await core.engine.stop();
    await expect(submit(core, 'after-stop')).rejects.toMatchObject({ code: ENGINE_STOPPED });
    expect(core.journal.jobs.getIntent('after-stop')).toBeUndefined();
    await core.close();
    expect((await createdPerKey(sim.baseUrl, sim.token)).has('after-stop')).toBe(false);
  });
});
