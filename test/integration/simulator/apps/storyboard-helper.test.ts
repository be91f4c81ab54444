import SwaggerParser from '@apidevtools/swagger-parser';
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { RunningSimulator } from '../../../../src/simulator/index.js';
import type { Json } from '../client.js';
import type { PlatformClient } from '../platform/platform-client.js';
import { usePlatformWorld } from '../platform/platform-fixture.js';
import {
  bodyDigest,
  canonical,
  expectAppError,
  readDigest,
  sha256Digest,
  StoryboardClient,
} from './storyboard-client.js';

let sim: RunningSimulator;
let platform: PlatformClient;
let member: string;
let manager: string;
let personal: string;
let sb: StoryboardClient;

usePlatformWorld({ sessions: ['member', 'manager', 'personal'] }, (world) => {
  sim = world.sim;
  platform = world.client;
  member = world.sessions.member!.sessionId;
  manager = world.sessions.manager!.sessionId;
  personal = world.sessions.personal!.sessionId;
});

const MEMBER_BOARD = 'brd_sim_lighthouse';
const MANAGER_BOARD = 'brd_sim_launch_teaser';

const write = (panelId: string, title: string, boardId = MEMBER_BOARD) => ({
  boardId,
  panelId,
  result: {
    title,
    mediaUrl: 'http://127.0.0.1:9/results/shot.mp4',
    mimeType: 'video/mp4',
    sha256: 'a'.repeat(64),
    byteSize: 123456,
  },
});

async function client(): Promise<StoryboardClient> {
  sb ??= await StoryboardClient.open(sim, platform);
  return sb;
}

describe('storyboard-helper, a second application with its own interface', () => {
  it('is announced in the platform object and serves its own OpenAPI document at its business base address', async () => {
    const origin = new URL(sim.baseUrl).origin;
    const [studio, helper] = sim.platform.apps;
    expect(helper!.businessBaseUrl).toBe(`${origin}/apps/storyboard-helper`);
    expect(studio!.businessBaseUrl).toBeUndefined();
    expect(studio!.appId).toBe('app_sim_framewright_studio');
    expect(helper!.appId).toBe('app_sim_storyboard_helper');
    const doc = (await (await fetch(`${helper!.businessBaseUrl}/openapi.json`)).json()) as Json;
    expect(doc.servers[0].url).toBe(helper!.businessBaseUrl);
    expect(doc.openapi).toMatch(/^3\.1\./);
    await SwaggerParser.validate(structuredClone(doc));
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(['/boards', '/boards/{boardId}', '/panel-results', '/echo/{echoPath}']),
    );
    expect(doc.paths['/panel-results'].post['x-grant-scope']).toBe('storyboard.write');
    expect(doc.paths['/boards'].get['x-grant-scope']).toBe('storyboard.read');
    expect(doc.components.securitySchemes.appGrant).toMatchObject({
      in: 'header',
      name: 'X-Platform-App-Grant',
    });
    // its paths are its own, not the platform's
    const platformDoc = (await (await fetch(`${origin}/platform/openapi.json`)).json()) as Json;
    expect(Object.keys(platformDoc.paths).some((p) => p.includes('board'))).toBe(false);
  });

  it("reads the grant person's boards, each panel a prompt and a real PNG at a signed address", async () => {
    const c = await client();
    const list = await c.read(member, '/boards', 'read-list-1');
    expect(list.status, list.text).toBe(200);
    expect(list.data.items).toEqual([
      expect.objectContaining({ boardId: MEMBER_BOARD, panelCount: 3, revision: 1 }),
    ]);
    const board = await c.read(member, `/boards/${MEMBER_BOARD}`, 'read-board-1');
    expect(board.status, board.text).toBe(200);
    expect(board.data.panels).toHaveLength(3);
    expect(board.data.panels.map((p: Json) => p.position)).toEqual([1, 2, 3]);
    const shas = new Set<string>();
    for (const panel of board.data.panels) {
      expect(panel.prompt.length).toBeGreaterThan(10);
      expect(panel.result).toBeNull();
      const res = await fetch(panel.image.url);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('image/png');
      const bytes = Buffer.from(await res.arrayBuffer());
      expect(bytes.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
      expect(bytes.readUInt32BE(16)).toBe(panel.image.width);
      expect(bytes.readUInt32BE(20)).toBe(panel.image.height);
      expect(bytes.length).toBe(panel.image.byteSize);
      expect(createHash('sha256').update(bytes).digest('hex')).toBe(panel.image.sha256);
      shas.add(panel.image.sha256);
    }
    expect(shas.size).toBe(3);
    // a forged signature is not an address of its storage
    const forged = board.data.panels[0].image.url.replace(
      /signature=[0-9a-f]+/,
      'signature=' + '0'.repeat(64),
    );
    expect((await fetch(forged)).status).toBe(404);
    const other = board.data.panels[0].image.url.replace('pnl_sim_lighthouse_1', 'pnl_sim_teaser_1');
    expect((await fetch(other)).status).toBe(404);
  });

  it("one person never sees another's boards", async () => {
    const c = await client();
    const managers = await c.read(manager, '/boards', 'read-list-mgr');
    expect(managers.data.items.map((b: Json) => b.boardId)).toEqual([MANAGER_BOARD]);
    const none = await c.read(personal, '/boards', 'read-list-personal');
    expect(none.status).toBe(200);
    expect(none.data.items).toEqual([]);
    expectAppError(await c.read(member, `/boards/${MANAGER_BOARD}`, 'peek-1'), 404, 'board_not_found');
    expectAppError(await c.read(manager, `/boards/${MEMBER_BOARD}`, 'peek-2'), 404, 'board_not_found');
    expectAppError(await c.read(member, '/boards/brd_nope', 'peek-3'), 404, 'board_not_found');
    // nor writes into them
    const body = write('pnl_sim_teaser_1', 'Not mine', MANAGER_BOARD);
    const grant = await c.grant(member, 'storyboard.write', bodyDigest(body), 'peek-write');
    expectAppError(
      await c.call('POST', '/panel-results', { grant, body: JSON.stringify(body) }),
      404,
      'board_not_found',
    );
    expect((await c.inspect(MANAGER_BOARD)).writes).toEqual([]);
  });

  it('writes a panel result with a write grant; a replayed write is written once', async () => {
    const c = await client();
    const body = write('pnl_sim_lighthouse_2', 'Gears, take 3');
    // not the canonical text: the digest is of the canonical form of what is received
    const text = JSON.stringify(body, null, 2);
    const grant = await c.grant(member, 'storyboard.write', bodyDigest(body), 'write-1');
    const first = await c.call('POST', '/panel-results', { grant, body: text });
    expect(first.status, first.text).toBe(200);
    expect(first.data).toMatchObject({
      replayed: false,
      write: { boardId: MEMBER_BOARD, panelId: body.panelId, result: body.result },
    });
    const again = await c.call('POST', '/panel-results', { grant, body: text });
    expect(again.status).toBe(200);
    expect(again.data).toMatchObject({ replayed: true, write: first.data.write });
    // the same grant sent with the canonical body: still one write
    expect((await c.call('POST', '/panel-results', { grant, body: canonical(body) })).data.replayed).toBe(
      true,
    );
    const inspected = await c.inspect(MEMBER_BOARD);
    expect(inspected.writes).toHaveLength(1);
    expect(inspected.writes[0]).toMatchObject({
      panelId: body.panelId,
      callerAppKey: 'framewright-studio',
      idempotencyKey: 'write-1',
    });
    expect(JSON.stringify(inspected)).not.toContain(grant);
    const board = await c.read(member, `/boards/${MEMBER_BOARD}`, 'read-board-2');
    expect(board.data.revision).toBe(2);
    expect(board.data.panels[1].result).toMatchObject({ ...body.result, writeId: first.data.write.writeId });
    expect(board.data.panels[0].result).toBeNull();
  });

  it('concurrent identical writes under one grant write once', async () => {
    const c = await client();
    const body = write('pnl_sim_lighthouse_1', 'Cliff, take 7');
    const grant = await c.grant(member, 'storyboard.write', bodyDigest(body), 'concurrent-1');
    const before = (await c.inspect(MEMBER_BOARD)).writes.length;
    const answers = await Promise.all(
      [0, 1, 2, 3].map(() => c.call('POST', '/panel-results', { grant, body: canonical(body) })),
    );
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200]);
    expect(answers.filter((a) => !a.data.replayed)).toHaveLength(1);
    expect(new Set(answers.map((a) => a.data.write.writeId)).size).toBe(1);
    expect((await c.inspect(MEMBER_BOARD)).writes).toHaveLength(before + 1);
  });

  it('a tampered body (one byte changed) is refused before any side effect', async () => {
    const c = await client();
    const body = write('pnl_sim_lighthouse_3', 'Fog, take 1');
    const grant = await c.grant(member, 'storyboard.write', bodyDigest(body), 'tamper-1');
    const tampered = canonical(body).replace('Fog, take 1', 'Fog, take 2');
    expect(tampered.length).toBe(canonical(body).length);
    const before = (await c.inspect(MEMBER_BOARD)).writes.length;
    expectAppError(
      await c.call('POST', '/panel-results', { grant, body: tampered }),
      404,
      'APP_GRANT_NOT_FOUND',
    );
    // another panel under the same grant: also another digest
    const moved = canonical({ ...body, panelId: 'pnl_sim_lighthouse_1' });
    expectAppError(
      await c.call('POST', '/panel-results', { grant, body: moved }),
      404,
      'APP_GRANT_NOT_FOUND',
    );
    const after = await c.inspect(MEMBER_BOARD);
    expect(after.writes).toHaveLength(before);
    expect(after.panels[2].result).toBeNull();
    // the untampered body under the same grant is still accepted (the refusal consumed nothing)
    expect((await c.call('POST', '/panel-results', { grant, body: canonical(body) })).data.replayed).toBe(
      false,
    );
  });

  it('a grant of the wrong scope, for another request, or none at all is refused; nothing written', async () => {
    const c = await client();
    const body = write('pnl_sim_lighthouse_1', 'Cliff, take 1');
    const before = (await c.inspect(MEMBER_BOARD)).writes.length;
    const readGrant = await c.grant(member, 'storyboard.read', bodyDigest(body), 'scope-1');
    expectAppError(
      await c.call('POST', '/panel-results', { grant: readGrant, body: canonical(body) }),
      404,
      'APP_GRANT_NOT_FOUND',
    );
    const writeGrant = await c.grant(member, 'storyboard.write', readDigest('/boards'), 'scope-2');
    expectAppError(await c.call('GET', '/boards', { grant: writeGrant }), 404, 'APP_GRANT_NOT_FOUND');
    // a read grant is bound to its own path
    const listGrant = await c.grant(member, 'storyboard.read', readDigest('/boards'), 'scope-3');
    expectAppError(
      await c.call('GET', `/boards/${MEMBER_BOARD}`, { grant: listGrant }),
      404,
      'APP_GRANT_NOT_FOUND',
    );
    expectAppError(
      await c.call('POST', '/panel-results', { body: canonical(body) }),
      401,
      'APP_GRANT_MISSING',
    );
    expectAppError(await c.call('GET', '/boards'), 401, 'APP_GRANT_MISSING');
    expectAppError(
      await c.call('POST', '/panel-results', { grant: 'agr_forged', body: canonical(body) }),
      404,
      'APP_GRANT_NOT_FOUND',
    );
    expect((await c.inspect(MEMBER_BOARD)).writes).toHaveLength(before);
  });

  it('a malformed body under a valid grant is 400 and writes nothing', async () => {
    const c = await client();
    const body = { ...write('pnl_sim_lighthouse_1', 'x'), extra: true };
    const grant = await c.grant(member, 'storyboard.write', bodyDigest(body), 'bad-body');
    const before = (await c.inspect(MEMBER_BOARD)).writes.length;
    expectAppError(
      await c.call('POST', '/panel-results', { grant, body: canonical(body) }),
      400,
      'invalid_request',
    );
    expect((await c.inspect(MEMBER_BOARD)).writes).toHaveLength(before);
  });

  it('answers APP_GRANT_SERVICE_UNAVAILABLE when the session service is down, writing nothing', async () => {
    const c = await client();
    const body = write('pnl_sim_lighthouse_1', 'Outage');
    const grant = await c.grant(member, 'storyboard.write', bodyDigest(body), 'outage-1');
    const before = (await c.inspect(MEMBER_BOARD)).writes.length;
    sim.setScenario('unavailable');
    let res;
    try {
      res = await c.call('POST', '/panel-results', { grant, body: canonical(body) });
    } finally {
      sim.setScenario(null);
    }
    expectAppError(res, 503, 'APP_GRANT_SERVICE_UNAVAILABLE');
    expect(res.headers.get('retry-after')).toBeTruthy();
    expect((await c.inspect(MEMBER_BOARD)).writes).toHaveLength(before);
  });

  it('echoes the request it received (method, path, headers, body size), without a grant', async () => {
    const c = await client();
    const payload = Buffer.from('x'.repeat(1234));
    const res = await c.call('PUT', '/echo/anything?mode=check', {
      body: payload.toString(),
      headers: { 'Content-Type': 'text/plain', Cookie: 'a=1', 'X-Trace': 'abc' },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.data).toMatchObject({
      method: 'PUT',
      path: '/echo/anything',
      query: { mode: 'check' },
      bodySize: 1234,
      bodySha256: createHash('sha256').update(payload).digest('hex'),
    });
    expect(res.data.headers).toMatchObject({ cookie: 'a=1', 'x-trace': 'abc', 'content-type': 'text/plain' });
    const deep = await c.call('DELETE', '/echo/a/b/c');
    expect(deep.data).toMatchObject({ method: 'DELETE', path: '/echo/a/b/c', bodySize: 0 });
    const redirect = await c.call(
      'GET',
      '/echo/r?status=307&location=http%3A%2F%2F127.0.0.1%3A9%2Felsewhere',
    );
    expect(redirect.status).toBe(307);
    expect(redirect.headers.get('location')).toBe('http://127.0.0.1:9/elsewhere');
    const bytes = await fetch(`${c.baseUrl}/echo/b?responseBytes=70000`);
    expect(bytes.status).toBe(200);
    expect((await bytes.arrayBuffer()).byteLength).toBe(70000);
    expectAppError(await c.call('GET', '/echo/x?status=99'), 400, 'invalid_request');
  });

  it("guards its inspection route with the simulator's token", async () => {
    const c = await client();
    expectAppError(await c.call('GET', `/_simulator/boards/${MEMBER_BOARD}`), 401, 'unauthorized');
    expectAppError(
      await c.call('GET', '/_simulator/boards', { headers: { Authorization: 'Bearer wrong' } }),
      401,
      'unauthorized',
    );
    const all = await c.call('GET', '/_simulator/boards', {
      headers: { Authorization: `Bearer ${sim.token}` },
    });
    expect(all.data.items.map((b: Json) => [b.boardId, b.ownerUserId])).toEqual([
      [MEMBER_BOARD, 'usr_sim_member'],
      [MANAGER_BOARD, 'usr_sim_manager'],
    ]);
  });

  it('an expired grant is refused (simulator clock) and writes nothing', async () => {
    const c = await client();
    const body = write('pnl_sim_lighthouse_1', 'Late');
    const grant = await c.grant(member, 'storyboard.write', bodyDigest(body), 'expired-1');
    const readGrant = await c.grant(member, 'storyboard.read', readDigest('/boards'), 'expired-2');
    const before = (await c.inspect(MEMBER_BOARD)).writes.length;
    await platform.advanceClock(121);
    expectAppError(
      await c.call('POST', '/panel-results', { grant, body: canonical(body) }),
      404,
      'APP_GRANT_NOT_FOUND',
    );
    expectAppError(await c.call('GET', '/boards', { grant: readGrant }), 404, 'APP_GRANT_NOT_FOUND');
    expect((await c.inspect(MEMBER_BOARD)).writes).toHaveLength(before);
    expect(sha256Digest('x')).toMatch(/^sha256:[0-9a-f]{64}$/);
  });
});
