import { writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { codePointLength, codePointString } from '../../../src/shared/api/common.js';
import { PublicError } from '../../../src/shared/api/errors.js';
import { ReferenceInput } from '../../../src/shared/api/media-jobs.js';
import { PromptOptimizationRequest } from '../../../src/shared/api/prompt-optimization.js';
import { RerankRequest } from '../../../src/shared/api/rerank.js';
import { embed, lexicalScores, tokens } from '../../../src/simulator/fake-data.js';
import { canonicalJson, isVisibleAscii } from '../../../src/simulator/http.js';
import { IdempotencyStore, bodyHash } from '../../../src/simulator/idempotency.js';
import { IdentityRegistry, FIXED_LOCAL_TEST_TOKEN } from '../../../src/simulator/identities.js';
import { RenderCache } from '../../../src/simulator/media/render-cache.js';
import { wrapText } from '../../../src/simulator/media/text-card.js';
import { optimizePrompt } from '../../../src/simulator/routes/prompt-optimization.js';
import {
  EVERY_ROUTE_SCENARIOS,
  parseScenario,
  ROUTE_SCOPED_SCENARIOS,
  scenarioError,
  scenariosOnRoute,
  SCENARIO_NAMES,
} from '../../../src/simulator/scenarios.js';
import { tempFolder } from '../../support/worlds/temp-folder.js';

describe('code points', () => {
  it('counts astral characters once', () => {
    expect(codePointLength('𝒜𝒜a')).toBe(3);
    expect('𝒜𝒜a'.length).toBe(5);
    const schema = codePointString({ min: 1, max: 3, trim: true });
    expect(schema.safeParse('  𝒜𝒜𝒜  ').success).toBe(true);
    expect(schema.safeParse('𝒜𝒜𝒜𝒜').success).toBe(false);
    expect(schema.safeParse('   ').success).toBe(false);
  });
});

describe('strict shapes', () => {
  it('PublicError, reference items and optimization requests refuse extra properties', () => {
    expect(PublicError.safeParse({ code: 'x', message: 'm', requestId: 'r', retryable: false }).success).toBe(
      true,
    );
    expect(
      PublicError.safeParse({ code: 'x', message: 'm', requestId: 'r', retryable: false, status: 400 })
        .success,
    ).toBe(false);
    expect(ReferenceInput.safeParse({ role: 'reference_image', assetId: 'a', url: 'u' }).success).toBe(false);
    const request = {
      clientRequestId: 'abcdefgh',
      model: 'm',
      generationMode: 't2v',
      originalPrompt: 'p',
      mediaSpec: {},
      referenceInputs: [],
    };
    expect(PromptOptimizationRequest.safeParse(request).success).toBe(true);
    expect(PromptOptimizationRequest.safeParse({ ...request, extra: 1 }).success).toBe(false);
  });

  it('rerank totals query plus documents in code points', () => {
    const docs = Array.from({ length: 8 }, () => 'd'.repeat(8192));
    expect(RerankRequest.safeParse({ model: 'm', query: 'q', documents: docs }).success).toBe(false);
    expect(RerankRequest.safeParse({ model: 'm', query: 'q', documents: docs.slice(0, 7) }).success).toBe(
      true,
    );
  });
});

describe('fake data', () => {
  it('embeddings are deterministic unit vectors', () => {
    const a = embed('hello');
    expect(a).toHaveLength(256);
    expect(Math.hypot(...a)).toBeCloseTo(1, 12);
    expect(embed('hello')).toEqual(a);
    expect(embed('hello!')).not.toEqual(a);
  });

  it('lexical scores rank term overlap, 0 without overlap, within [0, 1)', () => {
    expect(tokens('Héllo, 世界 42!')).toEqual(['héllo', '世界', '42']);
    const scores = lexicalScores('red fox', ['a red fox', 'a red car', 'blue sky']);
    expect(scores[0]).toBeGreaterThan(scores[1]!);
    expect(scores[1]).toBeGreaterThan(0);
    expect(scores[2]).toBe(0);
    for (const s of scores) expect(s).toBeLessThan(1);
  });
});

describe('helpers', () => {
  it('canonical JSON ignores key order; visible ASCII check', () => {
    expect(canonicalJson({ b: 1, a: [{ d: 1, c: 2 }] })).toBe(canonicalJson({ a: [{ c: 2, d: 1 }], b: 1 }));
    expect(bodyHash({ x: 1, y: 2 })).toBe(bodyHash({ y: 2, x: 1 }));
    expect(isVisibleAscii('abc-123', 512)).toBe(true);
    expect(isVisibleAscii('a b', 512)).toBe(false);
    expect(isVisibleAscii('é', 512)).toBe(false);
    expect(isVisibleAscii('a'.repeat(513), 512)).toBe(false);
  });

  it('identities: fixed token plus each extra token, distinct ids, nothing else', () => {
    const ids = new IdentityRegistry(['t1', 't2']);
    const fixed = ids.resolve(`Bearer ${FIXED_LOCAL_TEST_TOKEN}`)!;
    const t1 = ids.resolve('Bearer t1')!;
    expect(fixed.id).not.toBe(t1.id);
    expect(ids.resolve('Bearer t3')).toBeUndefined();
    expect(ids.resolve('t1')).toBeUndefined();
    expect(ids.resolve(undefined)).toBeUndefined();
    expect(fixed.id).not.toContain(FIXED_LOCAL_TEST_TOKEN);
  });

  it('idempotency store: replay, conflict, per-identity slots', () => {
    const store = new IdempotencyStore();
    const base = {
      identityId: 'i1',
      operation: 'media.generation' as const,
      key: 'k',
      model: 'm',
      bodyHash: 'h1',
      resourceId: 'job1',
      firstSeenMs: 0,
    };
    expect(store.lookup('i1', 'media.generation', 'k', 'h1')).toBeUndefined();
    store.remember(base);
    expect(store.lookup('i1', 'media.generation', 'k', 'h1')!.resourceId).toBe('job1');
    expect(() => store.lookup('i1', 'media.generation', 'k', 'h2')).toThrow(/different request body/);
    expect(store.lookup('i2', 'media.generation', 'k', 'h2')).toBeUndefined();
    expect(store.listFor('i1')[0]).toMatchObject({ created: 1, replays: 1 });
  });

  it('wraps text by code points with an ellipsis past the last line', () => {
    expect(wrapText('aaa bbb ccc', 7, 3)).toEqual(['aaa bbb', 'ccc']);
    const lines = wrapText('word '.repeat(100), 10, 2);
    expect(lines).toHaveLength(2);
    expect(lines[1]!.endsWith('…')).toBe(true);
    expect(wrapText('𝒜'.repeat(12), 5, 5)).toEqual(['𝒜𝒜𝒜𝒜𝒜', '𝒜𝒜𝒜𝒜𝒜', '𝒜𝒜']);
  });

  it('optimized prompts never exceed the limit and never truncate the original', () => {
    const body = {
      clientRequestId: 'abcdefgh',
      model: 'h3-video',
      generationMode: 't2v',
      originalPrompt: '',
      mediaSpec: { resolutionTier: '768p', orientation: 'landscape', seconds: 5 },
      referenceInputs: [],
    };
    for (const length of [10, 6900, 6990, 7000]) {
      const original = 'x'.repeat(length);
      const out = optimizePrompt(original, { ...body, originalPrompt: original }, 7000);
      expect(codePointLength(out.text)).toBeLessThanOrEqual(7000);
      expect(out.text.startsWith(original)).toBe(true);
    }
    expect(optimizePrompt('x'.repeat(7000), { ...body, originalPrompt: 'x' }, 7000).outcome).toBe(
      'unchanged',
    );
  });

  it('scenarios: known names, unknown is 400 listing them, which routes each affects', () => {
    const create = { method: 'POST', path: '/media/generations' };
    const services = { method: 'GET', path: '/services' };
    const upload = { method: 'POST', path: '/assets/input' };
    expect(SCENARIO_NAMES).toHaveLength(10);
    expect(() => parseScenario('x')).toThrow(/Known: invalid_request/);
    expect(scenarioError('rate_limited', services)!.status).toBe(429);
    expect(scenarioError('unavailable', upload)!.headers['Retry-After']).toBeDefined();
    expect(scenarioError('gateway_timeout', services)!.status).toBe(504);
    expect(scenarioError('insufficient_balance', services)).toBeUndefined();
    expect(scenarioError('insufficient_balance', create)!.status).toBe(402);
    expect(scenarioError('invalid_request', create)!.status).toBe(400);
    expect(scenarioError('idempotency_conflict', create)!.status).toBe(409);
    expect(scenarioError('job_failed', create)).toBeUndefined();
    expect(scenarioError('dropped_connection', create)).toBeUndefined();
    expect(scenarioError('job_recovery_unavailable', create)).toBeUndefined();
    expect(scenariosOnRoute(create)).not.toContain('job_recovery_unavailable');
  });

  it('409 only where an Idempotency-Key applies, 402 only on billed calls, 400 where fields are checked', () => {
    const post = (path: string) => ({ method: 'POST', path });
    // chat is billed but takes no Idempotency-Key: 402 and 400, never 409
    expect(scenarioError('idempotency_conflict', post('/chat/completions'))).toBeUndefined();
    expect(scenarioError('insufficient_balance', post('/chat/completions'))!.status).toBe(402);
    // the admission preview is not billed and takes no key: only 400
    expect(scenarioError('idempotency_conflict', post('/admission/preview'))).toBeUndefined();
    expect(scenarioError('insufficient_balance', post('/admission/preview'))).toBeUndefined();
    expect(scenarioError('invalid_request', post('/admission/preview'))!.status).toBe(400);
    // uploads are not billed and refuse files with 413/415/422, not 400
    for (const name of ROUTE_SCOPED_SCENARIOS)
      expect(scenarioError(name, post('/assets/input'))).toBeUndefined();
    // prompt optimization: billed and keyed
    for (const name of ROUTE_SCOPED_SCENARIOS)
      expect(scenarioError(name, post('/media/prompt-optimizations'))).toBeDefined();
    // the documented list of each route follows the table and the scenario order
    expect(scenariosOnRoute(post('/media/prompt-optimizations'))).toEqual(
      SCENARIO_NAMES.filter((name) => !name.startsWith('job_')),
    );
    expect(scenariosOnRoute({ method: 'GET', path: '/jobs/{jobId}' })).toEqual([...EVERY_ROUTE_SCENARIOS]);
  });
});

describe('render cache', () => {
  it('renders a key once even when asked concurrently, and at most `concurrency` renders at a time', async () => {
    const dir = tempFolder('fw-sim-unit-');
    const cache = new RenderCache(dir, 1);
    let running = 0;
    let peak = 0;
    let calls = 0;
    const render = async (out: string) => {
      calls += 1;
      running += 1;
      peak = Math.max(peak, running);
      await new Promise((resolve) => setTimeout(resolve, 20));
      writeFileSync(out, 'x');
      running -= 1;
    };
    const paths = await Promise.all([
      cache.produce('a', '.bin', render),
      cache.produce('a', '.bin', render),
      cache.produce('b', '.bin', render),
    ]);
    expect(paths[0]).toBe(paths[1]);
    expect(calls).toBe(2);
    expect(peak).toBe(1);
    expect(await cache.produce('a', '.bin', render)).toBe(paths[0]);
    expect(calls).toBe(2);
  });
});
