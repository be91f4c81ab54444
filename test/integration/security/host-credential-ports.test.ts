import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBrowserHost, type RunningBrowserHost } from '../../../src/main/host/browser-host.js';
import { openHostTestWorld, type HostTestWorld } from '../../support/worlds/browser-host.js';

/**
 * Cookies ignore ports: a browser sends every 127.0.0.1 cookie to every 127.0.0.1 server, and any of
 * them may set one under the same name. This jar does exactly that, so a host that put its
 * credential in a cookie would hand it to the other servers here.
 */
class PortBlindCookieJar {
  private readonly cookies = new Map<string, string>();
  /** Every request to any 127.0.0.1 port, with every cookie, storing whatever is set. */
  async request(
    port: number,
    options: { method?: string; path: string; headers?: Record<string, string>; body?: string },
  ): Promise<{ status: number; body: string }> {
    const cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    return new Promise((resolve, reject) => {
      const req = http.request(
        {
          host: '127.0.0.1',
          port,
          method: options.method ?? 'GET',
          path: options.path,
          headers: { host: `127.0.0.1:${port}`, ...(cookie ? { cookie } : {}), ...options.headers },
        },
        (res) => {
          for (const line of res.headers['set-cookie'] ?? []) {
            const [pair] = line.split(';');
            const index = pair!.indexOf('=');
            this.cookies.set(pair!.slice(0, index).trim(), pair!.slice(index + 1).trim());
          }
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () =>
            resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }),
          );
        },
      );
      req.on('error', reject);
      if (options.body) req.write(options.body);
      req.end();
    });
  }
  values(): string[] {
    return [...this.cookies.values()];
  }
}

/** What the studio page does with a launch link: open it, then exchange its code for the token. */
async function openLaunchLink(
  jar: PortBlindCookieJar,
  host: RunningBrowserHost,
): Promise<string | undefined> {
  const link = new URL(host.issueLaunchUrl());
  await jar.request(host.port, { path: link.pathname + link.search });
  const answer = await jar.request(host.port, {
    method: 'POST',
    path: '/bridge/session',
    headers: { 'content-type': 'application/json', origin: `http://127.0.0.1:${host.port}` },
    body: JSON.stringify({ code: link.searchParams.get('code') }),
  });
  return answer.status === 200
    ? (JSON.parse(answer.body) as { result: { token: string } }).result.token
    : undefined;
}

const invokeInfo = (jar: PortBlindCookieJar, host: RunningBrowserHost, token?: string) =>
  jar.request(host.port, {
    method: 'POST',
    path: '/bridge/invoke',
    headers: {
      'content-type': 'application/json',
      origin: `http://127.0.0.1:${host.port}`,
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify({ method: 'app.info', params: {} }),
  });

let world: HostTestWorld;
let first: RunningBrowserHost;
let second: RunningBrowserHost;
let spy: http.Server;
const received: string[] = [];

beforeAll(async () => {
  world = await openHostTestWorld('fw-host-ports-');
  const options = {
    dispatcher: world.core.dispatcher,
    events: world.core.events,
    rendererDir: world.rendererDir,
  };
  first = await startBrowserHost(options);
  second = await startBrowserHost(options);
  // any other local server the same browser visits
  spy = http.createServer((req, res) => {
    received.push(JSON.stringify(req.headers));
    res.writeHead(200, { 'Set-Cookie': 'framewright_host=planted; Path=/' });
    res.end('ok');
  });
  await new Promise<void>((resolve) => spy.listen(0, '127.0.0.1', resolve));
});

afterAll(async () => {
  await first?.close();
  await second?.close();
  await new Promise((resolve) => spy?.close(resolve));
  await world?.close();
});

describe('the browser host credential is bound to its own port', () => {
  it('a second host or any other local server neither receives nor overwrites the first host’s token', async () => {
    const browser = new PortBlindCookieJar();
    const firstToken = await openLaunchLink(browser, first);
    // the browser then visits another local server, and signs in to a second host on another port
    const spyPort = (spy.address() as AddressInfo).port;
    await browser.request(spyPort, { path: '/' });
    const secondToken = await openLaunchLink(browser, second);
    await browser.request(spyPort, { path: '/again' });
    // nothing of the first host's credential is stored where other ports can read it…
    for (const value of browser.values()) {
      expect(value).not.toContain(first.token);
      expect(value).not.toContain(second.token);
    }
    // …or ever reached the other servers
    expect(received.join('\n')).not.toContain(first.token);
    expect(received.join('\n')).not.toContain(second.token);
    // the pages got their tokens from the code exchange, in memory
    expect(firstToken).toBe(first.token);
    expect(secondToken).toBe(second.token);
    // the first host's session still works after the second one signed in (nothing was overwritten),
    // and a cookie another server planted grants nothing
    expect(JSON.parse((await invokeInfo(browser, first, firstToken)).body)).toMatchObject({ ok: true });
    expect((await invokeInfo(browser, first)).status).toBe(401);
    // each token opens only its own host
    expect((await invokeInfo(browser, first, secondToken)).status).toBe(401);
    expect((await invokeInfo(browser, second, firstToken)).status).toBe(401);
    expect(JSON.parse((await invokeInfo(browser, second, secondToken)).body)).toMatchObject({ ok: true });
  });
});
