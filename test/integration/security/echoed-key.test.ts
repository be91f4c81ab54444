import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCoreParts, type CoreParts } from '../../../src/main/core/app/core-parts.js';
import { createLogger } from '../../../src/main/core/logging/logger.js';
import { callAnswer } from '../../../src/main/core/operations/service-common.js';
import { FAST_ENGINE } from '../../support/worlds/desktop-core.js';
import { tempFolder } from '../../support/worlds/temp-folder.js';
import { MemorySecretStore } from '../../support/memory-secret-store.js';

/** A key with the two characters JSON escapes: once serialised it no longer appears verbatim. */
const MARK = randomBytes(10).toString('hex');
const KEY = `fw-"echo\\${MARK}`;

/** Every form the key (or its distinctive part) could take in a file. */
function expectNoKey(text: string): void {
  expect(text).not.toContain(KEY);
  expect(text).not.toContain(JSON.stringify(KEY).slice(1, -1));
  expect(text).not.toContain(MARK);
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((name) => path.join(dir, name))
    .filter((file) => statSync(file).isFile());
}

/**
 * A hostile gateway that echoes the caller's credential back everywhere a PublicError or a job may
 * carry text: the error's `message` and `details`, a failed job's `errorMessage`, free-form fields.
 */
async function startEchoingGateway() {
  const server = http.createServer((req, res) => {
    const auth = req.headers.authorization ?? '';
    const key = auth.replace(/^Bearer /, '');
    const url = new URL(req.url ?? '/', 'http://gateway');
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    req.resume();
    if (url.pathname === '/v1/embeddings') {
      send(400, {
        code: 'invalid_request',
        message: `credential ${key} is not allowed here`,
        requestId: 'req_echo_1',
        retryable: false,
        details: { field: 'input', credential: key, seen: [{ header: auth }], [key]: 'as a key' },
      });
    } else if (url.pathname === '/v1/media/generations') {
      send(202, {
        jobId: 'job_echo',
        jobUrl: `${origin}/v1/jobs/job_echo?model=m`,
        requestId: 'req_echo_2',
        status: 'queued',
        stageMessage: `queued for ${key}`,
      });
    } else if (url.pathname === '/v1/jobs/job_echo') {
      send(200, {
        jobId: 'job_echo',
        jobUrl: `${origin}/v1/jobs/job_echo?model=m`,
        requestId: 'req_echo_3',
        status: 'failed',
        errorCode: 'render_failed',
        errorMessage: `the worker could not use ${key}`,
        statusCode: 500,
        retryable: false,
        debug: { authorization: auth },
      });
    } else
      send(404, { code: 'route_not_found', message: 'no route', requestId: 'req_echo_4', retryable: false });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1` };
}

let gateway: Awaited<ReturnType<typeof startEchoingGateway>>;
let core: CoreParts;
let dataDir: string;
let profileId: string;

beforeAll(async () => {
  gateway = await startEchoingGateway();
  dataDir = tempFolder('fw-echo-');
  core = await openCoreParts({
    dataDir,
    launchSimulator: async () => {
      throw new Error('not used');
    },
    secretStore: new MemorySecretStore(),
    engine: FAST_ENGINE,
  });
  profileId = (
    await core.credentials.createProfile({
      name: 'Echo',
      kind: 'personal',
      baseUrl: gateway.baseUrl,
      secret: KEY,
    })
  ).id;
});
afterAll(async () => {
  await core.close();
  await new Promise((resolve) => gateway.server.close(resolve));
});

describe('a key the server echoes back', () => {
  it('is scrubbed from the error message and its details, and from what the log writes of them', async () => {
    const client = await core.profiles.clientFor(profileId);
    const error = (await callAnswer(
      client,
      () => client.embeddings({ model: 'e', input: ['x'] }),
      {} as never,
      'Embeddings',
    ).catch((e: unknown) => e)) as Error & { details?: unknown };
    expect(error.message).toContain('credential [redacted] is not allowed here');
    expect(error.details).toMatchObject({ field: 'input', credential: '[redacted]' });
    expectNoKey(error.message);
    expectNoKey(JSON.stringify(error.details));

    const logFile = path.join(dataDir, 'logs', 'test.log');
    const logger = createLogger({ file: logFile });
    logger.addSecret(KEY);
    logger.error('embeddings failed', { error, details: error.details, note: `raw ${KEY}` });
    const log = readFileSync(logFile, 'utf8');
    expect(log).toContain('embeddings failed');
    expectNoKey(log);
  });

  it("is scrubbed from a failed job's errorMessage and stored body before the journal records them", async () => {
    const result = await core.engine.submit(
      {
        profileId,
        model: 'm',
        serviceKind: 'video_generation',
        body: { model: 'm', prompt: 'a kite' },
        idempotencyKey: 'echo-intent-1',
      },
      { waitSeconds: 20 },
    );
    expect(result.state).toBe('failed');
    expect(result.job?.errorMessage).toBe('the worker could not use [redacted]');
    expectNoKey(JSON.stringify(result.job));
    core.journal.database.pragma('wal_checkpoint(TRUNCATE)');
    for (const file of filesUnder(dataDir)) expectNoKey(readFileSync(file).toString('latin1'));
  });
});
