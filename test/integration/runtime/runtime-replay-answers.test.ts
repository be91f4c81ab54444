import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runtimeJobBody } from '../../../src/main/core/jobs/runtime-job-body.js';
import { RuntimeProxy, type RuntimeCreateStep } from '../../support/runtime-proxy.js';
import { PROFILE, RuntimeWorld } from './runtime-world.js';

/**
 * How the runtime answers a replay of a create, through a scripted proxy in front of the
 * simulator: the first create's answer is lost (the job exists at the platform), and the replay is
 * answered as the spec allows — "HTTP status may follow the job", or 409 (read the latest state).
 */
let world: RuntimeWorld;
let proxy: RuntimeProxy | undefined;

beforeEach(async () => {
  world = new RuntimeWorld();
  await world.start();
});
afterEach(async () => {
  await proxy?.close();
  proxy = undefined;
  await world.close();
});

async function throughProxy(script: (n: number) => RuntimeCreateStep): Promise<void> {
  proxy = new RuntimeProxy(new URL(world.sim.platform.runtimeBaseUrl).origin, script);
  world.routeRuntimeThrough(await proxy.start());
}

function submit(clientTaskId: string) {
  const input = {
    model: 'h3-video',
    prompt: 'A lighthouse in a storm, waves breaking',
    generationMode: 't2v',
    resolutionTier: '768p',
    orientation: 'landscape',
    seconds: 5,
    seed: 3,
  };
  return world.engine.submit(
    {
      profileId: PROFILE,
      model: input.model,
      serviceKind: 'video_generation',
      body: runtimeJobBody('video_generation', input, { clientTaskId }),
      idempotencyKey: `key-${clientTaskId}`,
    },
    { waitSeconds: 120 },
  );
}

describe('a replayed create answered by the runtime', () => {
  it('with a failure status and the job body: the job is recorded as the answer describes it (id, recovery reference, status)', async () => {
    const sessionId = await world.signIn('member');
    let replayed: Record<string, unknown> | undefined;
    await throughProxy((n) =>
      n === 1
        ? 'drop'
        : (upstream) => {
            replayed = upstream.body;
            return {
              status: 422,
              body: {
                ...upstream.body,
                status: 'failed',
                stage: 'failed',
                errorCode: 'content_blocked',
                errorMessage: 'The prompt was refused.',
              },
            };
          },
    );
    const result = await submit('draft-replay-failed');
    expect(proxy!.creates).toBe(2);
    const platformJobId = replayed!.platformJobId as string;
    expect(result.state).toBe('failed');
    const intent = world.journal.jobs.getIntent('key-draft-replay-failed')!;
    expect(intent.state).toBe('accepted');
    const job = world.journal.jobs.getJobForIntent(intent.id)!;
    expect(job).toMatchObject({ jobId: platformJobId, status: 'failed', errorCode: 'content_blocked' });
    if (typeof replayed!.jobRecoveryRef === 'string')
      expect(await world.refs.recall(platformJobId)).toBe(replayed!.jobRecoveryRef);
    expect(await world.refs.recall(platformJobId)).toMatch(/.{8,}/);
    expect(await world.platformJobsOf('draft-replay-failed', sessionId)).toEqual([platformJobId]);
  });

  it('with 409 naming the job (details.platformJobId): the named job is read and recorded, nothing new is created', async () => {
    const sessionId = await world.signIn('member');
    let named: string | undefined;
    await throughProxy((n) =>
      n === 1
        ? 'drop'
        : (upstream) => {
            named = upstream.body.platformJobId as string;
            return {
              status: 409,
              body: {
                code: 'idempotency_conflict',
                message: 'A job exists under this key.',
                phase: 'idempotency',
                retryable: false,
                details: { platformJobId: named },
              },
            };
          },
    );
    const result = await submit('draft-replay-409');
    expect(proxy!.creates).toBe(2);
    expect(result.state).toBe('succeeded');
    expect(result.job!.jobId).toBe(named);
    expect(world.journal.jobs.getIntent('key-draft-replay-409')!.state).toBe('accepted');
    expect(await world.platformJobsOf('draft-replay-409', sessionId)).toEqual([named]);
  });
});
