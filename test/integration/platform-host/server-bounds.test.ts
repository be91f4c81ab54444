/**
 * The platform host bounds what unauthenticated clients can hold: slow headers are dropped, the
 * connections open at once are capped, and `/inter-app/` calls with made-up grants can neither pin
 * memory (at most a few bodies read at once, each within its deadline) nor make the backend call the
 * platform without bound — while the genuine caller's call still goes through.
 */
import http from 'node:http';
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createSequenceCreateCallee } from '../../../src/main/core/inter-app/sequence-create-callee.js';
import { until } from '../../support/until.js';
import { startRig, type PlatformRig } from './harness.js';

let rig: PlatformRig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

/** A raw connection to the rig's port; resolves once it is closed by the server. */
function rawSocket(origin: string): { socket: net.Socket; closed: Promise<void> } {
  const { port } = new URL(origin);
  const socket = net.connect(Number(port), '127.0.0.1');
  socket.on('error', () => undefined);
  // read what the server says (its 408/400), so its end of the connection is seen
  socket.resume();
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  return { socket, closed };
}

/** A POST /inter-app/ call with a grant (or none) and a body; its status. */
async function interApp(origin: string, grant: string | undefined, body = '{}'): Promise<number> {
  const res = await fetch(`${origin}/inter-app/2026-01/sequences`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      ...(grant ? { 'X-Platform-App-Grant': grant } : {}),
    },
    body,
  });
  await res.arrayBuffer();
  return res.status;
}

/** A POST /inter-app/ call from a local address of its own; its status. */
function postFrom(origin: string, localAddress: string, grant: string, body: string): Promise<number> {
  const { port, host } = new URL(origin);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        localAddress,
        method: 'POST',
        path: '/inter-app/2026-01/sequences',
        headers: { Host: host, 'Content-Type': 'application/json', 'X-Platform-App-Grant': grant },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe('platform host: bounded for unauthenticated clients', () => {
  it('drops a client that sends its headers slowly, and caps the connections open at once', async () => {
    rig = await startRig({ serverLimits: { headersTimeoutMs: 500, maxConnections: 4 } });
    const { origin } = rig;
    // a request line and one header, then nothing: closed within the header deadline (and Node's check)
    const slow = rawSocket(origin);
    slow.socket.write(`GET / HTTP/1.1\r\nHost: ${new URL(origin).host}\r\n`);
    const started = Date.now();
    await slow.closed;
    expect(Date.now() - started).toBeLessThan(5_000);
    // ten idle connections: the server keeps at most four
    const idle = Array.from({ length: 10 }, () => rawSocket(origin));
    await until(
      () => (idle.filter((c) => c.socket.destroyed || c.socket.closed).length >= 6 ? true : undefined),
      {
        ms: 10_000,
        what: 'the connections past the cap closed',
      },
    );
    for (const c of idle) c.socket.destroy();
    // and once they are gone it answers again
    const status = await until(
      async () => {
        try {
          const res = await fetch(origin + '/', { signal: AbortSignal.timeout(2_000) });
          await res.arrayBuffer();
          return res.status;
        } catch {
          return undefined;
        }
      },
      { ms: 20_000, what: 'the host answering again' },
    );
    expect(status).toBeLessThan(500);
  });

  it('junk grants from many callers: bounded resolves and bodies; the genuine caller still gets through', async () => {
    let resolves = 0;
    let reading = 0;
    let mostReading = 0;
    const callee = createSequenceCreateCallee({
      appKey: 'framewright-studio',
      resolveGrant: async ({ grant, requestDigest }) => {
        resolves += 1;
        if (grant !== 'agr_genuine') throw Object.assign(new Error('not found'), { status: 404 });
        return {
          grantId: 'g1',
          callerAppKey: 'storyboard-helper',
          calleeAppKey: 'framewright-studio',
          apiVersion: '2026-01',
          scope: 'sequence.create',
          idempotencyKey: 'k1',
          requestDigest,
          expiresAt: new Date(Date.now() + 60_000).toISOString(),
          subject: { tenantId: 't', accountId: 'a', userId: 'u' },
        };
      },
      workspaceOf: () => ({ dir: '/nonexistent' }),
      importBoard: async () => ({ sequenceId: 'seq-1' }),
      bodyTimeoutMs: 1_000,
    });
    rig = await startRig({
      interApp: async (req, res) => {
        reading += 1;
        mostReading = Math.max(mostReading, reading);
        try {
          await callee(req, res);
        } finally {
          reading -= 1;
        }
      },
      interAppConcurrent: 4,
      interAppLimits: {
        perClient: { capacity: 1000, refillPerSecond: 1000 },
        global: { capacity: 100, refillPerSecond: 10 },
        suspect: { capacity: 5, refillPerSecond: 0.01 },
      },
    });
    const { origin } = rig;
    // 200 made-up grants, 20 at a time, each with a body
    const statuses: number[] = [];
    for (let round = 0; round < 10; round += 1)
      statuses.push(
        ...(await Promise.all(
          Array.from({ length: 20 }, (_, i) => interApp(origin, `agr_junk_${round}_${i}`, '{"x":1}')),
        )),
      );
    expect(
      statuses.every((s) => [404, 429, 503].includes(s)),
      String(statuses),
    ).toBe(true);
    // one clean resolve for the caller's first junk grant, then only the suspects' small allowance
    expect(resolves).toBeLessThanOrEqual(4 + 5 + 3);
    expect(statuses).toContain(404);
    expect(mostReading).toBeLessThanOrEqual(4);
    // a caller trickling a body loses its place within the body deadline
    const trickle = rawSocket(origin);
    trickle.socket.write(
      `POST /inter-app/2026-01/sequences HTTP/1.1\r\nHost: ${new URL(origin).host}\r\n` +
        'X-Platform-App-Grant: agr_slow\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{',
    );
    await trickle.closed;
    // the genuine caller (another server: its own address) is not kept out by the junk
    const before = resolves;
    const board = JSON.stringify({ boardId: 'b-1', title: 'Harbour', panels: [] });
    const genuine = await postFrom(origin, '127.0.0.2', 'agr_genuine', board);
    expect([429, 503]).not.toContain(genuine);
    expect(resolves).toBe(before + 1);
  });
});
