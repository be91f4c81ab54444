import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ApiError } from '../../../src/main/core/api-clients/api-errors.js';
import { AppError } from '../../../src/main/core/errors.js';
import { requestDigest } from '../../../src/main/core/inter-app/request-digest.js';
import { canonicalJsonBytes } from '../../../src/main/core/inter-app/canonical-json.js';
import type { SentBoard } from '../../../src/main/core/inter-app/sequence-create-body.js';
import {
  createSequenceCreateCallee,
  type GrantSubject,
  type ResolvedCalleeGrant,
} from '../../../src/main/core/inter-app/sequence-create-callee.js';

/**
 * The callee's own checks, with a session service that answers whatever the test says: the
 * callee must not trust a resolve blindly (callee, scope, version, digest, expiry, subject), must
 * map the service's refusals, and must call nothing on any refusal.
 */

const BOARD: SentBoard = {
  boardId: 'brd_1',
  title: 'Board',
  revision: 1,
  panels: [
    {
      panelId: 'p1',
      position: 1,
      prompt: 'A shot.',
      image: {
        url: 'https://img.example/p1.png',
        mimeType: 'image/png',
        sha256: 'a'.repeat(64),
        byteSize: 10,
      },
    },
  ],
};
const BYTES = Buffer.from(JSON.stringify(BOARD));
const SUBJECT = { tenantId: 't1', accountId: 'a1', userId: 'u1', organizationId: 'o1' };

let root: string;
let server: http.Server;
let url: string;
let resolveAnswer: (use: {
  grant: string;
  scope: string;
  requestDigest: string;
}) => Promise<ResolvedCalleeGrant>;
const resolveCalls: { grant: string; scope: string; requestDigest: string }[] = [];
const opened: GrantSubject[] = [];
const imports: SentBoard[] = [];
let importDelayMs = 0;

const resolvedFor = (digest: string, overrides: Partial<ResolvedCalleeGrant> = {}): ResolvedCalleeGrant => ({
  grantId: 'grant_1',
  callerAppKey: 'storyboard-helper',
  calleeAppKey: 'framewright-studio',
  apiVersion: '2026-01',
  subject: { ...SUBJECT },
  scope: 'sequence.create',
  idempotencyKey: 'key-1',
  requestDigest: digest,
  expiresAt: new Date(Date.now() + 60_000).toISOString(),
  ...overrides,
});

/** What the workspace's import throws (nothing created), when set. */
let importFailure: Error | undefined;

beforeAll(async () => {
  root = mkdtempSync(path.join(os.tmpdir(), 'fw-callee-'));
  const handler = createSequenceCreateCallee({
    appKey: 'framewright-studio',
    resolveGrant: async (use) => {
      resolveCalls.push(use);
      return resolveAnswer(use);
    },
    workspaceOf: (subject) => {
      opened.push(subject);
      return { dir: path.join(root, subject.userId) };
    },
    importBoard: async (_workspace, board) => {
      if (importFailure) throw importFailure;
      imports.push(board);
      await new Promise((resolve) => setTimeout(resolve, importDelayMs));
      return { sequenceId: `seq_${imports.length}` };
    },
    maxBodyBytes: 4096,
  });
  server = http.createServer((req, res) => void handler(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/inter-app/2026-01/sequences`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  rmSync(root, { recursive: true, force: true });
});
beforeEach(() => {
  importFailure = undefined;
  resolveCalls.length = 0;
  opened.length = 0;
  imports.length = 0;
  importDelayMs = 0;
  resolveAnswer = async (use) => resolvedFor(use.requestDigest);
});

async function post(body: Buffer | string, grant: string | null = 'agr_x', target = url) {
  const res = await fetch(target, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...(grant ? { 'X-Platform-App-Grant': grant } : {}) },
    body,
  });
  return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, unknown> };
}

const expectNothingDone = () => {
  expect(opened).toEqual([]);
  expect(imports).toEqual([]);
};

describe('sequence.create callee', () => {
  it('refuses without a grant before reading anything or calling the session service', async () => {
    const res = await post(BYTES, null);
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('APP_GRANT_MISSING');
    expect(resolveCalls).toEqual([]);
    expectNothingDone();
  });

  it('refuses a body past its bound (413) before resolving', async () => {
    const res = await post(Buffer.alloc(5000, 0x20));
    expect(res.status).toBe(413);
    expect(resolveCalls).toEqual([]);
    expectNothingDone();
  });

  it("resolves for sequence.create and the spec's digest of the body: its canonical JSON, whatever its spelling", async () => {
    resolveAnswer = async (use) => resolvedFor(use.requestDigest, { idempotencyKey: 'key-spelling' });
    const spaced = Buffer.from(JSON.stringify(BOARD, null, 2));
    const res = await post(spaced, 'agr_grant_text');
    expect(res.status).toBe(201);
    // spec C: "Recommended digest input: UTF-8 JSON with sorted keys and no whitespace for objects"
    expect(resolveCalls).toEqual([
      {
        grant: 'agr_grant_text',
        scope: 'sequence.create',
        requestDigest: requestDigest(canonicalJsonBytes(BOARD)),
      },
    ]);
    expect(opened).toEqual([SUBJECT]);
    expect(imports).toEqual([BOARD]);
  });

  it.each([
    ['another callee', { calleeAppKey: 'storyboard-helper' }],
    ['another scope', { scope: 'sequence.delete' }],
    ['another API version', { apiVersion: '2025-01' }],
    ['another digest', { requestDigest: 'sha256:' + 'b'.repeat(64) }],
    ['an expired grant', { expiresAt: new Date(Date.now() - 1000).toISOString() }],
    ['a subject without an account', { subject: { userId: 'u1', tenantId: 't1' } }],
    ['no idempotency key', { idempotencyKey: '' }],
  ])('re-checks the resolved grant itself: %s is the same 404', async (_name, overrides) => {
    resolveAnswer = async (use) => resolvedFor(use.requestDigest, overrides as Partial<ResolvedCalleeGrant>);
    const res = await post(BYTES);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({
      code: 'APP_GRANT_NOT_FOUND',
      message: 'No valid grant for this callee, scope and request digest.',
      requestId: expect.stringMatching(/^req_/),
    });
    expectNothingDone();
  });

  it("maps the session service's refusals: 404 → 404, 429/503/504 → 503 with Retry-After, others fail closed", async () => {
    const refuse = (status: number, retryAfterSeconds?: number) => async () => {
      throw new ApiError({
        status,
        apiCode: 'X',
        message: 'refused',
        retryable: status >= 429,
        ...(retryAfterSeconds !== undefined ? { retryAfterSeconds } : {}),
      });
    };
    resolveAnswer = refuse(404);
    expect((await post(BYTES)).body.code).toBe('APP_GRANT_NOT_FOUND');
    for (const status of [429, 503, 504]) {
      resolveAnswer = refuse(status, 7);
      const res = await post(BYTES);
      expect(res.status).toBe(503);
      expect(res.body.code).toBe('APP_GRANT_SERVICE_UNAVAILABLE');
      expect(res.headers.get('retry-after')).toBe('7');
    }
    resolveAnswer = async () => {
      throw new TypeError('fetch failed');
    };
    expect((await post(BYTES)).status).toBe(503);
    resolveAnswer = refuse(401);
    const closed = await post(BYTES);
    expect(closed.status).toBe(500);
    expect(closed.body.code).toBe('APP_GRANT_RESOLVE_FAILED');
    expectNothingDone();
  });

  it('parses the body only after the grant: 415 and 400 create nothing', async () => {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'Content-Type': 'text/plain', 'X-Platform-App-Grant': 'agr_x' },
      body: BYTES,
    });
    expect(res.status).toBe(415);
    expect((await post('{"boardId":"b"}')).status).toBe(400);
    expect((await post('not json')).status).toBe(400);
    expect((await post(JSON.stringify({ ...BOARD, extra: 1 }))).status).toBe(400);
    expect(resolveCalls).toHaveLength(4);
    expectNothingDone();
  });

  it('creates once per (caller, idempotency key) in a workspace, concurrent replays included', async () => {
    importDelayMs = 50;
    resolveAnswer = async (use) => resolvedFor(use.requestDigest, { idempotencyKey: 'key-once' });
    const answers = await Promise.all([post(BYTES), post(BYTES), post(BYTES)]);
    expect(imports).toHaveLength(1);
    const ids = new Set(answers.map((a) => a.body.sequenceId));
    expect(ids.size).toBe(1);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 201]);
    expect((await post(BYTES)).body).toMatchObject({ replayed: true, boardId: 'brd_1' });
    expect(imports).toHaveLength(1);
    // another person with the same key is another action
    resolveAnswer = async (use) =>
      resolvedFor(use.requestDigest, { idempotencyKey: 'key-once', subject: { ...SUBJECT, userId: 'u2' } });
    expect((await post(BYTES)).status).toBe(201);
    expect(imports).toHaveLength(2);
  });

  it('answers an import the workspace refused by what the caller can do, and the same call works later', async () => {
    resolveAnswer = async (use) => resolvedFor(use.requestDigest, { idempotencyKey: 'key-later' });
    importFailure = new AppError('runtime.no_session', 'no session');
    const absent = await post(BYTES);
    expect(absent.status).toBe(409);
    expect(absent.body.code).toBe('subject_not_signed_in');
    importFailure = new AppError('inter_app.not_found', 'A panel image is elsewhere: nothing was created.');
    const refused = await post(BYTES);
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({
      code: 'board_refused',
      message: 'A panel image is elsewhere: nothing was created.',
    });
    importFailure = new Error('disk full');
    expect((await post(BYTES)).status).toBe(500);
    expect(imports).toEqual([]);
    // nothing was recorded under the key: once the person can take it, the same call creates
    importFailure = undefined;
    expect((await post(BYTES)).status).toBe(201);
    expect(imports).toHaveLength(1);
  });

  it('refuses another body under a key that already created (409), creating nothing more', async () => {
    resolveAnswer = async (use) => resolvedFor(use.requestDigest, { idempotencyKey: 'key-conflict' });
    expect((await post(BYTES)).status).toBe(201);
    const other = Buffer.from(JSON.stringify({ ...BOARD, title: 'Another' }));
    const res = await post(other);
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('idempotency_conflict');
    expect(imports).toHaveLength(1);
  });

  it('answers 404 for other paths and 405 for other methods, resolving nothing', async () => {
    expect((await post(BYTES, 'agr_x', url.replace('/sequences', '/other'))).status).toBe(404);
    expect((await fetch(url)).status).toBe(405);
    expect(resolveCalls).toEqual([]);
  });
});
