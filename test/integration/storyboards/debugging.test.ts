/**
 * Storyboards in online debugging (issue 29, section D): with a paired debug profile (a CLI
 * session made by the simulator's test route), the member's boards are listed and a panel result
 * is written through the relay (`developer_debug`) and through a peer grant to a locally running
 * storyboard-helper (`developer_local`, the simulator's helper standing in). Every request
 * Framewright makes passes a recording proxy: the production application credential is never
 * sent; the CLI token and the grants are in no file.
 */
import fs from 'node:fs';
import type { IncomingHttpHeaders } from 'node:http';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { DebugStoryboards } from '../../../src/main/core/app/debug-storyboards.js';
import { DebugPairingFeature } from '../../../src/main/core/debug-pairing/debug-pairing-feature.js';
import { DebugSessions, type DebugBinding } from '../../../src/main/core/debug-pairing/debug-sessions.js';
import { canonicalJsonBytes } from '../../../src/main/core/inter-app/canonical-json.js';
import { DebugPeerGrantChannel } from '../../../src/main/core/inter-app/debug-peer-grant-channel.js';
import { DebugRelayGrantChannel } from '../../../src/main/core/inter-app/debug-relay-grant-channel.js';
import type { GrantChannel } from '../../../src/main/core/inter-app/grant-channel.js';
import { readRequestDigest, requestDigest } from '../../../src/main/core/inter-app/request-digest.js';
import type { Profile } from '../../../src/main/core/journal/profiles-repository.js';
import type { RunningSimulator } from '../../../src/simulator/index.js';
import type { CliSession as SimulatorCliSession } from '../simulator/platform/debug-client.js';
import { MemorySecretStore } from '../../support/memory-secret-store.js';
import { forwardingProxy } from '../../support/worlds/forwarding-proxy.js';
import { openSimulator } from '../../support/worlds/simulator.js';
import { tempFolder } from '../../support/worlds/temp-folder.js';

/** The simulator's CLI session with the scopes and upload address a debug binding also keeps. */
interface CliSession extends SimulatorCliSession {
  scopes: string[];
  uploadBaseUrl: string;
}

/** One request as the proxy saw it: every header and the body, as text. */
interface Seen {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

const BOARD = 'brd_sim_lighthouse';
let sim: RunningSimulator;
let simDir: string;
let origin: string;
/** The recording proxy's origin: Framewright reaches the platform and the local peer through it. */
let proxied: string;
const seen: Seen[] = [];
/** Every grant plaintext the channels handed out. */
const grants: string[] = [];

/** Passes every request on to `upstream`, recording it in `seen`. */
async function recordingProxy(upstream: string): Promise<string> {
  const proxy = await forwardingProxy(upstream, {
    onRequest: (request) => {
      seen.push({
        method: request.method,
        url: request.url,
        headers: request.headers,
        body: request.body.toString('utf8'),
      });
    },
  });
  return proxy.origin;
}

const viaProxy = (url: string) => url.replace(origin, proxied);

async function cliSession(appKey: string): Promise<CliSession> {
  const res = await fetch(`${origin}/platform/_simulator/cli-sessions`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${sim.token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ appKey, user: 'member' }),
  });
  expect(res.status).toBe(200);
  return (await res.json()) as CliSession;
}

const developerBaseUrl = () => `${origin}/platform/api/v1/appstore/developer`;

/** A debug profile paired to `cli` as the pairing stores it (binding in the key store), through the proxy. */
async function pairedProfile(cli: CliSession) {
  const secrets = new MemorySecretStore();
  const profile: Profile = {
    id: 'prof-debug',
    name: 'debug',
    kind: 'debug',
    baseUrl: viaProxy(cli.runtimeBaseUrl),
    hasSecret: true,
    debugTokenExpiresAt: Date.parse(cli.expiresAt),
    createdAt: Date.now(),
    updatedAt: Date.now(),
  };
  const binding: DebugBinding = {
    appId: cli.appId,
    appKey: cli.appKey,
    appVersionId: cli.appVersionId,
    runtimeSessionId: cli.runtimeSessionId,
    testAccount: null,
    runtimeBaseUrl: viaProxy(cli.runtimeBaseUrl),
    relayBaseUrl: viaProxy(cli.relayBaseUrl),
    uploadBaseUrl: viaProxy(cli.uploadBaseUrl),
    developerBaseUrl: viaProxy(developerBaseUrl()),
    scopes: cli.scopes,
    expiresAt: Date.parse(cli.expiresAt),
    pairedAt: Date.now(),
  };
  await new DebugSessions(secrets).save(profile.id, binding);
  await secrets.set(profile.id, cli.accessToken);
  const pairing = new DebugPairingFeature({
    secrets,
    credentials: {
      createProfile: () => Promise.reject(new Error('not here')),
      replaceCredential: () => Promise.reject(new Error('not here')),
    },
    byName: () => undefined,
    get: (id) => (id === profile.id ? profile : undefined),
  });
  return { pairing, profile, tokenFor: async (id: string) => (await secrets.get(id))! };
}

function storyboardsOf(
  paired: Awaited<ReturnType<typeof pairedProfile>>,
  env: NodeJS.ProcessEnv,
  active = 'prof-debug',
) {
  return new DebugStoryboards<GrantChannel>({
    pairing: paired.pairing,
    tokenFor: paired.tokenFor,
    activeProfileId: () => active,
    env,
    build: (channel) => ({
      issue: async (input) => {
        const issued = await channel.issue(input);
        grants.push(issued.grant);
        return issued;
      },
      send: (input) => channel.send(input),
    }),
  });
}

const issueFor = (scope: string, requestDigest: string, idempotencyKey: string) => ({
  calleeAppKey: 'storyboard-helper',
  apiVersion: '2026-01',
  scope,
  idempotencyKey,
  requestDigest,
});

async function listBoards(channel: GrantChannel, key: string): Promise<string[]> {
  const { grant } = await channel.issue(issueFor('storyboard.read', readRequestDigest('/boards'), key));
  const res = await channel.send({ method: 'GET', path: '/boards', grant });
  expect(res.status, res.body.toString()).toBe(200);
  return (JSON.parse(res.body.toString()) as { items: { boardId: string }[] }).items.map((b) => b.boardId);
}

async function writeResult(channel: GrantChannel, panelId: string, key: string) {
  const bytes = canonicalJsonBytes({
    boardId: BOARD,
    panelId,
    result: {
      title: `Film ${key}`,
      mediaUrl: 'https://storage.example/films/film.mp4',
      mimeType: 'video/mp4',
      sha256: 'c'.repeat(64),
      byteSize: 2048,
    },
  });
  const { grant } = await channel.issue(issueFor('storyboard.write', requestDigest(bytes), key));
  const res = await channel.send({ method: 'POST', path: '/panel-results', body: bytes, grant });
  expect(res.status, res.body.toString()).toBe(200);
  return JSON.parse(res.body.toString()) as { replayed: boolean; write: { writeId: string } };
}

async function writesOf(key: string): Promise<unknown[]> {
  const res = await fetch(`${origin}/apps/storyboard-helper/_simulator/boards/${BOARD}`, {
    headers: { Authorization: `Bearer ${sim.token}` },
  });
  const board = (await res.json()) as { writes: { idempotencyKey: string }[] };
  return board.writes.filter((w) => w.idempotencyKey === key);
}

function filesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    return e.isDirectory() ? filesUnder(full) : [full];
  });
}

beforeAll(async () => {
  simDir = tempFolder('fw-debug-storyboards-');
  sim = await openSimulator({ dataDir: simDir });
  origin = new URL(sim.baseUrl).origin;
  proxied = await recordingProxy(origin);
});

describe('storyboards in online debugging', () => {
  it('off a paired debug profile there is no channel and the capability stays off', async () => {
    const paired = await pairedProfile(await cliSession('framewright-studio'));
    const storyboards = storyboardsOf(paired, {}, 'prof-personal');
    expect(await storyboards.available()).toBe(false);
    expect(await storyboards.forActiveProfile()).toBeUndefined();
    expect(await storyboardsOf(paired, {}).available()).toBe(true);
  });

  it('through the relay (developer_debug): lists the member’s boards and writes a panel result once', async () => {
    const cli = await cliSession('framewright-studio');
    const storyboards = storyboardsOf(await pairedProfile(cli), {});
    const channel = (await storyboards.forActiveProfile())!;
    expect(await storyboards.channelForActiveProfile()).toBeInstanceOf(DebugRelayGrantChannel);
    expect(await listBoards(channel, 'relay-list')).toEqual([BOARD]);
    const first = await writeResult(channel, 'pnl_sim_lighthouse_1', 'relay-write');
    expect(first.replayed).toBe(false);
    // the same business action again: the same grant fact, the write answered once
    const again = await writeResult(channel, 'pnl_sim_lighthouse_1', 'relay-write');
    expect(again).toMatchObject({ replayed: true, write: { writeId: first.write.writeId } });
    expect(await writesOf('relay-write')).toHaveLength(1);

    const relayed = seen.filter((s) => s.url.includes('/inter-app/storyboard-helper/2026-01/'));
    expect(relayed.length).toBeGreaterThanOrEqual(3);
    for (const s of relayed) {
      expect(s.headers.authorization).toBe(`Bearer ${cli.accessToken}`);
      expect(s.headers['x-platform-app-grant']).toBeTruthy();
      expect(s.headers['x-platform-runtime-session-id']).toBeUndefined();
    }
    const issued = seen.filter((s) => s.url.endsWith(`/versions/${cli.appVersionId}/app-grants`));
    expect(issued.length).toBeGreaterThanOrEqual(3);
    for (const s of issued) expect(JSON.parse(s.body)).not.toHaveProperty('runtimeSessionId');
  });

  it('to a local storyboard-helper (developer_local): a peer grant, sent with only the grant and the business data', async () => {
    const cli = await cliSession('framewright-studio');
    // the helper's developer (the same test person) opens a receiver for the studio
    const helper = await cliSession('storyboard-helper');
    const opened = await fetch(
      `${developerBaseUrl()}/apps/${helper.appId}/versions/${helper.appVersionId}/debug-receivers`,
      {
        method: 'POST',
        headers: { Authorization: `Bearer ${helper.accessToken}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({
          callerAppKey: 'framewright-studio',
          apiVersion: '2026-01',
          scopes: ['storyboard.read', 'storyboard.write'],
        }),
      },
    );
    expect(opened.status).toBe(200);
    const { receiverRef } = (await opened.json()) as { receiverRef: string };
    const storyboards = storyboardsOf(await pairedProfile(cli), {
      FRAMEWRIGHT_DEBUG_PEER_URL: `${proxied}/apps/storyboard-helper`,
      FRAMEWRIGHT_DEBUG_PEER_RECEIVER: receiverRef,
    });
    const channel = (await storyboards.forActiveProfile())!;
    expect(await storyboards.channelForActiveProfile()).toBeInstanceOf(DebugPeerGrantChannel);
    expect(await listBoards(channel, 'peer-list')).toEqual([BOARD]);
    expect((await writeResult(channel, 'pnl_sim_lighthouse_2', 'peer-write')).replayed).toBe(false);
    expect(await writesOf('peer-write')).toHaveLength(1);

    const peerGrants = seen.filter((s) => s.url.endsWith(`/versions/${cli.appVersionId}/debug-peer-grants`));
    expect(peerGrants.map((s) => JSON.parse(s.body).receiverRef)).toEqual([receiverRef, receiverRef]);
    const direct = seen.filter(
      (s) => s.url.startsWith('/apps/storyboard-helper/') && !s.url.includes('_simulator'),
    );
    expect(direct).toHaveLength(2);
    for (const s of direct) {
      expect(s.headers['x-platform-app-grant']).toBeTruthy();
      expect(s.headers.authorization).toBeUndefined();
      expect(s.headers.cookie).toBeUndefined();
      expect(Object.keys(s.headers).filter((h) => h.startsWith('x-platform-'))).toEqual([
        'x-platform-app-grant',
      ]);
    }
  });

  it('never sends the production credential; the CLI token and the grants are in no file', async () => {
    expect(seen.length).toBeGreaterThanOrEqual(10);
    for (const s of seen) {
      const text = JSON.stringify(s.headers) + s.body + s.url;
      expect(text).not.toContain('fw-sim-app-credential-');
    }
    expect(grants.length).toBe(5);
    const secrets = [...new Set(grants)];
    for (const s of seen) {
      const auth = s.headers.authorization;
      if (auth?.startsWith('Bearer ')) secrets.push(auth.slice('Bearer '.length));
    }
    // no grant, no token in any URL either
    for (const s of seen) for (const secret of secrets) expect(s.url).not.toContain(secret);
    const files = filesUnder(simDir);
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) {
      const content = fs.readFileSync(file, 'utf8');
      for (const secret of secrets) expect(content.includes(secret), `${file} holds a secret`).toBe(false);
    }
  });
});
