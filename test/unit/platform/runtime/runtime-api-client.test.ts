import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { OutcomeUnknownError } from '../../../../src/main/core/api-clients/api-errors.js';
import { RuntimeApiClient } from '../../../../src/main/core/api-clients/runtime/runtime-api-client.js';
import {
  recoveryAuth,
  runtimeAuthHeaders,
  sessionAuth,
} from '../../../../src/main/core/api-clients/runtime/runtime-auth.js';
import { RuntimeApiError } from '../../../../src/main/core/api-clients/runtime/runtime-errors.js';
import { sendHttp } from '../../../../src/main/core/api-clients/runtime/runtime-http.js';
import { SessionServiceClient } from '../../../../src/main/core/api-clients/runtime/session-service-client.js';
import { classify } from '../../../../src/main/core/api-clients/retry/retry.js';

const CREDENTIAL = 'app-cred-SECRET-1';
const SESSION = 'sess-SECRET-2';
const REF = 'jrr-SECRET-3';
const LAUNCH = 'launch-SECRET-4';
const SECRETS = [CREDENTIAL, SESSION, REF, LAUNCH];

/** What the test server received, and how it answers (it echoes every header into its error body). */
let seen: IncomingMessage[] = [];
let answer: (req: IncomingMessage, res: ServerResponse) => void = () => undefined;
let server: Server;
let base = '';

beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push(req);
    answer(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const echoError =
  (status: number, extra: Record<string, unknown> = {}, headers: Record<string, string> = {}) =>
  (req: IncomingMessage, res: ServerResponse) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(
      JSON.stringify({
        code: 'echo_error',
        message: `refused ${JSON.stringify(req.headers)} at ${req.url}`,
        phase: 'authentication',
        retryable: status >= 500 || status === 429,
        details: { headers: req.headers },
        ...extra,
      }),
    );
  };

const client = () =>
  new RuntimeApiClient({ runtimeBaseUrl: `${base}/platform/runtime`, appCredential: async () => CREDENTIAL });

function expectNoSecret(text: string) {
  for (const secret of SECRETS) expect(text).not.toContain(secret);
}

describe('runtime auth headers', () => {
  it('carries the credential and exactly one of session or recovery reference', () => {
    expect(runtimeAuthHeaders(CREDENTIAL, sessionAuth(SESSION))).toEqual({
      authorization: `Bearer ${CREDENTIAL}`,
      'x-platform-runtime-session-id': SESSION,
    });
    expect(runtimeAuthHeaders(CREDENTIAL, recoveryAuth(REF))).toEqual({
      authorization: `Bearer ${CREDENTIAL}`,
      'x-platform-job-recovery-ref': REF,
    });
  });
});

describe('RuntimeApiClient', () => {
  it('sends the key and session on creation, and an error answer keeps code, phase, retryable and Retry-After without secrets', async () => {
    seen = [];
    answer = echoError(503, {}, { 'retry-after': '7' });
    const logged: string[] = [];
    const spies = (['log', 'info', 'warn', 'error', 'debug'] as const).map((level) =>
      vi
        .spyOn(console, level)
        .mockImplementation((...args: unknown[]) => void logged.push(args.map(String).join(' '))),
    );
    const error = (await client()
      .createJob(sessionAuth(SESSION), { clientTaskId: 'c', params: { prompt: REF } }, 'key-1')
      .catch((e: unknown) => e)) as RuntimeApiError;
    spies.forEach((spy) => spy.mockRestore());
    expect(error).toBeInstanceOf(RuntimeApiError);
    expect(error).toMatchObject({
      status: 503,
      apiCode: 'echo_error',
      phase: 'authentication',
      retryable: true,
      retryAfterSeconds: 7,
    });
    expect(classify(error)).toEqual({ kind: 'retry', afterSeconds: 7 });
    expectNoSecret(error.message);
    expectNoSecret(JSON.stringify(error.details));
    expectNoSecret(String(error.stack));
    expectNoSecret(logged.join('\n'));
    const req = seen[0]!;
    expect(req.url).toBe('/platform/runtime/media/jobs');
    expect(req.headers['idempotency-key']).toBe('key-1');
    expect(req.headers['x-platform-runtime-session-id']).toBe(SESSION);
    expect(req.headers['x-platform-job-recovery-ref']).toBeUndefined();
  });

  it('a single-job read with a recovery reference sends no session header; the URL carries no secret', async () => {
    seen = [];
    answer = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ platformJobId: 'job_1', status: 'running', stage: 'rendering' }));
    };
    const read = await client().getJob(recoveryAuth(REF), 'job_1');
    expect(read.body).toMatchObject({ platformJobId: 'job_1', status: 'running' });
    expect(seen[0]!.headers['x-platform-job-recovery-ref']).toBe(REF);
    expect(seen[0]!.headers['x-platform-runtime-session-id']).toBeUndefined();
    expectNoSecret(seen[0]!.url!);
  });

  it('batch-get takes 1..100 de-duplicated ids', async () => {
    seen = [];
    answer = (req, res) => {
      let text = '';
      req.on('data', (c: Buffer) => (text += c.toString()));
      req.on('end', () => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            items: [],
            missing: (JSON.parse(text) as { platformJobIds: string[] }).platformJobIds,
          }),
        );
      });
    };
    expect((await client().batchGet(sessionAuth(SESSION), ['a', 'a', 'b'])).missing).toEqual(['a', 'b']);
    await expect(client().batchGet(sessionAuth(SESSION), [])).rejects.toThrow(RangeError);
    await expect(
      client().batchGet(
        sessionAuth(SESSION),
        Array.from({ length: 101 }, (_, i) => `j${i}`),
      ),
    ).rejects.toThrow(RangeError);
  });

  it('a result URL on another origin never gets the credential or the session: the spec route on the runtime origin, or a signed read with nothing', async () => {
    const bytes = (req: IncomingMessage, res: ServerResponse) => {
      res.writeHead(200, { 'content-type': 'image/png', 'content-length': '3' });
      res.end('png');
    };
    answer = bytes;
    // the same test server under another origin (localhost, not 127.0.0.1)
    const foreign = `${base.replace('127.0.0.1', 'localhost')}/storage/res_1?sig=abc`;

    // its ids known: the spec's download route on the runtime's own origin, with credential and session
    seen = [];
    const routed = await client().openResult(sessionAuth(SESSION), foreign, {
      jobId: 'pj_1',
      resultId: 'res_1',
    });
    routed.body.resume();
    expect(seen.map((r) => [r.headers.host, r.url])).toEqual([
      [new URL(base).host, '/platform/runtime/media/jobs/pj_1/results/res_1/download'],
    ]);
    expect(seen[0]!.headers.authorization).toBe(`Bearer ${CREDENTIAL}`);

    // no ids: read as a signed URL, with no credential, session or reference at all
    seen = [];
    const signed = await client().openResult(recoveryAuth(REF), foreign);
    expect(signed).toMatchObject({ status: 200, contentType: 'image/png' });
    signed.body.resume();
    expect(seen.map((r) => r.url)).toEqual(['/storage/res_1?sig=abc']);
    expectNoSecret(JSON.stringify(seen[0]!.headers));
  });

  it('an answer that never comes is an unknown outcome within the total bound', async () => {
    answer = () => undefined; // never answers
    const started = Date.now();
    const error = await sendHttp(
      `${base}/slow`,
      {
        method: 'GET',
        headers: { authorization: `Bearer ${CREDENTIAL}` },
        bound: 'total',
        totalTimeoutMs: 200,
      },
      'Read job',
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OutcomeUnknownError);
    expect(Date.now() - started).toBeLessThan(2_000);
    expectNoSecret((error as Error).message);
  });
});

describe('SessionServiceClient', () => {
  const sessions = () =>
    new SessionServiceClient({
      sessionBaseUrl: `${base}/platform/session`,
      appKey: 'framewright-studio',
      appCredential: async () => CREDENTIAL,
    });

  it('exchange sends the launch code in the body only; its error carries no secret', async () => {
    seen = [];
    let body = '';
    answer = (req, res) => {
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () =>
        echoError(404, { code: 'RUNTIME_SESSION_LAUNCH_CODE_NOT_FOUND', message: `unknown ${body}` })(
          req,
          res,
        ),
      );
    };
    const error = (await sessions()
      .exchange(LAUNCH)
      .catch((e: unknown) => e)) as RuntimeApiError;
    expect(error).toMatchObject({ status: 404, apiCode: 'RUNTIME_SESSION_LAUNCH_CODE_NOT_FOUND' });
    expectNoSecret(error.message);
    expect(seen[0]!.url).toBe('/platform/session/apps/framewright-studio/runtime-sessions:exchange');
    expect(JSON.parse(body)).toEqual({ launchCode: LAUNCH });
    expect(seen[0]!.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('members:list sends page 1, pageSize 50 by default and refuses pageSize > 100 before sending', async () => {
    seen = [];
    let body = '';
    answer = (req, res) => {
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ items: [], page: 1, pageSize: 50, total: 0 }));
      });
    };
    await sessions().listMembers(SESSION);
    expect(JSON.parse(body)).toEqual({ page: 1, pageSize: 50 });
    expect(() => sessions().listMembers(SESSION, { pageSize: 101 })).toThrow(RangeError);
  });
});
