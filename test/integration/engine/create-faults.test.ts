import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { CoreParts } from '../../../src/main/core/app/core-parts.js';
import { ApiError } from '../../../src/main/core/api-clients/api-errors.js';
import type { RunningSimulator } from '../../../src/simulator/index.js';
import { createdPerKey, setScenario } from '../../support/engine-harness.js';
import { FAST_ENGINE, openDesktopCore } from '../../support/worlds/desktop-core.js';
import { openSimulator } from '../../support/worlds/simulator.js';
import { tempFolder } from '../../support/worlds/temp-folder.js';
import { openCoreParts } from '../../../src/main/core/app/core-parts.js';
import { UnavailableSecretStore } from '../../../src/main/core/secrets/unavailable-secret-store.js';

let sim: RunningSimulator;
const cores: CoreParts[] = [];

beforeAll(async () => {
  sim = await openSimulator();
});
afterEach(async () => {
  await setScenario(sim.baseUrl, sim.token, null);
});
afterAll(async () => {
  for (const core of cores) await core.close();
  await sim.close();
});

const body = (prompt: string) => ({
  model: 'h3-video',
  generationMode: 't2v',
  prompt,
  resolutionTier: '768p',
  orientation: 'landscape',
  seconds: 5,
  seed: 3,
});

/** A core whose create retries call `onRetry` (to change the scenario between attempts). */
async function coreWithRetryHook(
  onRetry: (info: { attempt: number; delayMs: number }) => void | Promise<void>,
) {
  const core = await openDesktopCore(sim, {
    engine: { ...FAST_ENGINE, create: { ...FAST_ENGINE.create, onRetry: (info) => void onRetry(info) } },
  });
  cores.push(core);
  return core;
}

const submit = (core: CoreParts, key: string, prompt = key) =>
  core.engine.submit(
    {
      profileId: 'simulator',
      model: 'h3-video',
      serviceKind: 'video_generation',
      body: body(prompt),
      idempotencyKey: key,
    },
    { waitSeconds: 60 },
  );

describe('creation faults', () => {
  it.each([
    ['rate_limited', 2],
    ['unavailable', 5],
  ] as const)('%s: waits as Retry-After says, keeps the key, creates once', async (scenario, retryAfter) => {
    const delays: number[] = [];
    const core = await coreWithRetryHook(async ({ delayMs }) => {
      delays.push(delayMs);
      // in-process and at once: the retry after this hook must meet the cleared scenario (over HTTP
      // the clearing raced the 50 ms backoff under load, and the retry was dropped a second time)
      sim.setScenario(null);
    });
    await setScenario(sim.baseUrl, sim.token, scenario);
    const key = `fault-${scenario}`;
    const result = await submit(core, key);
    expect(result.state).toBe('succeeded');
    expect(delays).toHaveLength(1);
    expect(delays[0]).toBeGreaterThanOrEqual(retryAfter * 1000);
    expect(delays[0]).toBeLessThanOrEqual(retryAfter * 1000 * 1.25);
    expect(core.journal.jobs.getIntent(key)!.attemptCount).toBe(2);
    expect((await createdPerKey(sim.baseUrl, sim.token)).get(key)).toBe(1);
  });

  it.each(['gateway_timeout', 'dropped_connection'])(
    '%s: the outcome is unknown, so the same key and body are replayed and one job exists',
    async (scenario) => {
      const states: string[] = [];
      const key = `fault-${scenario}`;
      const core = await coreWithRetryHook(async () => {
        states.push(core.journal.jobs.getIntent(key)!.state);
        sim.setScenario(null);
      });
      await setScenario(sim.baseUrl, sim.token, scenario);
      const before = core.journal.jobs.getIntent(key);
      expect(before).toBeUndefined();
      const result = await submit(core, key);
      expect(result.state).toBe('succeeded');
      expect(states).toEqual(['unknown']);
      const intent = core.journal.jobs.getIntent(key)!;
      expect(intent.attemptCount).toBe(2);
      expect(JSON.parse(intent.canonicalBodyJson)).toEqual(body(key));
      expect((await createdPerKey(sim.baseUrl, sim.token)).get(key)).toBe(1);
    },
  );

  it.each([
    ['insufficient_balance', 'balance', 402],
    ['idempotency_conflict', 'conflict', 409],
    ['invalid_request', 'invalid_request', 400],
  ] as const)('%s: surfaced once, with its own kind, never retried', async (scenario, kind, status) => {
    let retries = 0;
    const core = await coreWithRetryHook(() => {
      retries += 1;
    });
    await setScenario(sim.baseUrl, sim.token, scenario);
    const key = `fault-${scenario}`;
    const error = await submit(core, key).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).kind).toBe(kind);
    expect((error as ApiError).status).toBe(status);
    expect((error as ApiError).requestId).toBeTruthy();
    expect(retries).toBe(0);
    const intent = core.journal.jobs.getIntent(key)!;
    expect(intent.state).toBe('rejected');
    expect(intent.attemptCount).toBe(1);
    expect(intent.statusCode).toBe(status);
    // resume never re-sends a rejected intent
    await setScenario(sim.baseUrl, sim.token, null);
    await core.engine.resume({ waitSeconds: 5 });
    expect((await createdPerKey(sim.baseUrl, sim.token)).get(key) ?? 0).toBe(0);
  });

  it('401: a wrong identity is refused once and named as an identity problem', async () => {
    const core = await openCoreParts({
      dataDir: tempFolder(),
      launchSimulator: async () => ({ ...sim, token: 'not-a-known-token', close: async () => undefined }),
      secretStore: new UnavailableSecretStore('tests'),
      engine: FAST_ENGINE,
    });
    cores.push(core);
    const error = (await submit(core, 'fault-401').catch((e: unknown) => e)) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.kind).toBe('identity');
    expect(error.message).toMatch(/key or token was refused/);
    expect(core.journal.jobs.getIntent('fault-401')!.attemptCount).toBe(1);
  });

  it.each([
    ['job_failed', false],
    ['job_failed_retryable', true],
  ] as const)('%s: the failure is kept with its ids and never re-created', async (scenario, retryable) => {
    const core = await coreWithRetryHook(() => undefined);
    await setScenario(sim.baseUrl, sim.token, scenario);
    const key = `fault-${scenario}`;
    const result = await submit(core, key);
    await setScenario(sim.baseUrl, sim.token, null);
    expect(result.state).toBe('failed');
    const job = result.job!;
    expect(job.status).toBe('failed');
    expect(job.jobId).toBeTruthy();
    expect(job.requestId).toBeTruthy();
    expect(job.errorCode).toBeTruthy();
    expect(job.errorMessage).toBeTruthy();
    expect(job.retryable).toBe(retryable);
    const resumed = await core.engine.resume({ waitSeconds: 5 });
    expect(resumed.results.filter((r) => r.intent.idempotencyKey === key)).toHaveLength(0);
    // submitting the same intent again returns the failed job, it does not create another
    const again = await submit(core, key);
    expect(again.state).toBe('failed');
    expect(again.job!.jobId).toBe(job.jobId);
    expect((await createdPerKey(sim.baseUrl, sim.token)).get(key)).toBe(1);
  });

  it('a poll timeout leaves the job pending and resumable; resume finishes it without resubmitting', async () => {
    const slowSim = await openSimulator({ timeScale: 0.3 });
    const core = await openDesktopCore(slowSim);
    cores.push(core);
    try {
      const result = await core.engine.submit(
        {
          profileId: 'simulator',
          model: 'h3-video',
          serviceKind: 'video_generation',
          body: body('slow'),
          idempotencyKey: 'fault-slow',
        },
        { waitSeconds: 0.5 },
      );
      expect(result.state).toBe('pending');
      expect(result.job).toBeDefined();
      expect(['queued', 'running']).toContain(result.job!.status);
      const resumed = await core.engine.resume({ waitSeconds: 60 });
      expect(resumed.results.map((r) => r.state)).toEqual(['succeeded']);
      expect((await createdPerKey(slowSim.baseUrl, slowSim.token)).get('fault-slow')).toBe(1);
    } finally {
      await slowSim.close();
    }
  });
});
