import { mkdirSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { createAppCore, type AppCore } from '../../../src/main/core/app/app-core.js';
import { UnavailableSecretStore } from '../../../src/main/core/secrets/unavailable-secret-store.js';
import { startBrowserHost, type RunningBrowserHost } from '../../../src/main/host/browser-host.js';
import {
  HOST_EVENTS_PROTOCOL,
  HOST_TOKEN_PROTOCOL_PREFIX,
} from '../../../src/shared/bridge/browser-host-protocol.js';
import { BROWSER_HOST } from '../../../src/main/core/library/studio-host.js';
import { tempFolder } from '../../support/worlds/temp-folder.js';

interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

function request(
  port: number,
  options: { method?: string; path?: string; headers?: Record<string, string>; body?: string },
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method: options.method ?? 'GET',
        path: options.path ?? '/',
        headers: options.headers,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString(),
          }),
        );
      },
    );
    req.on('error', reject);
    if (options.body) req.write(options.body);
    req.end();
  });
}

let core: AppCore;
let host: RunningBrowserHost;
let ownHost: string;

beforeAll(async () => {
  const dataDir = tempFolder('fw-host-');
  const rendererDir = path.join(dataDir, 'renderer');
  mkdirSync(path.join(rendererDir, 'assets'), { recursive: true });
  writeFileSync(path.join(rendererDir, 'index.html'), '<!doctype html><title>studio</title>');
  writeFileSync(path.join(rendererDir, 'assets', 'app.js'), 'console.log(1)');
  writeFileSync(path.join(dataDir, 'outside.txt'), 'must not be served');
  core = await createAppCore({
    dataDir,
    host: BROWSER_HOST,
    launchSimulator: () => Promise.reject(new Error('no simulator in this test')),
    secretStore: new UnavailableSecretStore('not needed in this test'),
  });
  host = await startBrowserHost({ dispatcher: core.dispatcher, events: core.events, rendererDir });
  ownHost = `127.0.0.1:${host.port}`;
});

afterAll(async () => {
  await host.close();
  await core.close();
});

const bearer = () => ({ authorization: `Bearer ${host.token}` });
const invoke = (method: string, params: unknown, headers: Record<string, string>) =>
  request(host.port, {
    method: 'POST',
    path: '/bridge/invoke',
    headers: { 'content-type': 'application/json', host: ownHost, ...headers },
    body: JSON.stringify({ method, params }),
  });

describe('browser host', () => {
  it('binds to loopback only', async () => {
    await expect(
      startBrowserHost({
        dispatcher: core.dispatcher,
        events: core.events,
        rendererDir: '/nonexistent',
        host: '0.0.0.0',
      }),
    ).rejects.toThrow(/loopback/);
  });

  it('round-trips a bridge call to the real core with the token', async () => {
    const response = await invoke('app.info', {}, bearer());
    expect(response.status).toBe(200);
    const body = JSON.parse(response.body);
    expect(body).toMatchObject({
      ok: true,
      result: { name: 'Framewright', host: 'browser', os: process.platform },
    });
    expect(body.result).not.toHaveProperty('platform');
  });

  it('refuses calls without the token or with a wrong one; the public renderer needs none', async () => {
    const none = await invoke('app.info', {}, {});
    expect(none.status).toBe(401);
    expect(none.body).not.toContain('Framewright');
    const wrong = await invoke('app.info', {}, { authorization: 'Bearer nope' });
    expect(wrong.status).toBe(401);
    const page = await request(host.port, { headers: { host: ownHost } });
    expect(page.status).toBe(200);
    expect(page.body).toContain('<title>studio</title>');
  });

  it('refuses a foreign Host (DNS rebinding) and a foreign Origin even with the token', async () => {
    const rebound = await invoke('app.info', {}, { ...bearer(), host: `evil.example:${host.port}` });
    expect(rebound.status).toBe(421);
    const crossSite = await invoke('app.info', {}, { ...bearer(), origin: 'https://evil.example' });
    expect(crossSite.status).toBe(403);
    const sameOrigin = await invoke('app.info', {}, { ...bearer(), origin: `http://${ownHost}` });
    expect(sameOrigin.status).toBe(200);
  });

  it('exchanges a one-time code for the token, once, and never sets a cookie', async () => {
    const launchUrl = new URL(host.issueLaunchUrl());
    const code = launchUrl.searchParams.get('code')!;
    // the link itself serves the page, which then exchanges the code
    const page = await request(host.port, {
      path: launchUrl.pathname + launchUrl.search,
      headers: { host: ownHost },
    });
    expect(page.status).toBe(200);
    expect(page.body).toContain('<title>studio</title>');
    expect(page.headers['set-cookie']).toBeUndefined();
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    const exchange = () =>
      request(host.port, {
        method: 'POST',
        path: '/bridge/session',
        headers: { host: ownHost, 'content-type': 'application/json' },
        body: JSON.stringify({ code }),
      });
    const first = await exchange();
    expect(first.status).toBe(200);
    expect(first.headers['set-cookie']).toBeUndefined();
    expect(first.headers['cache-control']).toBe('no-store');
    const token = (JSON.parse(first.body) as { result: { token: string } }).result.token;
    expect(token).toBe(host.token);
    const again = await exchange();
    expect(again.status).toBe(401);
    expect(again.body).not.toContain(host.token);
    expect(JSON.parse(again.body)).toMatchObject({ ok: false, error: { code: 'host.invalid_code' } });
    // a code from another origin's page is refused even when right
    const crossSite = await request(host.port, {
      method: 'POST',
      path: '/bridge/session',
      headers: { host: ownHost, 'content-type': 'application/json', origin: 'http://127.0.0.1:1' },
      body: JSON.stringify({ code: new URL(host.issueLaunchUrl()).searchParams.get('code') }),
    });
    expect(crossSite.status).toBe(403);
    expect(crossSite.body).not.toContain(host.token);
    const call = await invoke('settings.get', {}, { authorization: `Bearer ${token}` });
    expect(JSON.parse(call.body)).toMatchObject({ ok: true });
  });

  it('rejects a payload that breaks the contract before any handler runs', async () => {
    const response = await invoke('settings.update', { theme: 42 }, bearer());
    expect(JSON.parse(response.body)).toMatchObject({ ok: false, error: { code: 'bridge.invalid_params' } });
    const settings = JSON.parse((await invoke('settings.get', {}, bearer())).body);
    expect(settings.result.theme).toBe('system');
  });

  it('accepts only JSON bridge calls (no form posts)', async () => {
    const response = await request(host.port, {
      method: 'POST',
      path: '/bridge/invoke',
      headers: { host: ownHost, 'content-type': 'text/plain', ...bearer() },
      body: JSON.stringify({ method: 'app.info', params: {} }),
    });
    expect(response.status).toBe(415);
  });

  it('serves the renderer and nothing else', async () => {
    const asset = await request(host.port, {
      path: '/assets/app.js',
      headers: { host: ownHost, ...bearer() },
    });
    expect(asset.status).toBe(200);
    expect(asset.headers['content-type']).toContain('javascript');
    for (const p of [
      '/../outside.txt',
      '/%2e%2e/outside.txt',
      '/assets/../../outside.txt',
      '/bridge/other',
    ]) {
      const response = await request(host.port, { path: p, headers: { host: ownHost, ...bearer() } });
      expect(response.status, p).toBe(404);
      expect(response.body).not.toContain('must not be served');
    }
  });

  it('pushes contract events over the WebSocket only to authenticated clients', async () => {
    // the handshake's outcome: the refusal's status, or 'open'
    const handshake = (socket: WebSocket) =>
      new Promise<string>((resolve) => {
        socket.on('unexpected-response', (_req, res) => resolve(String(res.statusCode)));
        socket.on('open', () => resolve('open'));
        socket.on('error', () => resolve('error'));
      });
    expect(await handshake(new WebSocket(`ws://${ownHost}/bridge/events`))).toBe('401');
    const wrongProtocol = new WebSocket(`ws://${ownHost}/bridge/events`, [
      HOST_EVENTS_PROTOCOL,
      `${HOST_TOKEN_PROTOCOL_PREFIX}nope`,
    ]);
    expect(await handshake(wrongProtocol)).toBe('401');

    // the page's way (browsers cannot set headers on a WebSocket): the token as a subprotocol
    const socket = new WebSocket(`ws://${ownHost}/bridge/events`, [
      HOST_EVENTS_PROTOCOL,
      `${HOST_TOKEN_PROTOCOL_PREFIX}${host.token}`,
    ]);
    expect(await handshake(socket)).toBe('open');
    expect(socket.protocol).toBe(HOST_EVENTS_PROTOCOL);
    // and local tools' way: the Bearer header
    const tool = new WebSocket(`ws://${ownHost}/bridge/events`, { headers: bearer() });
    expect(await handshake(tool)).toBe('open');
    tool.close();
    const received = new Promise<unknown>((resolve) => {
      socket.on('message', (data) => {
        const message = JSON.parse(String(data));
        if (message.event === 'settings.changed') resolve(message);
      });
    });
    await invoke('settings.update', { theme: 'dark' }, bearer());
    expect(await received).toEqual({
      event: 'settings.changed',
      payload: { theme: 'dark', locale: 'system' },
    });
    socket.close();
  });
});
