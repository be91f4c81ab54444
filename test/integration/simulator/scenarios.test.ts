import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCENARIO_NAMES, startSimulator, type RunningSimulator } from '../../../src/simulator/index.js';
import { expectError, H3_BASE, startTestSimulator, type TestClient } from './client.js';

let sim: RunningSimulator;
let client: TestClient;

beforeAll(async () => {
  ({ sim, client } = await startTestSimulator({ timeScale: 0.1 }));
});
afterAll(async () => {
  await sim.close();
});

const scenario = (name: string) => ({ 'X-Simulator-Scenario': name });

describe('scenario header', () => {
  it('invalid_request 400, insufficient_balance 402, idempotency_conflict 409 on writes; reads unaffected', async () => {
    expectError(
      await client.post('/media/generations', H3_BASE, scenario('invalid_request')),
      400,
      'invalid_request',
    );
    const balance = await client.post('/media/generations', H3_BASE, scenario('insufficient_balance'));
    expectError(balance, 402, 'insufficient_balance');
    expect(balance.data.retryable).toBe(false);
    expectError(
      await client.post('/media/generations', H3_BASE, {
        ...scenario('idempotency_conflict'),
        'Idempotency-Key': 'k',
      }),
      409,
      'idempotency_conflict',
    );
    expectError(
      await client.post(
        '/embeddings',
        { model: 'vector-embed', input: 'x' },
        scenario('insufficient_balance'),
      ),
      402,
    );
    expect((await client.get('/services', scenario('insufficient_balance'))).status).toBe(200);
    expect((await client.get('/_simulator/idempotency')).data.data).toEqual([]);
  });

  it('each scenario answers only where the spec gives it meaning: no 409 on chat or preview, no 402 on preview or uploads', async () => {
    const chat = { model: 'atlas-chat', messages: [{ role: 'user', content: 'hi' }] };
    const ok = await client.post('/chat/completions', chat, scenario('idempotency_conflict'));
    expect(ok.status).toBe(200);
    expectError(await client.post('/chat/completions', chat, scenario('insufficient_balance')), 402);
    const preview = { model: 'h3-video', request: H3_BASE };
    expect((await client.post('/admission/preview', preview, scenario('idempotency_conflict'))).status).toBe(
      200,
    );
    expect((await client.post('/admission/preview', preview, scenario('insufficient_balance'))).status).toBe(
      200,
    );
    expectError(await client.post('/admission/preview', preview, scenario('invalid_request')), 400);
    expectError(
      await client.post(
        '/media/prompt-optimizations',
        { clientRequestId: 'scoped-409-1', model: 'h3-video' },
        { ...scenario('idempotency_conflict'), 'Idempotency-Key': 'scoped-409-1' },
      ),
      409,
      'idempotency_conflict',
    );
  });

  it('/openapi.json lists, per operation, the scenarios that change its answer', async () => {
    const doc = (await client.get('/openapi.json')).data;
    const of = (path: string, method: string) => doc.paths[path][method]['x-simulator-scenarios'] as string[];
    expect(of('/chat/completions', 'post')).toEqual([
      'invalid_request',
      'insufficient_balance',
      'rate_limited',
      'unavailable',
      'gateway_timeout',
    ]);
    expect(of('/admission/preview', 'post')).not.toContain('insufficient_balance');
    expect(of('/admission/preview', 'post')).not.toContain('idempotency_conflict');
    // every scenario but the platform runtime's job_recovery_unavailable (no recovery reference here)
    expect(of('/media/generations', 'post')).toEqual(
      SCENARIO_NAMES.filter((name) => name !== 'job_recovery_unavailable'),
    );
    expect(of('/services', 'get')).toEqual(['rate_limited', 'unavailable', 'gateway_timeout']);
  });

  it('rate_limited 429 and unavailable 503 carry Retry-After and retryable, on reads and writes', async () => {
    const limited = await client.post('/media/generations', H3_BASE, scenario('rate_limited'));
    expectError(limited, 429, 'rate_limited');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(limited.data.retryable).toBe(true);
    const down = await client.get('/services', scenario('unavailable'));
    expectError(down, 503, 'service_unavailable');
    expect(Number(down.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(down.data.retryable).toBe(true);
  });

  it('gateway_timeout answers 504 after a delay scaled by the time scale', async () => {
    const started = performance.now();
    const res = await client.post('/media/generations', H3_BASE, scenario('gateway_timeout'));
    const elapsed = performance.now() - started;
    expectError(res, 504, 'gateway_timeout');
    expect(elapsed).toBeGreaterThanOrEqual(30 * 0.1 * 1000 - 20);
  });

  it('job_failed and job_failed_retryable: accepted (202), then failed with errorCode, errorMessage, statusCode, retryable', async () => {
    for (const [name, retryable] of [
      ['job_failed', false],
      ['job_failed_retryable', true],
    ] as const) {
      const res = await client.post('/media/generations', H3_BASE, scenario(name));
      expect(res.status).toBe(202);
      expect(res.data.status).toBe('queued');
      const { job, seen } = await client.waitJob(res.data.jobUrl);
      // Polled every 25 ms: a loaded machine may miss the short queued or running phase, never
      // the order and never the end.
      expect(seen).toEqual(['queued', 'running', 'failed'].filter((status) => seen.includes(status)));
      expect(seen.at(-1)).toBe('failed');
      expect(job.status).toBe('failed');
      expect(job.retryable).toBe(retryable);
      expect(job.errorCode).toEqual(expect.any(String));
      expect(job.errorMessage).toEqual(expect.any(String));
      expect(job.statusCode).toBeGreaterThanOrEqual(400);
      expect(job.outputs).toBeUndefined();
    }
  });

  it('an unknown scenario name is 400 listing the known ones', async () => {
    const res = await client.get('/services', scenario('meteor_strike'));
    expectError(res, 400, 'unknown_scenario');
    expect(res.data.details.known).toEqual([...SCENARIO_NAMES]);
    expect(SCENARIO_NAMES).toEqual([
      'invalid_request',
      'insufficient_balance',
      'idempotency_conflict',
      'rate_limited',
      'unavailable',
      'gateway_timeout',
      'dropped_connection',
      'job_failed',
      'job_failed_retryable',
      'job_recovery_unavailable',
    ]);
  });
});

describe('scenario switch', () => {
  it('the admin route sets, reads and clears the scenario; it needs a valid token', async () => {
    expect(
      (await client.as('nobody').post('/_simulator/scenario', { scenario: 'rate_limited' })).status,
    ).toBe(401);
    const set = await client.post('/_simulator/scenario', { scenario: 'unavailable' });
    expect(set.status).toBe(200);
    expect(set.data.scenario).toBe('unavailable');
    expectError(await client.get('/services'), 503, 'service_unavailable');
    expect((await client.get('/_simulator/scenario')).data.scenario).toBe('unavailable');
    expect((await client.get('/services', scenario('insufficient_balance'))).status).toBe(200);
    const bad = await client.post('/_simulator/scenario', { scenario: 'nope' });
    expectError(bad, 400, 'unknown_scenario');
    expect(bad.data.details.known).toContain('dropped_connection');
    expect((await client.post('/_simulator/scenario', { scenario: null })).data.scenario).toBeNull();
    expect((await client.get('/services')).status).toBe(200);
  });

  it('setScenario() switches programmatically; --scenario applies from the start', async () => {
    sim.setScenario('rate_limited');
    expect((await client.get('/models')).status).toBe(429);
    sim.setScenario(null);
    expect((await client.get('/models')).status).toBe(200);
    expect(() => sim.setScenario('bogus')).toThrow(/Known/);
    const started = await startSimulator({ timeScale: 0.01, scenario: 'insufficient_balance' });
    try {
      const res = await fetch(started.baseUrl + '/embeddings', {
        method: 'POST',
        headers: { Authorization: `Bearer ${started.token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ model: 'vector-embed', input: 'x' }),
      });
      expect(res.status).toBe(402);
    } finally {
      await started.close();
    }
    await expect(startSimulator({ scenario: 'bogus' })).rejects.toThrow(/Known/);
  });
});
