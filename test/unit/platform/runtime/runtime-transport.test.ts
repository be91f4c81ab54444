import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { runtimeTransport, engineViewOf } from '../../../../src/main/core/jobs/runtime-transport.js';
import { OutcomeUnknownError } from '../../../../src/main/core/api-clients/api-errors.js';
import type { RuntimeApiClient } from '../../../../src/main/core/api-clients/runtime/runtime-api-client.js';
import type { RuntimeAuth } from '../../../../src/main/core/api-clients/runtime/runtime-auth.js';
import { RuntimeApiError } from '../../../../src/main/core/api-clients/runtime/runtime-errors.js';
import { RecoveryRefs } from '../../../../src/main/core/secrets/recovery-refs.js';
import type { SecretStore } from '../../../../src/main/core/secrets/secret-store.js';

function memoryStore(): SecretStore {
  const map = new Map<string, string>();
  return {
    get: async (k) => map.get(k),
    set: async (k, v) => void map.set(k, v),
    delete: async (k) => map.delete(k),
    has: async (k) => map.has(k),
    describe: () => ({ backend: 'unavailable', detail: 'memory', canStore: true }),
  };
}

/** A fake runtime client recording the auth of each call. */
function fakeClient(create: () => Promise<unknown>) {
  const auths: RuntimeAuth[] = [];
  const client = {
    clock: { now: () => 0, sleep: async () => undefined },
    createJob: async (auth: RuntimeAuth) => {
      auths.push(auth);
      return create();
    },
    getJob: async (auth: RuntimeAuth, id: string) => {
      auths.push(auth);
      return { httpStatus: 200, body: { platformJobId: id, status: 'running' }, retryAfterSeconds: 2 };
    },
    batchGet: async () => ({ items: [], missing: [] }),
  } as unknown as RuntimeApiClient;
  return { client, auths };
}

describe('runtimeTransport', () => {
  it('job_recovery_unavailable, whatever its status, is an unknown outcome (the same key and body are replayed)', async () => {
    const { client } = fakeClient(async () => {
      throw new RuntimeApiError({
        status: 409,
        apiCode: 'job_recovery_unavailable',
        message: 'later',
        retryable: false,
      });
    });
    const transport = runtimeTransport({
      client,
      sessions: { current: async () => ({ sessionId: 'sess-1' }) },
      recoveryRefs: new RecoveryRefs(memoryStore()),
    });
    await expect(transport.createJob('/media/generations', {}, 'k')).rejects.toBeInstanceOf(
      OutcomeUnknownError,
    );
  });

  it('stores the recovery reference at creation and reads with it, not the session, once the session is gone', async () => {
    const { client, auths } = fakeClient(async () => ({
      httpStatus: 202,
      body: { platformJobId: 'job_1', status: 'queued', jobRecoveryRef: 'jrr-1' },
      retryAfterSeconds: undefined,
    }));
    let session: { sessionId: string } | null = { sessionId: 'sess-1' };
    const refs = new RecoveryRefs(memoryStore());
    const transport = runtimeTransport({
      client,
      sessions: { current: async () => session },
      recoveryRefs: refs,
    });
    const created = await transport.createJob('/media/generations', {}, 'k');
    expect(created.job.jobId).toBe('job_1');
    expect(await refs.recall('job_1')).toBe('jrr-1');
    session = null;
    expect(await transport.getJobs!(['job_1'])).toBeNull();
    await transport.getJob({ jobId: 'job_1', model: 'h3-video' });
    expect(auths).toEqual([
      { kind: 'session', sessionId: 'sess-1' },
      { kind: 'recovery', recoveryRef: 'jrr-1' },
    ]);
    // a read answer without the reference keeps the stored one
    expect(await refs.recall('job_1')).toBe('jrr-1');
  });

  it('refuses to create without a session (a recovery reference never creates)', async () => {
    const { client, auths } = fakeClient(async () => ({}));
    const transport = runtimeTransport({
      client,
      sessions: { current: async () => null },
      recoveryRefs: new RecoveryRefs(memoryStore()),
    });
    await expect(transport.createJob('/media/generations', {}, 'k')).rejects.toMatchObject({
      code: 'runtime.no_session',
    });
    expect(auths).toEqual([]);
  });
});

describe('runtimeTransport: a refused session read', () => {
  /** A client whose session reads are refused with `status`; recovery reads answer the job. */
  function refusingClient(status: number) {
    const auths: RuntimeAuth[] = [];
    const refuse = (auth: RuntimeAuth) => {
      auths.push(auth);
      if (auth.kind === 'session')
        throw new RuntimeApiError({ status, apiCode: 'refused', message: 'no', retryable: false });
    };
    const client = {
      clock: { now: () => 0, sleep: async () => undefined },
      getJob: async (auth: RuntimeAuth, id: string) => {
        refuse(auth);
        return { httpStatus: 200, body: { platformJobId: id, status: 'running' }, retryAfterSeconds: 2 };
      },
      openResult: async (auth: RuntimeAuth) => {
        refuse(auth);
        return { status: 200, contentType: 'video/mp4', body: Readable.from([]) };
      },
    } as unknown as RuntimeApiClient;
    return { client, auths };
  }

  async function transportWithRef(client: RuntimeApiClient) {
    const refs = new RecoveryRefs(memoryStore());
    await refs.remember('job_1', 'jrr-1');
    return runtimeTransport({
      client,
      sessions: { current: async () => ({ sessionId: 'sess-1' }) },
      recoveryRefs: refs,
    });
  }

  it('403 (no permission) stops: the recovery reference is not tried instead (spec: "403 stop; no other-user workaround")', async () => {
    const { client, auths } = refusingClient(403);
    const transport = await transportWithRef(client);
    await expect(transport.getJob({ jobId: 'job_1', model: 'h3-video' })).rejects.toMatchObject({
      status: 403,
    });
    await expect(
      transport.openContentStream({
        jobId: 'job_1',
        contentUrl: 'http://runtime/x',
        model: 'h3-video',
      } as never),
    ).rejects.toMatchObject({ status: 403 });
    expect(auths.map((a) => a.kind)).toEqual(['session', 'session']);
  });

  it('401 (session invalid) reads the job with its recovery reference', async () => {
    const { client, auths } = refusingClient(401);
    const transport = await transportWithRef(client);
    const read = await transport.getJob({ jobId: 'job_1', model: 'h3-video' });
    expect(read.job.jobId).toBe('job_1');
    expect(auths.map((a) => a.kind)).toEqual(['session', 'recovery']);
  });
});

describe('runtimeTransport.getJobs', () => {
  it('reads with batch-get in calls of at most 100 ids', async () => {
    const calls: number[] = [];
    const client = {
      clock: { now: () => 0, sleep: async () => undefined },
      batchGet: async (_auth: RuntimeAuth, ids: readonly string[]) => {
        calls.push(ids.length);
        return { items: ids.map((id) => ({ platformJobId: id, status: 'running' })), missing: [] };
      },
    } as unknown as RuntimeApiClient;
    const transport = runtimeTransport({
      client,
      sessions: { current: async () => ({ sessionId: 's' }) },
      recoveryRefs: new RecoveryRefs(memoryStore()),
    });
    const read = await transport.getJobs!(Array.from({ length: 250 }, (_, i) => `job_${i}`));
    expect(calls).toEqual([100, 100, 50]);
    expect(read).toHaveLength(250);
  });
});

describe('engineViewOf', () => {
  it('maps a RuntimeJob onto the job the engine reads (results → verified outputs)', () => {
    const view = engineViewOf({
      platformJobId: 'job_9',
      clientTaskId: 'd',
      status: 'succeeded',
      stage: 'done',
      jobRecoveryRef: 'secret-ref',
      results: [
        {
          resultId: 'r1',
          resultDownloadUrl: 'http://h/r1',
          mimeType: 'video/mp4',
          byteSize: 10,
          sha256: 'a'.repeat(64),
        },
      ],
    });
    expect(view).toMatchObject({
      jobId: 'job_9',
      status: 'succeeded',
      outputs: [
        {
          assetId: 'r1',
          contentUrl: 'http://h/r1',
          mimeType: 'video/mp4',
          byteSize: 10,
          sha256: 'a'.repeat(64),
          kind: 'video',
        },
      ],
    });
    expect(JSON.stringify(view)).not.toContain('secret-ref');
  });
});
