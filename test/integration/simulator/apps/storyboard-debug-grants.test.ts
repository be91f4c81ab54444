import { describe, expect, it } from 'vitest';
import type { RunningSimulator } from '../../../../src/simulator/index.js';
import type { PlatformClient } from '../platform/platform-client.js';
import { usePlatformWorld } from '../platform/platform-fixture.js';
import { debugCall, issueCliSession, setWithdrawn, type CliSession } from '../platform/debug-client.js';
import { bodyDigest, expectAppError, readDigest, StoryboardClient } from './storyboard-client.js';

let sim: RunningSimulator;
let platform: PlatformClient;
let sb: StoryboardClient;

usePlatformWorld({}, (world) => {
  sim = world.sim;
  platform = world.client;
});

const HELPER = 'storyboard-helper';
const API = '2026-01';
const BOARD = 'brd_sim_lighthouse';

const write = (panelId: string, title: string) => ({
  boardId: BOARD,
  panelId,
  result: {
    title,
    mediaUrl: 'http://127.0.0.1:9/results/film.mp4',
    mimeType: 'video/mp4',
    sha256: 'b'.repeat(64),
    byteSize: 4242,
  },
});

async function helper(): Promise<StoryboardClient> {
  sb ??= await StoryboardClient.open(sim, platform);
  return sb;
}

/** A relay-mode debug grant (`developer_debug`) of the studio's pairing. */
async function debugGrant(cli: CliSession, scope: string, requestDigest: string, key: string) {
  const res = await debugCall(platform, cli, 'POST', '/app-grants', {
    json: { calleeAppKey: HELPER, apiVersion: API, scope, idempotencyKey: key, requestDigest },
  });
  expect(res.status, res.text).toBe(200);
  expect(res.data.sourceChannel).toBe('developer_debug');
  return res.data.grant as string;
}

/** The helper's developer (same test person) opens a receiver for the studio: its pairing number. */
async function openReceiver(
  user: 'member' | 'manager' = 'member',
): Promise<{ ref: string; hcli: CliSession }> {
  const hcli = await issueCliSession(platform, HELPER, user);
  const res = await debugCall(platform, hcli, 'POST', '/debug-receivers', {
    json: {
      callerAppKey: 'framewright-studio',
      apiVersion: API,
      scopes: ['storyboard.read', 'storyboard.write'],
    },
  });
  expect(res.status, res.text).toBe(200);
  return { ref: res.data.receiverRef as string, hcli };
}

async function peerGrant(cli: CliSession, ref: string, scope: string, requestDigest: string, key: string) {
  const res = await debugCall(platform, cli, 'POST', '/debug-peer-grants', {
    json: {
      receiverRef: ref,
      calleeAppKey: HELPER,
      apiVersion: API,
      scope,
      requestDigest,
      idempotencyKey: key,
    },
  });
  expect(res.status, res.text).toBe(200);
  expect(res.data.sourceChannel).toBe('developer_local');
  return res.data.grant as string;
}

describe('storyboard-helper accepts debug grants (section D)', () => {
  it('through the relay: a developer_debug grant lists the test person’s boards and writes a panel result', async () => {
    const sbc = await helper();
    const cli = await issueCliSession(platform, 'framewright-studio', 'member');
    const listGrant = await debugGrant(cli, 'storyboard.read', readDigest('/boards'), 'relay-list');
    const list = await fetch(`${cli.relayBaseUrl}/${HELPER}/${API}/boards`, {
      headers: { Authorization: `Bearer ${cli.accessToken}`, 'X-Platform-App-Grant': listGrant },
    });
    expect(list.status).toBe(200);
    const boards = (await list.json()) as { items: { boardId: string }[] };
    expect(boards.items.map((b) => b.boardId)).toEqual([BOARD]);

    const body = JSON.stringify(write('pnl_sim_lighthouse_1', 'Relayed film'));
    const writeGrant = await debugGrant(cli, 'storyboard.write', bodyDigest(JSON.parse(body)), 'relay-write');
    const res = await fetch(`${cli.relayBaseUrl}/${HELPER}/${API}/panel-results`, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${cli.accessToken}`,
        'X-Platform-App-Grant': writeGrant,
        'Content-Type': 'application/json',
      },
      body,
    });
    expect(res.status, await res.clone().text()).toBe(200);
    expect(((await res.json()) as { replayed: boolean }).replayed).toBe(false);
    const board = await sbc.inspect(BOARD);
    const written = (board.writes as { idempotencyKey: string; callerAppKey: string }[]).find(
      (w) => w.idempotencyKey === 'relay-write',
    );
    expect(written?.callerAppKey).toBe('framewright-studio');
  });

  it('straight to the local provider: a developer_local peer grant is resolved and served with only the grant header', async () => {
    const sbc = await helper();
    const cli = await issueCliSession(platform, 'framewright-studio', 'member');
    const { ref } = await openReceiver();
    const grant = await peerGrant(cli, ref, 'storyboard.read', readDigest('/boards'), 'peer-list');
    const list = await sbc.call('GET', '/boards', { grant });
    expect(list.status, list.text).toBe(200);
    expect((list.data.items as { boardId: string }[]).map((b) => b.boardId)).toEqual([BOARD]);

    const payload = write('pnl_sim_lighthouse_2', 'Peer film');
    const wgrant = await peerGrant(cli, ref, 'storyboard.write', bodyDigest(payload), 'peer-write');
    const res = await sbc.call('POST', '/panel-results', { grant: wgrant, body: JSON.stringify(payload) });
    expect(res.status, res.text).toBe(200);
    expect(res.data.replayed).toBe(false);
    const board = await sbc.inspect(BOARD);
    expect(
      (board.writes as { idempotencyKey: string }[]).filter((w) => w.idempotencyKey === 'peer-write'),
    ).toHaveLength(1);
  });

  it('refuses a peer grant for another request, one whose receiver is revoked, or one withdrawn by the provider', async () => {
    const sbc = await helper();
    const cli = await issueCliSession(platform, 'framewright-studio', 'member');
    const { ref, hcli } = await openReceiver();
    // bound to the list: it reads no board
    const grant = await peerGrant(cli, ref, 'storyboard.read', readDigest('/boards'), 'peer-bound');
    expectAppError(await sbc.call('GET', `/boards/${BOARD}`, { grant }), 404, 'APP_GRANT_NOT_FOUND');
    // a write body changed by one byte after the grant
    const payload = write('pnl_sim_lighthouse_3', 'Peer film');
    const wgrant = await peerGrant(cli, ref, 'storyboard.write', bodyDigest(payload), 'peer-tamper');
    const tampered = JSON.stringify({ ...payload, result: { ...payload.result, byteSize: 4243 } });
    expectAppError(
      await sbc.call('POST', '/panel-results', { grant: wgrant, body: tampered }),
      404,
      'APP_GRANT_NOT_FOUND',
    );
    // withdrawn by the provider, then reopened
    await setWithdrawn(platform, HELPER, true);
    expectAppError(await sbc.call('GET', '/boards', { grant }), 404, 'APP_GRANT_NOT_FOUND');
    await setWithdrawn(platform, HELPER, false);
    expect((await sbc.call('GET', '/boards', { grant })).status).toBe(200);
    // the receiver revoked: for good
    const revoked = await debugCall(platform, hcli, 'DELETE', `/debug-receivers/${ref}`);
    expect(revoked.status, revoked.text).toBe(200);
    expectAppError(await sbc.call('GET', '/boards', { grant }), 404, 'APP_GRANT_NOT_FOUND');
    const board = await sbc.inspect(BOARD);
    expect(
      (board.writes as { idempotencyKey: string }[]).some((w) => w.idempotencyKey === 'peer-tamper'),
    ).toBe(false);
  });
});
