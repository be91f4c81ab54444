import http from 'node:http';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { BACKEND_COMPONENT } from '../../../src/main/core/platform-release/framewright-submission.js';
import { DRAIN_SOCKET_CLOSE, DRAIN_RETRY_AFTER_SECONDS } from '../../../src/main/host/platform-host.js';
import { Page, startRig, type PlatformRig } from './harness.js';

let rig: PlatformRig;
beforeEach(async () => {
  rig = await startRig();
});
afterEach(async () => {
  rig.held.release();
  await rig.close();
});

/** A probe as an orchestrator sends it: to the bound address, with its own Host, no cookie or Origin. */
function probe(target: string, init: { method?: string; host?: string } = {}) {
  // node:http, not fetch: fetch never sends a Host of the caller's choosing
  return new Promise<{ status: number; text: string; headers: http.IncomingHttpHeaders }>(
    (resolve, reject) => {
      const request = http.request(
        `${rig.host.origin}${target}`,
        {
          method: init.method ?? 'GET',
          headers: { Host: init.host ?? '10.1.2.3:8080', Connection: 'close' },
        },
        (response) => {
          let text = '';
          response.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
          response.on('end', () =>
            resolve({ status: response.statusCode ?? 0, text, headers: response.headers }),
          );
        },
      );
      request.on('error', reject);
      request.end();
    },
  );
}

describe('deployment probes', () => {
  it('serve the paths the submission declares, whatever the Host, with one word and no cookie', async () => {
    expect(BACKEND_COMPONENT).toMatchObject({ healthPath: '/healthz', readinessPath: '/readyz' });
    const health = await probe(BACKEND_COMPONENT.healthPath);
    expect(health.status).toBe(200);
    expect(JSON.parse(health.text)).toEqual({ status: 'ok' });
    expect(health.headers['set-cookie']).toBeUndefined();
    const ready = await probe(`${BACKEND_COMPONENT.readinessPath}?verbose=1`);
    expect(ready.status).toBe(200);
    expect(JSON.parse(ready.text)).toEqual({ status: 'ready' });
    expect((await probe('/healthz', { method: 'HEAD' })).status).toBe(200);
    expect((await probe('/healthz', { method: 'POST' })).status).toBe(405);
    // nothing else answers a foreign Host: the probes are not a way around the host's rules
    expect((await probe('/healthz/../bridge/invoke')).status).not.toBe(200);
    expect((await probe('/readyz/x')).status).toBe(421);
    expect((await probe('/')).status).toBe(421);
  });

  it('say not ready, without the reason, while the backend names a problem; the log says why', async () => {
    rig.readinessProblem = 'the data folder is not writable (EROFS)';
    const ready = await probe('/readyz');
    expect(ready.status).toBe(503);
    expect(JSON.parse(ready.text)).toEqual({ status: 'not_ready' });
    expect(ready.text).not.toContain('EROFS');
    expect((await probe('/healthz')).status).toBe(200);
    await expect.poll(() => rig.logLines.some((line) => line.includes('EROFS'))).toBe(true);
  });
});

describe('the drain', () => {
  it('turns readiness false, refuses new sign-ins and sockets retryably, and lets calls in flight finish', async () => {
    const member = new Page(rig);
    expect((await member.open(await rig.launchCode('member'))).status).toBe(200);
    const socket = new WebSocket(
      `${rig.origin.replace('http', 'ws')}/bridge/events`,
      ['framewright.events', `framewright.csrf.${member.csrf}`],
      { headers: { Origin: rig.origin, Cookie: member.cookie } },
    );
    await new Promise((resolve) => socket.once('open', resolve));
    const closed = new Promise<{ code: number; reason: string }>((resolve) =>
      socket.once('close', (code, reason) => resolve({ code, reason: reason.toString() })),
    );
    const launchCode = await rig.launchCode('personal');

    const inFlight = member.invoke('hold');
    await expect.poll(() => rig.held.started).toBe(1);
    let drained: { finished: boolean; cutShort: number } | undefined;
    const draining = rig.host.drain(10_000).then((outcome) => (drained = outcome));

    expect((await probe('/readyz')).status).toBe(503);
    expect(JSON.parse((await probe('/readyz')).text)).toEqual({ status: 'draining' });
    expect((await probe('/healthz')).status).toBe(200);
    // the page's socket is told to reconnect (to the next process)
    expect(await closed).toEqual(DRAIN_SOCKET_CLOSE);
    // a new sign-in is refused with a retryable answer, and the launch code is not spent
    const signIn = await new Page(rig).request('/platform/session', { body: { launchCode } });
    expect(signIn.status).toBe(503);
    expect(signIn.body.error.code).toBe('host.draining');
    expect(rig.exchangeCalls).toBe(1);
    const refusedSocket = new WebSocket(
      `${rig.origin.replace('http', 'ws')}/bridge/events`,
      ['framewright.events', `framewright.csrf.${member.csrf}`],
      { headers: { Origin: rig.origin, Cookie: member.cookie } },
    );
    expect(
      await new Promise<number>((resolve) =>
        refusedSocket.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0)),
      ),
    ).toBe(503);

    // the call in flight is not cut: the drain waits for it
    expect(drained).toBeUndefined();
    rig.held.release();
    expect((await inFlight).body).toEqual({ ok: true, result: 'held call finished' });
    await draining;
    expect(drained).toEqual({ finished: true, cutShort: 0 });
  });

  it('says how many requests were cut short when the grace period ends first', async () => {
    const member = new Page(rig);
    await member.open(await rig.launchCode('member'));
    const inFlight = member.invoke('hold').catch(() => 'cut');
    await expect.poll(() => rig.held.started).toBe(1);
    expect(await rig.host.drain(200)).toEqual({ finished: false, cutShort: 1 });
    await rig.host.close();
    expect(await inFlight).toBe('cut');
  });

  it('answers a sign-in retryably with Retry-After', async () => {
    void rig.host.drain(1000);
    const response = await fetch(`${rig.origin}/platform/session`, {
      method: 'POST',
      headers: { Origin: rig.origin, 'Content-Type': 'application/json', Connection: 'close' },
      body: JSON.stringify({ launchCode: 'x'.repeat(32) }),
    });
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe(String(DRAIN_RETRY_AFTER_SECONDS));
  });

  it('answers an upload that arrives while draining with 503 and Retry-After, its body read rather than the connection reset', async () => {
    await rig.close();
    rig = await startRig({ uploads: true });
    const member = new Page(rig);
    await member.open(await rig.launchCode('member'));
    const draining = rig.host.drain(10_000);
    // more than the socket buffers hold: closed unread, the client would see a reset, not the answer
    const body = Buffer.alloc(8 * 1024 * 1024, 7);
    const answer = await new Promise<{ status: number; retryAfter: unknown; text: string }>(
      (resolve, reject) => {
        const upload = http.request(
          `${rig.origin}/bridge/files?name=take.mp4&for=composer`,
          {
            method: 'POST',
            headers: {
              Origin: rig.origin,
              Cookie: member.cookie,
              'X-Framewright-CSRF': member.csrf,
              'Content-Type': 'application/octet-stream',
              'Content-Length': String(body.length),
            },
          },
          (response) => {
            let text = '';
            response.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
            response.on('end', () =>
              resolve({
                status: response.statusCode ?? 0,
                retryAfter: response.headers['retry-after'],
                text,
              }),
            );
          },
        );
        upload.on('error', reject);
        upload.end(body);
      },
    );
    expect(answer.status).toBe(503);
    expect(answer.retryAfter).toBe(String(DRAIN_RETRY_AFTER_SECONDS));
    expect(JSON.parse(answer.text).error.code).toBe('host.draining');
    expect(await draining).toEqual({ finished: true, cutShort: 0 });
  });
});
