import { describe, expect, it } from 'vitest';
import {
  debugPeerFromEnvironment,
  grantChannelForProfile,
} from '../../../src/main/core/inter-app/debug-grant-channels.js';
import { DebugPeerGrantChannel } from '../../../src/main/core/inter-app/debug-peer-grant-channel.js';
import { DebugRelayGrantChannel } from '../../../src/main/core/inter-app/debug-relay-grant-channel.js';
import { GrantPlaintextGoneError, InterAppError } from '../../../src/main/core/inter-app/grant-errors.js';

const binding = {
  appId: 'app_1',
  appVersionId: 'ver_1',
  developerBaseUrl: 'http://dev.test/api/v1/appstore/developer',
  runtimeBaseUrl: 'http://dbg.test/platform/debug/v1',
  relayBaseUrl: null,
};
const request = {
  calleeAppKey: 'storyboard-helper',
  apiVersion: '2026-01',
  scope: 'storyboard.write',
  idempotencyKey: 'send-1',
  requestDigest: 'sha256:' + 'a'.repeat(64),
};

interface Call {
  url: string;
  init: RequestInit;
}

/** A fetch that answers from a script, recording every call. */
function scripted(answers: Array<() => Response>) {
  const calls: Call[] = [];
  const fetchImpl = async (url: string, init: RequestInit) => {
    calls.push({ url, init });
    const next = answers.shift();
    if (!next) throw new Error('no more answers');
    return next();
  };
  return { calls, fetchImpl };
}
const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });

/** The channel a debug profile gets for Storyboard Helper (through `peer` when given), over `answers`. */
function debugChannel(
  answers: Array<() => Response>,
  { waits = [], peer }: { waits?: number[]; peer?: { baseUrl: string; receiverRef: string } } = {},
) {
  const { calls, fetchImpl } = scripted(answers);
  const channel = grantChannelForProfile({
    binding,
    token: async () => 'cli-token',
    calleeAppKey: 'storyboard-helper',
    apiVersion: '2026-01',
    appLabel: 'Storyboard Helper',
    fetch: fetchImpl,
    wait: async (ms) => void waits.push(ms),
    ...(peer ? { peer } : {}),
  });
  return { channel, calls };
}

describe('debug grant channels', () => {
  it('issues a relay grant with the CLI Bearer and no runtime session id; a lost answer is replayed with the same key and body', async () => {
    const { channel, calls } = debugChannel([
      () => {
        throw new TypeError('socket hang up');
      },
      () =>
        json(200, {
          grant: 'g-1',
          apiVersion: '2026-01',
          sourceChannel: 'developer_debug',
          expiresAt: '2099-01-01T00:00:00Z',
        }),
    ]);
    expect(channel).toBeInstanceOf(DebugRelayGrantChannel);
    expect(await channel.issue(request)).toEqual({ grant: 'g-1', expiresAt: '2099-01-01T00:00:00Z' });
    expect(calls.map((c) => c.url)).toEqual([
      'http://dev.test/api/v1/appstore/developer/apps/app_1/versions/ver_1/app-grants',
      'http://dev.test/api/v1/appstore/developer/apps/app_1/versions/ver_1/app-grants',
    ]);
    expect(calls[0]!.init.body).toBe(calls[1]!.init.body);
    expect(JSON.parse(calls[0]!.init.body as string)).toEqual(request);
    expect((calls[0]!.init.headers as Record<string, string>).authorization).toBe('Bearer cli-token');
  });

  it('a replay answered without the plaintext gives back the grant this process holds', async () => {
    const fact = {
      apiVersion: '2026-01',
      sourceChannel: 'developer_debug',
      expiresAt: '2099-01-01T00:00:00Z',
    };
    const { channel } = debugChannel([() => json(200, { grant: 'g-1', ...fact }), () => json(200, fact)]);
    await channel.issue(request);
    expect((await channel.issue(request)).grant).toBe('g-1');
  });

  it('waits out a 503 by its Retry-After, then names a refusal in a plain sentence', async () => {
    const waits: number[] = [];
    const { channel } = debugChannel(
      [
        () => json(503, { code: 'APP_GRANT_SERVICE_UNAVAILABLE', message: 'down' }, { 'retry-after': '2' }),
        () => json(409, { code: 'DEVELOPER_APP_GRANT_REJECTED', message: 'not declared' }),
      ],
      { waits },
    );
    const error = await channel.issue(request).catch((e: unknown) => e);
    expect(waits).toEqual([2000]);
    expect(error).toBeInstanceOf(InterAppError);
    expect((error as InterAppError).code).toBe('inter_app.not_declared');
    expect((error as InterAppError).message).toMatch(
      /version you are debugging cannot call Storyboard Helper/,
    );
  });

  it('a replay answered without the plaintext throws the one GrantPlaintextGoneError callers catch (their successor-key path runs in debugging too)', async () => {
    for (const peer of [undefined, { baseUrl: 'http://127.0.0.1:9/peer', receiverRef: 'rcv_1' }]) {
      const { channel } = debugChannel(
        [
          () =>
            json(200, {
              apiVersion: '2026-01',
              sourceChannel: peer ? 'developer_local' : 'developer_debug',
              expiresAt: '2099-01-01T00:00:00Z',
            }),
        ],
        peer ? { peer } : {},
      );
      const error = await channel.issue(request).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(GrantPlaintextGoneError);
      expect((error as GrantPlaintextGoneError).expiresAt).toBe('2099-01-01T00:00:00Z');
    }
  });

  it('sends through {debug_base_url}/inter-app/{callee}/{apiVersion} with the CLI Bearer and the grant', async () => {
    const { channel, calls } = debugChannel([() => json(200, { ok: true })]);
    const res = await channel.send({
      method: 'POST',
      path: '/panel-results',
      body: Buffer.from('{"a":1}'),
      grant: 'g-1',
    });
    expect(res.status).toBe(200);
    expect(calls[0]!.url).toBe(
      'http://dbg.test/platform/debug/v1/inter-app/storyboard-helper/2026-01/panel-results',
    );
    const headers = calls[0]!.init.headers as Record<string, string>;
    expect(headers.authorization).toBe('Bearer cli-token');
    expect(headers['X-Platform-App-Grant']).toBe('g-1');
    expect(calls[0]!.init.redirect).toBe('manual');
  });

  it('a peer channel issues for its receiver and sends with the grant only', async () => {
    const { channel, calls } = debugChannel(
      [
        () =>
          json(200, {
            grant: 'p-1',
            apiVersion: '2026-01',
            sourceChannel: 'developer_local',
            expiresAt: '2099-01-01T00:00:00Z',
          }),
        () => json(200, { items: [] }),
      ],
      { peer: { baseUrl: 'http://127.0.0.1:4000/apps/storyboard-helper', receiverRef: '123456789' } },
    );
    expect(channel).toBeInstanceOf(DebugPeerGrantChannel);
    const { grant } = await channel.issue(request);
    await channel.send({ method: 'GET', path: '/boards', grant });
    expect(calls[0]!.url).toMatch(/\/versions\/ver_1\/debug-peer-grants$/);
    expect(JSON.parse(calls[0]!.init.body as string)).toEqual({ receiverRef: '123456789', ...request });
    expect(calls[1]!.url).toBe('http://127.0.0.1:4000/apps/storyboard-helper/boards');
    expect(Object.keys(calls[1]!.init.headers as Record<string, string>).sort()).toEqual([
      'X-Platform-App-Grant',
      'accept',
    ]);
  });

  it('reads the local peer from both settings, or none', () => {
    expect(debugPeerFromEnvironment({})).toBeUndefined();
    expect(
      debugPeerFromEnvironment({
        FRAMEWRIGHT_DEBUG_PEER_URL: 'http://127.0.0.1:4000/apps/storyboard-helper/',
        FRAMEWRIGHT_DEBUG_PEER_RECEIVER: '123456789',
      }),
    ).toEqual({ baseUrl: 'http://127.0.0.1:4000/apps/storyboard-helper', receiverRef: '123456789' });
    expect(() => debugPeerFromEnvironment({ FRAMEWRIGHT_DEBUG_PEER_URL: 'http://127.0.0.1:4000' })).toThrow(
      /FRAMEWRIGHT_DEBUG_PEER_RECEIVER/,
    );
    expect(() =>
      debugPeerFromEnvironment({
        FRAMEWRIGHT_DEBUG_PEER_URL: 'file:///x',
        FRAMEWRIGHT_DEBUG_PEER_RECEIVER: '1',
      }),
    ).toThrow(/http/);
  });
});
