import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { runtimeJobBody } from '../../../src/main/core/jobs/runtime-job-body.js';
import { sessionAuth } from '../../../src/main/core/api-clients/runtime/runtime-auth.js';
import { PROFILE, RuntimeWorld } from './runtime-world.js';

/**
 * The job engine over the platform's deployed runtime (the simulator): a launch code exchanged for
 * a session, a t2v job created, polled, downloaded and verified; a backend killed and restarted
 * finishing its job with batch-get, or with the recovery reference once the session is gone;
 * unknown creation outcomes ending with one job; 429/503 waits as `Retry-After` says.
 */
let world: RuntimeWorld;
/** Everything written to the console during a test (no secret may appear in it). */
let logged: string[];
let restoreConsole: () => void;

beforeEach(async () => {
  logged = [];
  const spies = (['log', 'info', 'warn', 'error', 'debug'] as const).map((level) =>
    vi
      .spyOn(console, level)
      .mockImplementation((...args: unknown[]) => void logged.push(args.map(String).join(' '))),
  );
  restoreConsole = () => spies.forEach((spy) => spy.mockRestore());
  world = new RuntimeWorld();
  await world.start();
});
afterEach(async () => {
  restoreConsole();
  await world.close();
});

const T2V = {
  model: 'h3-video',
  prompt: 'A paper boat drifting down a rainy street at dusk',
  generationMode: 't2v',
  resolutionTier: '768p',
  orientation: 'landscape',
  seconds: 5,
  seed: 7,
};

function submitT2v(clientTaskId: string, wait: { noWait?: boolean } = {}) {
  const body = runtimeJobBody('video_generation', T2V, { clientTaskId });
  return world.engine.submit(
    {
      profileId: PROFILE,
      model: T2V.model,
      serviceKind: 'video_generation',
      body,
      idempotencyKey: `key-${clientTaskId}`,
    },
    { waitSeconds: 120, ...wait },
  );
}

/** Every file the backend wrote outside the secret store (journal with its WAL, library). */
function bytesOutsideSecretStore(): Buffer[] {
  const files = [world.journalPath, `${world.journalPath}-wal`, `${world.journalPath}-shm`].filter(
    existsSync,
  );
  return files.map((file) => readFileSync(file));
}

async function expectRefConfined(platformJobId: string): Promise<string> {
  const ref = await world.refs.recall(platformJobId);
  expect(ref, 'the recovery reference is stored at creation').toMatch(/.{8,}/);
  const secrets = [ref!, ...(world.sessionId ? [world.sessionId] : [])];
  for (const secret of secrets) {
    for (const bytes of bytesOutsideSecretStore()) expect(bytes.includes(Buffer.from(secret))).toBe(false);
    expect(logged.join('\n')).not.toContain(secret);
  }
  const secretFile = readFileSync(world.secretsPath);
  expect(secretFile.includes(Buffer.from(ref!)), 'the secret file is encrypted').toBe(false);
  expect(statSync(world.secretsPath).mode & 0o777).toBe(0o600);
  return ref!;
}

describe('runtime transport through the job engine', () => {
  it('creates a t2v job with the runtime body, polls it and stores the verified result', async () => {
    const sessionId = await world.signIn('member');
    const result = await submitT2v('draft-t2v-1');
    expect(result.state).toBe('succeeded');
    const job = result.job!;
    expect(job.status).toBe('succeeded');
    expect(job.outputs).toHaveLength(1);
    const output = job.outputs[0]!;
    expect(output.downloadState).toBe('verified');
    const file = readFileSync(path.resolve(world.libraryDir, output.localPath!));
    expect(file.length).toBe(output.expectedByteSize);
    expect(createHash('sha256').update(file).digest('hex')).toBe(output.expectedSha256);
    // the journal keeps the runtime body it sent: params hold the prompt, none at top level
    const stored = JSON.parse(world.journal.jobs.getIntent('key-draft-t2v-1')!.canonicalBodyJson) as Record<
      string,
      unknown
    >;
    expect(stored).toMatchObject({ clientTaskId: 'draft-t2v-1', params: { prompt: T2V.prompt } });
    expect(stored).not.toHaveProperty('prompt');
    expect(stored).not.toHaveProperty('inputs');
    await expectRefConfined(job.jobId);
    expect(await world.platformJobsOf('draft-t2v-1', sessionId)).toEqual([job.jobId]);
  });

  it('a restarted backend finishes the job with batch-get and creates nothing new', async () => {
    const sessionId = await world.signIn('member');
    const accepted = await submitT2v('draft-restart', { noWait: true });
    const platformJobId = accepted.job!.jobId;
    await world.kill();

    world.openEngine();
    const resumed = await world.engine.resume({ waitSeconds: 120 });
    expect(resumed.errors).toEqual([]);
    expect(world.batchGets).toBe(1);
    expect(resumed.results.map((r) => r.state)).toEqual(['succeeded']);
    expect(resumed.results[0]!.job!.jobId).toBe(platformJobId);
    expect(await world.platformJobsOf('draft-restart', sessionId)).toEqual([platformJobId]);
  });

  it('once the session is gone, a restarted backend finishes the job with its recovery reference', async () => {
    await world.signIn('member');
    const accepted = await submitT2v('draft-recover', { noWait: true });
    const platformJobId = accepted.job!.jobId;
    await world.kill();

    await world.setAccess('member', 'revoked');
    world.sessionId = null; // the backend has no session of this person any more
    world.openEngine();
    const resumed = await world.engine.resume({ waitSeconds: 120 });
    expect(resumed.errors).toEqual([]);
    expect(world.batchGets, 'no batch-get without a session').toBe(0);
    expect(resumed.results.map((r) => r.state)).toEqual(['succeeded']);
    const job = resumed.results[0]!.job!;
    expect(job.jobId).toBe(platformJobId);
    expect(job.outputs[0]!.downloadState).toBe('verified');
    await expectRefConfined(platformJobId);
  });

  it('a session refused mid-job (401) falls back to the recovery reference for reads', async () => {
    await world.signIn('member');
    const accepted = await submitT2v('draft-revoked', { noWait: true });
    await world.setAccess('member', 'revoked');
    // the backend still holds the (now refused) session id
    await new Promise((resolve) => setTimeout(resolve, 1100));
    await expect(
      world.client.getJob(sessionAuth(world.sessionId!), accepted.job!.jobId),
    ).rejects.toMatchObject({
      status: 401,
    });
    const run = await world.engine.continueIntent(world.journal.jobs.getIntent('key-draft-revoked')!, {
      waitSeconds: 120,
    });
    expect(run.state).toBe('succeeded');
    expect(run.job!.jobId).toBe(accepted.job!.jobId);
  });

  it.each(['dropped_connection', 'job_recovery_unavailable'] as const)(
    '%s on creation ends with one job and a stored recovery reference',
    async (scenario) => {
      const sessionId = await world.signIn('member');
      world.sim.setScenario(scenario);
      world.onSleep = () => world.sim.setScenario(null);
      const result = await submitT2v(`draft-${scenario}`);
      expect(result.state).toBe('succeeded');
      const intent = world.journal.jobs.getIntent(`key-draft-${scenario}`)!;
      expect(intent.attemptCount).toBeGreaterThanOrEqual(2);
      expect(await world.platformJobsOf(`draft-${scenario}`, sessionId)).toEqual([result.job!.jobId]);
      await expectRefConfined(result.job!.jobId);
    },
  );

  it.each([
    ['rate_limited', 2],
    ['unavailable', 5],
  ] as const)(
    '%s: the create waits as Retry-After says, then succeeds with the same key and body',
    async (scenario, seconds) => {
      const sessionId = await world.signIn('member');
      world.sim.setScenario(scenario);
      world.onSleep = () => world.sim.setScenario(null);
      const result = await submitT2v(`draft-${scenario}`);
      expect(result.state).toBe('succeeded');
      expect(world.sleeps[0]).toBeGreaterThanOrEqual(seconds * 1000);
      expect(await world.platformJobsOf(`draft-${scenario}`, sessionId)).toEqual([result.job!.jobId]);
    },
  );

  it('never sends a session with a recovery reference: batch-get with a recovery reference is not expressible, and the platform refuses both headers', async () => {
    const sessionId = await world.signIn('member');
    const result = await submitT2v('draft-both', { noWait: true });
    const ref = (await world.refs.recall(result.job!.jobId))!;
    const res = await fetch(`${world.sim.platform.runtimeBaseUrl}/media/jobs/${result.job!.jobId}`, {
      headers: {
        Authorization: `Bearer ${world.app.appCredential}`,
        'X-Platform-Runtime-Session-Id': sessionId,
        'X-Platform-Job-Recovery-Ref': ref,
      },
    });
    expect(res.status).toBe(400);
    // the client's own read with the session works
    const read = await world.client.getJob(sessionAuth(sessionId), result.job!.jobId);
    expect(read.body.platformJobId).toBe(result.job!.jobId);
  });
});
