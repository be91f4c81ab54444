import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { sendIntent } from '../../../src/main/core/jobs/create-job.js';
import { optimizePrompt } from '../../../src/main/core/creating/prompt-optimization.js';
import { downloadOutputs } from '../../../src/main/core/jobs/download-outputs.js';
import { pollJob } from '../../../src/main/core/jobs/poll-job.js';
import type { ProbedFile } from '../../../src/main/core/media-tools/probe-media.js';
import { PublicApiClient } from '../../../src/main/core/api-clients/public-api-client.js';
import { RetryAfterTooLongError } from '../../../src/main/core/api-clients/retry/retry-after.js';
import { createEmbeddings } from '../../../src/main/core/operations/embeddings.js';
import { uploadChecked } from '../../../src/main/core/operations/inputs.js';
import { uploadInput } from '../../../src/main/core/uploads/upload-input.js';
import type { ServiceEntry } from '../../../src/shared/api/discovery.js';
import { tempFolder } from '../../support/worlds/temp-folder.js';
import { acceptedJobRow, journalWithProfile, videoIntentRow } from '../../support/journal-rows.js';
import { publicError, startHostileServer } from '../../support/hostile-server.js';
import { instantClock } from '../services/helpers.js';

/**
 * A 429 with `Retry-After: 12` (seconds or an HTTP date) on a synchronous call, on both upload
 * paths, on a download re-read and on a poll: no request within the 12 s. The clock is virtual
 * (each wait is recorded and returns at once), so "when" a request arrived is the virtual time.
 */

const servers: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

function clientFor(base: string, clock: ReturnType<typeof instantClock>): PublicApiClient {
  return new PublicApiClient(
    { profileId: 'p', kind: 'personal', baseUrl: base, secret: async () => 'key-123456' },
    { clock },
  );
}

const embedService: ServiceEntry = { modelAlias: 'embed', serviceKind: 'embeddings', available: true };
const ASSET = {
  assetId: 'asset_1',
  publicationId: 'pub',
  kind: 'image',
  mimeType: 'image/png',
  byteSize: 4,
  status: 'available',
  createdAt: '2026-01-01T00:00:00Z',
  lastUploadedAt: '2026-01-01T00:00:00Z',
  expiresAt: '2099-01-01T00:00:00Z',
  reused: false,
};

/** Answers the first request 429 with the given Retry-After, the next ones with `ok`. */
async function rateLimitedOnce(retryAfter: string, ok: (res: ServerResponse) => void) {
  const clock = instantClock();
  const server = await startHostileServer((_req, res, seen) => {
    if (seen.length === 1) publicError(res, 429, 'rate_limited', { 'retry-after': retryAfter });
    else ok(res);
  }, clock.now);
  servers.push(server);
  return { clock, server, client: clientFor(server.base, clock) };
}

function json(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'content-type': 'application/json', 'x-request-id': 'req_ok' });
  res.end(JSON.stringify(body));
}

function gap(seen: { at: number }[]): number {
  return seen[1]!.at - seen[0]!.at;
}

function tinyFile(): ProbedFile {
  const dir = tempFolder('fw-ra-');
  const file = path.join(dir, 'a.png');
  const bytes = Buffer.from([1, 2, 3, 4]);
  writeFileSync(file, bytes);
  return {
    id: 'f',
    path: file,
    fileName: 'a.png',
    mimeType: 'image/png',
    byteSize: 4,
    kind: 'image',
    sha256: createHash('sha256').update(bytes).digest('hex'),
    width: 1,
    height: 1,
  };
}

const embeddings = (res: ServerResponse) =>
  json(res, 200, {
    object: 'list',
    model: 'embed',
    data: [{ object: 'embedding', index: 0, embedding: [1, 0] }],
    usage: {},
  });

describe('Retry-After: one rule everywhere', () => {
  it('embeddings: a 429 with Retry-After: 12 is tried again only after 12 s', async () => {
    const { clock, server, client } = await rateLimitedOnce('12', embeddings);
    const journal = journalWithProfile('http://127.0.0.1:1/v1');
    const result = await createEmbeddings(journal, client, embedService, ['hello']);
    expect(result.vectors).toEqual([[1, 0]]);
    expect(server.seen).toHaveLength(2);
    expect(gap(server.seen)).toBeGreaterThanOrEqual(12_000);
    expect(clock.waits).toEqual([12_000]);
  });

  it('embeddings: Retry-After as an HTTP date is honoured the same way', async () => {
    const { server, client } = await rateLimitedOnce(new Date(Date.now() + 12_000).toUTCString(), embeddings);
    await createEmbeddings(journalWithProfile('http://127.0.0.1:1/v1'), client, embedService, ['hello']);
    expect(gap(server.seen)).toBeGreaterThanOrEqual(10_000);
  });

  it('embeddings: a Retry-After past the limit stops at once with "the service asked to wait N s"', async () => {
    const { server, client } = await rateLimitedOnce('900', embeddings);
    const error = await createEmbeddings(journalWithProfile('http://127.0.0.1:1/v1'), client, embedService, [
      'x',
    ]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RetryAfterTooLongError);
    expect((error as Error).message).toContain('the service asked to wait 900 s');
    expect(server.seen).toHaveLength(1); // never retried early
  });

  it('upload (job inputs): a 429 with Retry-After: 12 is sent again only after 12 s', async () => {
    const { server, client } = await rateLimitedOnce('12', (res) => json(res, 201, { asset: ASSET }));
    const uploaded = await uploadInput(journalWithProfile('http://127.0.0.1:1/v1'), client, tinyFile(), {
      model: 'm',
      backoff: { initialMs: 1, maxMs: 1, factor: 1, jitter: 0 },
    });
    expect(uploaded.assetId).toBe('asset_1');
    expect(server.seen.map((r) => r.method)).toEqual(['POST', 'POST']);
    expect(gap(server.seen)).toBeGreaterThanOrEqual(12_000);
  });

  it('upload (playground inputs): a 429 with Retry-After: 12 is sent again only after 12 s', async () => {
    const { server, client } = await rateLimitedOnce('12', (res) => json(res, 201, { asset: ASSET }));
    const service: ServiceEntry = { modelAlias: 'ocr', serviceKind: 'ocr', available: true };
    const uploaded = await uploadChecked(
      journalWithProfile('http://127.0.0.1:1/v1'),
      client,
      service,
      tinyFile(),
    );
    expect(uploaded.assetId).toBe('asset_1');
    expect(gap(server.seen)).toBeGreaterThanOrEqual(12_000);
  });

  it('download re-read: a 429 with Retry-After: 12 is read again only after 12 s', async () => {
    const bytes = Buffer.from('result bytes');
    const { server, client } = await rateLimitedOnce('12', (res) => {
      res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': String(bytes.length) });
      res.end(bytes);
    });
    const journal = journalWithProfile('http://127.0.0.1:1/v1');
    const job = acceptedJobRow(journal, {
      outputs: [
        {
          assetId: 'res_1',
          contentUrl: `${server.base}/assets/res_1/content?model=m`,
          byteSize: bytes.length,
          sha256: createHash('sha256').update(bytes).digest('hex'),
          mimeType: 'video/mp4',
        },
      ],
    });
    // a 1 ms own back-off: only the server's Retry-After can make the wait 12 s
    const done = await downloadOutputs(journal, client, job, tempFolder('fw-lib-'), { retryDelayMs: 1 });
    expect(done.outputs[0]!.downloadState).toBe('verified');
    expect(server.seen).toHaveLength(2);
    expect(gap(server.seen)).toBeGreaterThanOrEqual(12_000);
  });

  it('poll: the Retry-After header of a poll answer wins over a shorter body hint', async () => {
    const clock = instantClock();
    const server = await startHostileServer((req, res, seen) => {
      const status = seen.length === 1 ? 'running' : 'succeeded';
      const jobId = /\/jobs\/([^?]+)/.exec(req.url ?? '')![1];
      res.writeHead(200, { 'content-type': 'application/json', 'retry-after': '12' });
      res.end(JSON.stringify({ jobId, requestId: 'req_1', status, refreshAfterSeconds: 1, outputs: [] }));
    }, clock.now);
    servers.push(server);
    const journal = journalWithProfile('http://127.0.0.1:1/v1');
    const job = acceptedJobRow(journal, { status: 'running' });
    const outcome = await pollJob(journal, clientFor(server.base, clock), job, {
      deadline: clock.now() + 60_000,
      backoff: { initialMs: 1, maxMs: 1, factor: 1, jitter: 0 },
    });
    expect(outcome.state).toBe('terminal');
    expect(server.seen).toHaveLength(2);
    expect(gap(server.seen)).toBeGreaterThanOrEqual(12_000);
  });

  it('create: the 202 Retry-After header (not the shorter body hint) sets the wait before the first poll', async () => {
    const clock = instantClock();
    const server = await startHostileServer((req, res) => {
      if (req.method === 'POST') {
        res.writeHead(202, { 'content-type': 'application/json', 'retry-after': '12' });
        res.end(JSON.stringify({ jobId: 'job_202', requestId: 'r', status: 'queued', retryAfterSeconds: 1 }));
        return;
      }
      json(res, 200, { jobId: 'job_202', requestId: 'r', status: 'succeeded', outputs: [] });
    }, clock.now);
    servers.push(server);
    const journal = journalWithProfile(server.base);
    const client = clientFor(server.base, clock);
    const intent = videoIntentRow(journal, 'k202');
    const created = await sendIntent(journal, client, intent);
    expect(created.state).toBe('accepted');
    const job = created.state === 'accepted' ? created.job : undefined;
    const outcome = await pollJob(journal, client, job!, {
      deadline: clock.now() + 60_000,
      backoff: { initialMs: 1, maxMs: 1, factor: 1, jitter: 0 },
    });
    expect(outcome.state).toBe('terminal');
    expect(server.seen.map((r) => r.method)).toEqual(['POST', 'GET']);
    expect(gap(server.seen)).toBeGreaterThanOrEqual(12_000);
  });

  it('prompt optimization: a 429 with Retry-After: 12 is replayed (same key) only after 12 s', async () => {
    const { server, client } = await rateLimitedOnce('12', (res) =>
      json(res, 201, {
        requestId: 'r',
        optimization: {
          optimizationId: 'o1',
          serviceKind: 'video_generation',
          generationMode: 't2v',
          originalPrompt: 'a cat',
          optimizedPrompt: 'a cat, golden light',
          status: 'succeeded',
          createdAt: '2026-01-01T00:00:00Z',
          expiresAt: '2099-01-01T00:00:00Z',
        },
      }),
    );
    const result = await optimizePrompt(
      journalWithProfile(server.base),
      client,
      {
        clientRequestId: 'opt-12345678',
        model: 'm',
        generationMode: 't2v',
        originalPrompt: 'a cat',
        mediaSpec: {},
        referenceInputs: [],
      },
      { clientTimeoutSeconds: 30, backoff: { initialMs: 1, maxMs: 1, factor: 1, jitter: 0 } },
    );
    expect(result.optimizedPrompt).toBe('a cat, golden light');
    expect(server.seen.map((r) => r.method)).toEqual(['POST', 'POST']);
    expect(gap(server.seen)).toBeGreaterThanOrEqual(12_000);
  });
});
