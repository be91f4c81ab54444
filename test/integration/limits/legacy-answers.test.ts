import { createHash } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { sendIntent } from '../../../src/main/core/jobs/create-job.js';
import { downloadOutputs } from '../../../src/main/core/jobs/download-outputs.js';
import { pollJob } from '../../../src/main/core/jobs/poll-job.js';
import type { Journal } from '../../../src/main/core/journal/open-journal.js';
import { ForeignOriginError } from '../../../src/main/core/api-clients/api-errors.js';
import { PublicApiClient } from '../../../src/main/core/api-clients/public-api-client.js';
import type { ProfileKind } from '../../../src/shared/bridge/contract.js';
import { tempFolder } from '../../support/worlds/temp-folder.js';
import { startHostileServer } from '../../support/hostile-server.js';
import { journalWithProfile, videoIntentRow } from '../../support/journal-rows.js';

/**
 * The spec's minimum creation and poll answers parse, legacy `assets[]` items with only `assetId`
 * download, URLs are used exactly as returned, and a URL on another origin never gets the key.
 */

const BYTES = Buffer.from('legacy result bytes');
const SHA = createHash('sha256').update(BYTES).digest('hex');
const servers: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

async function server(handler: Parameters<typeof startHostileServer>[0]) {
  const started = await startHostileServer(handler);
  servers.push(started);
  return started;
}

function setup(base: string, kind: ProfileKind = 'personal') {
  const journal = journalWithProfile(base, kind);
  const client = new PublicApiClient({
    profileId: 'p',
    kind,
    baseUrl: base,
    secret: async () => 'sk-legacy-123',
  });
  const intent = videoIntentRow(journal, 'key-1');
  return { journal, client, intent };
}

const fast = { backoff: { initialMs: 1, maxMs: 1, factor: 1, jitter: 0 } };

function accepted(journal: Journal, client: PublicApiClient, intent: ReturnType<typeof setup>['intent']) {
  return sendIntent(journal, client, intent, { ...fast, maxAttempts: 1 });
}

describe('legacy and minimal answers', () => {
  it('a creation answer without jobUrl is accepted; polls go to /jobs/{jobId}?model=; legacy assets[] download from /assets/{id}/content?model=', async () => {
    const srv = await server((req, res) => {
      if (req.method === 'POST')
        return json(res, 202, { jobId: 'job_min', status: 'queued', requestId: 'req_min' });
      if (req.url!.startsWith('/v1/jobs/'))
        return json(res, 200, {
          jobId: 'job_min',
          status: 'succeeded',
          requestId: 'req_min',
          assets: [{ assetId: 'asset_only' }],
        });
      res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': String(BYTES.length) });
      res.end(BYTES);
    });
    const { journal, client, intent } = setup(srv.base);
    const outcome = await accepted(journal, client, intent);
    expect(outcome.state).toBe('accepted');
    const job = outcome.state === 'accepted' ? outcome.job : undefined;
    expect([job?.jobId, job?.requestId, job?.jobUrl]).toEqual(['job_min', 'req_min', undefined]);
    const polled = await pollJob(journal, client, job!, { deadline: Date.now() + 10_000, ...fast });
    expect(polled.state).toBe('terminal');
    expect(polled.job.outputs.map((o) => [o.assetId, o.contentUrl])).toEqual([['asset_only', undefined]]);
    const done = await downloadOutputs(journal, client, polled.job, tempFolder('fw-lib-'), {
      retryDelayMs: 1,
    });
    expect(done.outputs[0]!.downloadState).toBe('verified');
    expect(done.outputs[0]!.sha256).toBe(SHA);
    expect(srv.seen.map((r) => `${r.method} ${r.path}`)).toEqual([
      'POST /media/generations',
      'GET /jobs/job_min?model=m',
      'GET /assets/asset_only/content?model=m',
    ]);
  });

  it('jobUrl and contentUrl are used exactly as returned (not rebuilt)', async () => {
    const srv = await server((req, res) => {
      const origin = `http://${req.headers.host}`;
      if (req.method === 'POST')
        return json(res, 202, {
          jobId: 'job_x',
          status: 'queued',
          requestId: 'req_x',
          jobUrl: `${origin}/v1/tasks/poll/job_x?model=m&sig=abc`,
        });
      if (req.url!.startsWith('/v1/tasks/'))
        return json(res, 200, {
          jobId: 'job_x',
          status: 'succeeded',
          requestId: 'req_x',
          outputs: [{ assetId: 'a1', contentUrl: `${origin}/v1/blobs/a1?model=m&t=1`, sha256: SHA }],
        });
      res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': String(BYTES.length) });
      res.end(BYTES);
    });
    const { journal, client, intent } = setup(srv.base);
    const outcome = await accepted(journal, client, intent);
    const job = outcome.state === 'accepted' ? outcome.job : undefined;
    const polled = await pollJob(journal, client, job!, { deadline: Date.now() + 10_000, ...fast });
    await downloadOutputs(journal, client, polled.job, tempFolder('fw-lib-'), { retryDelayMs: 1 });
    expect(srv.seen.map((r) => r.path)).toEqual([
      '/media/generations',
      '/tasks/poll/job_x?model=m&sig=abc',
      '/blobs/a1?model=m&t=1',
    ]);
  });

  it('a jobUrl on another origin is refused, naming both origins; a contentUrl there is read at the content endpoint; that origin gets no request', async () => {
    const foreign = await server((_req, res) => json(res, 200, {}));
    const srv = await server((req, res) => {
      if (req.url === '/v1/assets/a_f/content?model=m') {
        res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': String(BYTES.length) });
        return res.end(BYTES);
      }
      if (req.method === 'POST')
        return json(res, 202, {
          jobId: 'job_f',
          status: 'queued',
          requestId: 'req_f',
          jobUrl: `${foreign.origin}/v1/jobs/job_f?model=m`,
        });
      json(res, 404, {});
    });
    const { journal, client, intent } = setup(srv.base);
    const outcome = await accepted(journal, client, intent);
    const job = outcome.state === 'accepted' ? outcome.job : undefined;
    expect(job?.jobId).toBe('job_f');
    const error = await pollJob(journal, client, job!, { deadline: Date.now() + 5_000, ...fast }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ForeignOriginError);
    expect((error as Error).message).toContain(foreign.origin);
    expect((error as Error).message).toContain(srv.origin);
    expect((error as Error).message).not.toContain('sk-legacy-123');

    // a result whose contentUrl is on another origin (a storage host of the platform, say): the
    // key never goes there; the result is read at the spec's content endpoint on the profile's origin
    const done = journal.jobs.recordPoll(job!.id, {
      status: 'succeeded',
      body: {},
      outputsSource: 'outputs',
      outputs: [{ assetId: 'a_f', contentUrl: `${foreign.origin}/v1/files/a_f?sig=x`, sha256: SHA }],
    });
    const downloaded = await downloadOutputs(journal, client, done, tempFolder('fw-lib-'), {
      retryDelayMs: 1,
    });
    expect(downloaded.outputs[0]!.downloadState).toBe('verified');
    expect(srv.seen.map((r) => `${r.method} ${r.path}`)).toContain('GET /assets/a_f/content?model=m');
    expect(foreign.seen).toEqual([]);
  });

  it('the embedded simulator profile (port changes per start) moves a loopback URL onto its own origin', async () => {
    const srv = await server((_req, res) =>
      json(res, 200, { jobId: 'job_s', status: 'succeeded', requestId: 'req_s', outputs: [] }),
    );
    const { journal, client, intent } = setup(srv.base, 'simulator');
    const job = journal.jobs.markAccepted(intent.idempotencyKey, {
      jobId: 'job_s',
      requestId: 'req_s',
      // the port of an earlier start of the embedded simulator
      jobUrl: 'http://127.0.0.1:9/v1/jobs/job_s?model=m',
      status: 'queued',
    });
    const polled = await pollJob(journal, client, job, { deadline: Date.now() + 5_000, ...fast });
    expect(polled.state).toBe('terminal');
    expect(srv.seen.map((r) => r.path)).toEqual(['/jobs/job_s?model=m']);
  });

  it('a terminal replay answered with a failure status and a job body keeps its jobId and requestId', async () => {
    const srv = await server((_req, res) =>
      json(res, 422, {
        jobId: 'job_failed',
        status: 'failed',
        requestId: 'req_failed',
        errorCode: 'content_rejected',
        errorMessage: 'The prompt was rejected.',
        retryable: false,
      }),
    );
    const { journal, client, intent } = setup(srv.base);
    const outcome = await accepted(journal, client, intent);
    expect(outcome.state).toBe('accepted');
    const job = outcome.state === 'accepted' ? outcome.job : undefined;
    expect([job?.jobId, job?.requestId, job?.status, job?.errorCode]).toEqual([
      'job_failed',
      'req_failed',
      'failed',
      'content_rejected',
    ]);
    expect(journal.jobs.getIntent('key-1')!.state).toBe('accepted');
  });
});
