import { describe, expect, it } from 'vitest';
import type { Json } from '../client.js';
import {
  expectPlatformError,
  runtimeCall,
  type PlatformApp,
  type PlatformClient,
} from './platform-client.js';
import { usePlatformWorld } from './platform-fixture.js';
import type { LoopbackStorage } from './storage-server.js';

let client: PlatformClient;
let studio: PlatformApp;
let member: Json;
let storage: LoopbackStorage;

usePlatformWorld({ sessions: ['member'] }, (world) => {
  ({ client, studio, storage } = world);
  member = world.sessions.member!;
});

const T2V = {
  model: 'h3-video',
  serviceKind: 'video_generation',
  params: { prompt: 'A kite over a windy beach' },
  mediaSpec: { generationMode: 't2v', resolutionTier: '768p', orientation: 'landscape', seconds: 5 },
};

const dryRun = (json: unknown, headers: Record<string, string> = {}) =>
  runtimeCall(client, studio, 'POST', '/media/jobs:dry-run', { sessionId: member.sessionId, json, headers });
const scenario = (name: string) => ({ 'X-Simulator-Scenario': name });

/** A 200 refusal naming one blocker. */
function expectRefused(res: Awaited<ReturnType<typeof dryRun>>, code: string, httpStatus: number): Json {
  expect(res.status, res.text).toBe(200);
  expect(res.data.accepted).toBe(false);
  expect(res.data.admission).toEqual({ decision: 'reject', reason: code });
  const blocker = (res.data.blockers as Json[]).find((b) => b.code === code);
  expect(blocker, JSON.stringify(res.data.blockers)).toMatchObject({
    code,
    httpStatus,
    phase: expect.any(String),
    message: expect.any(String),
    retryable: expect.any(Boolean),
  });
  return blocker!;
}

describe('a dry-run refusal is a 200 accepted:false with its blockers', () => {
  it('insufficient balance: a blocker of the admission phase, with the spec and cost it would have had', async () => {
    const res = await dryRun({ ...T2V, clientTaskId: 'dry-balance' }, scenario('insufficient_balance'));
    const blocker = expectRefused(res, 'insufficient_balance', 402);
    expect(blocker.phase).toBe('admission');
    expect(res.data.estimatedCost.usage).toBe(5);
    expect(res.data.normalizedSpec).toMatchObject({ seconds: 5 });
    // the creation itself still answers the 402
    expectPlatformError(
      await runtimeCall(client, studio, 'POST', '/media/jobs', {
        sessionId: member.sessionId,
        json: { ...T2V, clientTaskId: 'dry-balance' },
        headers: scenario('insufficient_balance'),
      }),
      402,
      'insufficient_balance',
    );
  });

  it('an idempotency conflict (simulated, and a real one: the clientTaskId and key name a job of another body)', async () => {
    expectRefused(
      await dryRun({ ...T2V, clientTaskId: 'dry-conflict-sim' }, scenario('idempotency_conflict')),
      'idempotency_conflict',
      409,
    );
    const created = await runtimeCall(client, studio, 'POST', '/media/jobs', {
      sessionId: member.sessionId,
      json: { ...T2V, clientTaskId: 'dry-conflict', idempotencyKey: 'dry-key' },
    });
    expect(created.status, created.text).toBe(202);
    const other = {
      ...T2V,
      params: { prompt: 'Another kite' },
      clientTaskId: 'dry-conflict',
      idempotencyKey: 'dry-key',
    };
    const blocker = expectRefused(await dryRun(other), 'idempotency_conflict', 409);
    expect(blocker.details).toEqual({ platformJobId: created.data.platformJobId });
    // the same body is no conflict (it would replay)
    const same = await dryRun({ ...T2V, clientTaskId: 'dry-conflict', idempotencyKey: 'dry-key' });
    expect(same.data.accepted).toBe(true);
  });

  it('a simulated invalid request, a service not available, a media rule and an unreadable input', async () => {
    expectRefused(
      await dryRun({ ...T2V, clientTaskId: 'dry-invalid' }, scenario('invalid_request')),
      'invalid_request',
      400,
    );
    // a model the catalogue lists as not available, and a model it does not know
    const unavailable = await dryRun({ ...T2V, model: 'h3-video-preview', clientTaskId: 'dry-unavailable' });
    expect(unavailable.status, unavailable.text).toBe(200);
    expect(unavailable.data.accepted).toBe(false);
    expect(unavailable.data.blockers[0].httpStatus).toBeGreaterThanOrEqual(400);
    const unknownModel = await dryRun({ ...T2V, model: 'no-such-model', clientTaskId: 'dry-no-model' });
    expect(unknownModel.status, unknownModel.text).toBe(200);
    expect(unknownModel.data.accepted).toBe(false);
    const seconds = await dryRun({
      ...T2V,
      clientTaskId: 'dry-seconds',
      mediaSpec: { ...T2V.mediaSpec, seconds: 99 },
    });
    expect(seconds.status).toBe(200);
    expect(seconds.data.accepted).toBe(false);
    expect(seconds.data.blockers[0].httpStatus).toBeGreaterThanOrEqual(400);
    const missing = await dryRun({
      ...T2V,
      clientTaskId: 'dry-unreadable',
      mediaSpec: { ...T2V.mediaSpec, generationMode: 'i2v' },
      inputs: [{ readUrl: `${storage.origin}/bucket/none.png`, role: 'first_frame' }],
    });
    expect(missing.status).toBe(200);
    expect(missing.data.accepted).toBe(false);
    expect(missing.data.blockers[0].phase).toBe('input_fetch');
  });

  it('a body that is JSON but not a job body is a 200 refusal: an unknown field, a missing required field', async () => {
    // spec: "`accepted: false` is a valid 200 result; early authentication or JSON errors stay 4xx"
    const unknown = expectRefused(
      await dryRun({ ...T2V, clientTaskId: 'dry-unknown', surprise: true }),
      'invalid_request',
      400,
    );
    expect(unknown.phase).toBe('input_validation');
    const noTask = await dryRun(T2V);
    expectRefused(noTask, 'invalid_request', 400);
    expect(noTask.data.clientTaskId).toBeNull();
    const named = await dryRun({ ...T2V, clientTaskId: 'dry-named', surprise: true });
    expect(named.data).toMatchObject({ clientTaskId: 'dry-named', appContext: { appKey: studio.appKey } });
  });

  it('what is not a JSON object stays 4xx: invalid JSON, and a transport refusal', async () => {
    expectPlatformError(
      await runtimeCall(client, studio, 'POST', '/media/jobs:dry-run', {
        sessionId: member.sessionId,
        body: '{"clientTaskId":',
        headers: { 'Content-Type': 'application/json' },
      }),
      400,
      'invalid_json',
    );
    // a transport refusal is no business answer either
    expect((await dryRun({ ...T2V, clientTaskId: 'dry-503' }, scenario('unavailable'))).status).toBe(503);
  });
});
