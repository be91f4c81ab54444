import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSimulator } from '../../../../src/simulator/index.js';
import type { Json } from '../client.js';
import { expectPlatformError, type PlatformApp, type PlatformClient } from '../platform/platform-client.js';
import { usePlatformWorld } from '../platform/platform-fixture.js';
import { canonical, expectAppError, StoryboardClient } from './storyboard-client.js';

/**
 * storyboard-helper as a caller: its simulator-only route sends a board to a Framewright (here a
 * recording stand-in that answers what it is told) with one grant for the exact bytes it sends.
 */

let sim: RunningSimulator;
let platform: PlatformClient;
let studio: PlatformApp;
let helper: PlatformApp;
let memberStudioSession: string;
let sb: StoryboardClient;

usePlatformWorld({ sessions: ['member'] }, (world) => {
  sim = world.sim;
  platform = world.client;
  studio = world.studio;
  helper = world.helper;
  memberStudioSession = world.sessions.member!.sessionId as string;
});

interface Received {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** A stand-in of Framewright's public origin: records each request, answers `answer`. */
const received: Received[] = [];
let answer: { status: number; body: unknown; headers?: Record<string, string> } = {
  status: 201,
  body: { sequenceId: 'seq_fake_1', replayed: false },
};
let target: http.Server;
let targetUrl: string;

beforeAll(async () => {
  target = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({
        method: req.method!,
        url: req.url!,
        headers: req.headers,
        body: Buffer.concat(chunks),
      });
      res.writeHead(answer.status, { 'Content-Type': 'application/json', ...answer.headers });
      res.end(JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
  targetUrl = `http://127.0.0.1:${(target.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => target.close(() => resolve()));
});

const digestOf = (bytes: Buffer) => 'sha256:' + createHash('sha256').update(bytes).digest('hex');

async function client(): Promise<StoryboardClient> {
  sb ??= await StoryboardClient.open(sim, platform);
  return sb;
}

async function send(boardId: string, body: unknown = { targetBaseUrl: targetUrl }, token = sim.token) {
  const c = await client();
  return c.call('POST', `/_simulator/boards/${boardId}/send-to-framewright`, {
    body: JSON.stringify(body),
    headers: { Authorization: `Bearer ${token}` },
  });
}

/** Framewright's resolve of a received call, as its backend does it (its own credential). */
function resolveAsStudio(r: Received, scope = 'sequence.create') {
  return platform.session(studio, 'POST', '/app-grants:resolve', {
    json: { grant: r.headers['x-platform-app-grant'], scope, requestDigest: digestOf(r.body) },
  });
}

describe('storyboard-helper sends a board to Framewright (sequence.create)', () => {
  it('declares the dependency, and the studio opens sequence.create (in the platform object too)', () => {
    expect(helper.dependencies).toEqual([
      { calleeAppKey: 'framewright-studio', apiVersion: '2026-01', scopes: ['sequence.create'] },
    ]);
    expect(studio.capabilities).toEqual([
      { apiVersion: '2026-01', scopes: ['sequence.create'], onlineDebug: true },
    ]);
    expect(helper.capabilities).toEqual([
      { apiVersion: '2026-01', scopes: ['storyboard.read', 'storyboard.write'], onlineDebug: true },
    ]);
  });

  it("issues one grant as the owner for the exact bytes sent, carries only the grant, and answers Framewright's answer", async () => {
    received.length = 0;
    const res = await send('brd_sim_lighthouse');
    expect(res.status, res.text).toBe(201);
    expect(res.data).toEqual({ sequenceId: 'seq_fake_1', replayed: false });
    expect(received).toHaveLength(1);
    const r = received[0]!;
    expect(r.method).toBe('POST');
    expect(r.url).toBe('/inter-app/2026-01/sequences');
    expect(r.headers['content-type']).toBe('application/json');
    // nothing identifying but the grant
    for (const name of Object.keys(r.headers))
      expect(name).not.toMatch(/^(authorization|cookie|x-platform-runtime-session-id|x-request-id)$/);
    expect(Object.keys(r.headers).filter((n) => n.startsWith('x-'))).toEqual(['x-platform-app-grant']);
    // the body: the board's content, in canonical JSON
    const board = JSON.parse(r.body.toString('utf8')) as Json;
    expect(r.body.toString('utf8')).toBe(canonical(board));
    expect(board).toMatchObject({
      boardId: 'brd_sim_lighthouse',
      title: 'The lighthouse keeper',
      revision: 1,
    });
    expect(board.panels).toHaveLength(3);
    expect(Object.keys(board.panels[0].image).sort()).toEqual(['byteSize', 'mimeType', 'sha256', 'url']);
    const png = await fetch(board.panels[0].image.url);
    expect(png.status).toBe(200);
    expect(
      createHash('sha256')
        .update(Buffer.from(await png.arrayBuffer()))
        .digest('hex'),
    ).toBe(board.panels[0].image.sha256);
    // Framewright resolves it with its own credential: the member's grant, for exactly these bytes
    const resolved = await resolveAsStudio(r);
    expect(resolved.status, resolved.text).toBe(200);
    expect(resolved.data).toMatchObject({
      callerAppKey: 'storyboard-helper',
      calleeAppKey: 'framewright-studio',
      apiVersion: '2026-01',
      scope: 'sequence.create',
      requestDigest: digestOf(r.body),
      subject: { userId: 'usr_sim_member', organizationId: 'org_sim_northwind' },
    });
    expect(resolved.data.idempotencyKey).toMatch(/^board-to-framewright:brd_sim_lighthouse:r1:/);
    // one byte changed, another scope: the same uniform 404
    const tampered = Buffer.from(r.body);
    tampered.writeUInt8(tampered.readUInt8(tampered.length - 2) ^ 1, tampered.length - 2);
    expectPlatformError(await resolveAsStudio({ ...r, body: tampered }), 404, 'APP_GRANT_NOT_FOUND');
    expectPlatformError(await resolveAsStudio(r, 'storyboard.read'), 404, 'APP_GRANT_NOT_FOUND');
    // storyboard-helper cannot resolve a grant made for the studio
    expectPlatformError(
      await platform.session(helper, 'POST', '/app-grants:resolve', {
        json: {
          grant: r.headers['x-platform-app-grant'],
          scope: 'sequence.create',
          requestDigest: digestOf(r.body),
        },
      }),
      404,
      'APP_GRANT_NOT_FOUND',
    );
  });

  it('sends a retry of the same revision with the same bytes and grant; a new revision gets a new key and digest', async () => {
    received.length = 0;
    answer = { status: 200, body: { sequenceId: 'seq_fake_1', replayed: true } };
    await send('brd_sim_launch_teaser');
    await send('brd_sim_launch_teaser');
    expect(received).toHaveLength(2);
    expect(received[1]!.body.equals(received[0]!.body)).toBe(true);
    expect(received[1]!.headers['x-platform-app-grant']).toBe(received[0]!.headers['x-platform-app-grant']);
    // the manager's board is sent as the manager
    const first = await resolveAsStudio(received[0]!);
    expect(first.data.subject.userId).toBe('usr_sim_manager');
    // a panel result written (by the studio, with its own grant) makes revision 2
    const c = await client();
    const manager = (await platform.openSession(studio, 'manager')).sessionId as string;
    const write = {
      boardId: 'brd_sim_launch_teaser',
      panelId: 'pnl_sim_teaser_1',
      result: {
        title: 'Take 1',
        mediaUrl: 'http://127.0.0.1:9/take1.mp4',
        mimeType: 'video/mp4',
        sha256: 'b'.repeat(64),
        byteSize: 10,
      },
    };
    const body = canonical(write);
    const grant = await c.grant(manager, 'storyboard.write', digestOf(Buffer.from(body)), 'write-teaser-1');
    expect((await c.call('POST', '/panel-results', { grant, body })).status).toBe(200);
    await send('brd_sim_launch_teaser');
    const third = received[2]!;
    expect(JSON.parse(third.body.toString('utf8')).revision).toBe(2);
    expect(third.headers['x-platform-app-grant']).not.toBe(received[0]!.headers['x-platform-app-grant']);
    const resolved = await resolveAsStudio(third);
    expect(resolved.data.idempotencyKey).toMatch(/^board-to-framewright:brd_sim_launch_teaser:r2:/);
    expect(resolved.data.idempotencyKey).not.toBe(first.data.idempotencyKey);
  });

  it("passes Framewright's refusal on as it came (status, body, Retry-After)", async () => {
    answer = {
      status: 503,
      body: { code: 'APP_GRANT_SERVICE_UNAVAILABLE', message: 'later', requestId: 'req_x' },
      headers: { 'Retry-After': '7' },
    };
    const res = await send('brd_sim_lighthouse');
    expectAppError(res, 503, 'APP_GRANT_SERVICE_UNAVAILABLE');
    expect(res.headers.get('retry-after')).toBe('7');
    answer = { status: 201, body: { sequenceId: 'seq_fake_1', replayed: false } };
  });

  it('refuses without the simulator token, an unknown board, a bad target; reports an unreachable one', async () => {
    received.length = 0;
    expectAppError(
      await send('brd_sim_lighthouse', { targetBaseUrl: targetUrl }, 'wrong'),
      401,
      'unauthorized',
    );
    expectAppError(await send('brd_nope'), 404, 'board_not_found');
    for (const bad of [
      { targetBaseUrl: 'file:///etc' },
      { targetBaseUrl: 'http://user:pw@127.0.0.1:1' },
      { targetBaseUrl: targetUrl, extra: 1 },
      {},
    ])
      expectAppError(await send('brd_sim_lighthouse', bad), 400, 'invalid_request');
    expect(received).toHaveLength(0);
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    expectAppError(
      await send('brd_sim_lighthouse', { targetBaseUrl: `http://127.0.0.1:${port}` }),
      502,
      'framewright_unreachable',
    );
  });

  it('refuses to send a revision again once its grant has expired (the grant plaintext appears once)', async () => {
    received.length = 0;
    const target2 = `${targetUrl}/second`;
    expect((await send('brd_sim_lighthouse', { targetBaseUrl: target2 })).status).toBe(201);
    await platform.advanceClock(121);
    const again = await send('brd_sim_lighthouse', { targetBaseUrl: target2 });
    expectAppError(again, 409, 'board_revision_already_sent');
    expect(received).toHaveLength(1);
    expect(received[0]!.url).toBe('/second/inter-app/2026-01/sequences');
  });

  it('cannot get a grant to the studio for a scope it does not open', async () => {
    const helperSession = (await platform.openSession(helper, 'member')).sessionId as string;
    expectPlatformError(
      await platform.session(helper, 'POST', '/app-grants', {
        json: {
          runtimeSessionId: helperSession,
          calleeAppKey: 'framewright-studio',
          apiVersion: '2026-01',
          scope: 'sequence.delete',
          idempotencyKey: 'nope-1',
          requestDigest: 'sha256:' + 'a'.repeat(64),
        },
      }),
      403,
      'APP_CAPABILITY_NOT_DECLARED',
    );
    expect(memberStudioSession).toBeTruthy();
  });
});
