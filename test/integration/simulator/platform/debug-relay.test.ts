import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SimulatorOptions } from '../../../../src/simulator/index.js';
import { expectPlatformError, type PlatformClient } from './platform-client.js';
import { usePlatformWorld } from './platform-fixture.js';
import {
  debugCall,
  digest,
  documentedPaths,
  issueCliSession,
  setWithdrawn,
  type CliSession,
} from './debug-client.js';

const MiB = 1024 * 1024;
/** What the throw-away business target saw, per path. */
const hits = new Map<string, number>();

/** A stand-in for the callee's production business interface: echoes, redirects, answers big bodies. */
const target: Server = createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://target.local');
  hits.set(url.pathname, (hits.get(url.pathname) ?? 0) + 1);
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const body = Buffer.concat(chunks);
    if (url.pathname === '/redirect') {
      res.writeHead(302, { Location: 'http://127.0.0.1:9/elsewhere' });
      res.end();
    } else if (url.pathname === '/big') {
      res.writeHead(200, { 'Content-Type': 'application/octet-stream', 'Content-Length': String(17 * MiB) });
      res.end(Buffer.alloc(17 * MiB, 1));
    } else if (url.pathname === '/big-chunked') {
      res.writeHead(200, { 'Content-Type': 'application/octet-stream' });
      for (let i = 0; i < 17; i += 1) res.write(Buffer.alloc(MiB, 2));
      res.end();
    } else if (url.pathname === '/exact') {
      res.writeHead(200, { 'Content-Type': 'application/octet-stream' });
      res.end(Buffer.alloc(16 * MiB, 3));
    } else if (url.pathname === '/broken') {
      req.socket.destroy();
    } else {
      res.writeHead(201, {
        'Content-Type': 'application/json',
        'Set-Cookie': 'callee=1',
        'X-Board-Revision': '7',
      });
      res.end(
        JSON.stringify({
          method: req.method,
          path: url.pathname,
          query: url.search,
          headers: req.headers,
          bodyBytes: body.length,
        }),
      );
    }
  });
});

const simulator: SimulatorOptions = {};
beforeAll(async () => {
  await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
  simulator.businessTargets = {
    'storyboard-helper': `http://127.0.0.1:${(target.address() as AddressInfo).port}/`,
  };
});
afterAll(() => new Promise<void>((resolve) => target.close(() => resolve())));

let client: PlatformClient;
usePlatformWorld({ simulator }, (world) => {
  client = world.client;
});

const HELPER = 'storyboard-helper';
const API = '2026-01';

async function withGrant(key: string): Promise<{ cli: CliSession; grant: string }> {
  const cli = await issueCliSession(client, 'framewright-studio', 'member');
  const res = await debugCall(client, cli, 'POST', '/app-grants', {
    json: {
      calleeAppKey: HELPER,
      apiVersion: API,
      scope: 'storyboard.read',
      idempotencyKey: key,
      requestDigest: digest({ key }),
    },
  });
  expect(res.status, res.text).toBe(200);
  return { cli, grant: res.data.grant };
}

function relay(
  cli: CliSession,
  method: string,
  businessPath: string,
  options: {
    grant?: string;
    headers?: Record<string, string>;
    body?: string;
    credential?: string;
    callee?: string;
    apiVersion?: string;
  } = {},
) {
  const headers: Record<string, string> = { ...options.headers };
  if (options.grant) headers['X-Platform-App-Grant'] = options.grant;
  return client.request(
    method,
    `${cli.relayBaseUrl}/${options.callee ?? HELPER}/${options.apiVersion ?? API}/${businessPath}`,
    { credential: options.credential ?? cli.accessToken, headers, body: options.body },
  );
}

describe('the online debugging relay', () => {
  it('is documented, and its address is the CLI session relay address under {debug_base_url}', async () => {
    const paths = await documentedPaths(client);
    const relayPath = paths['/debug/v1/inter-app/{calleeAppKey}/{apiVersion}/{businessPath}'];
    expect(Object.keys(relayPath).sort()).toEqual(['delete', 'get', 'patch', 'post', 'put']);
    const { cli } = await withGrant('doc');
    expect(cli.relayBaseUrl).toBe(`${client.platform.debugBaseUrl}/inter-app`);
    expect(client.platform.debugBaseUrl).toMatch(/\/v1$/);
  });

  it('forwards any method with the grant and business headers only: Authorization, cookies and identity headers stripped', async () => {
    const { cli, grant } = await withGrant('echo');
    for (const method of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE']) {
      const res = await relay(cli, method, 'boards/b-1/panels?x=1', {
        grant,
        body: method === 'GET' ? undefined : '{"prompt":"a"}',
        headers: {
          'Content-Type': 'application/json',
          Cookie: 'session=developer',
          'X-Platform-Runtime-Session-Id': cli.runtimeSessionId,
          'X-Forwarded-For': '10.0.0.1',
          'X-User-Id': 'usr_sim_manager',
          'X-Simulator-Scenario': '',
          'X-Board-Client': 'studio',
          'X-Api-Key': 'developer-key',
          'X-Access-Token': 'developer-token',
          'X-Debug-Token': 'developer-debug',
          'X-Http-Method-Override': 'DELETE',
          'X-Original-URL': '/admin',
          'X-Real-IP': '10.0.0.2',
          'X-Session-Id': 'sess-1',
        },
      });
      expect(res.status, res.text).toBe(201);
      const seen = res.data;
      expect(seen).toMatchObject({ method, path: '/boards/b-1/panels', query: '?x=1' });
      expect(seen.headers['x-platform-app-grant']).toBe(grant);
      expect(seen.headers['x-board-client']).toBe('studio');
      for (const name of [
        'authorization',
        'cookie',
        'x-platform-runtime-session-id',
        'x-forwarded-for',
        'x-user-id',
        'x-api-key',
        'x-access-token',
        'x-debug-token',
        'x-http-method-override',
        'x-original-url',
        'x-real-ip',
        'x-session-id',
      ])
        expect(seen.headers[name], name).toBeUndefined();
      expect(res.text).not.toContain(cli.accessToken);
      expect(res.headers.get('set-cookie')).toBeNull();
      expect(res.headers.get('x-board-revision')).toBe('7');
      if (method !== 'GET') expect(seen.bodyBytes).toBe(14);
    }
    // the callee resolves the forwarded grant itself, with its own credential
    const resolved = await client.session(client.app(1), 'POST', '/app-grants:resolve', {
      json: { grant, scope: 'storyboard.read', requestDigest: digest({ key: 'echo' }) },
    });
    expect(resolved.status).toBe(200);
  });

  it('refuses a redirect without following or passing it on', async () => {
    const { cli, grant } = await withGrant('redirect');
    const res = await relay(cli, 'GET', 'redirect', { grant });
    expectPlatformError(res, 502, 'DEBUG_RELAY_REDIRECT_REFUSED');
    expect(res.headers.get('location')).toBeNull();
    expect(hits.get('/redirect')).toBe(1);
  });

  it('cuts a response over 16 MiB (declared or streamed) and relays one of exactly 16 MiB', async () => {
    const { cli, grant } = await withGrant('big');
    expectPlatformError(await relay(cli, 'GET', 'big', { grant }), 502, 'DEBUG_RELAY_RESPONSE_TOO_LARGE');
    expectPlatformError(
      await relay(cli, 'GET', 'big-chunked', { grant }),
      502,
      'DEBUG_RELAY_RESPONSE_TOO_LARGE',
    );
    const exact = await fetch(`${cli.relayBaseUrl}/${HELPER}/${API}/exact`, {
      headers: { Authorization: `Bearer ${cli.accessToken}`, 'X-Platform-App-Grant': grant },
    });
    expect(exact.status).toBe(200);
    expect((await exact.arrayBuffer()).byteLength).toBe(16 * MiB);
  });

  it('never retries a failed target', async () => {
    const { cli, grant } = await withGrant('broken');
    expectPlatformError(
      await relay(cli, 'POST', 'broken', { grant, body: 'x' }),
      502,
      'DEBUG_RELAY_UPSTREAM_FAILED',
    );
    expect(hits.get('/broken')).toBe(1);
  });

  it('needs the grant header, a grant of this CLI session for this callee and apiVersion, and a live CLI Bearer', async () => {
    const { cli, grant } = await withGrant('auth');
    expectPlatformError(await relay(cli, 'GET', 'echo'), 401, 'APP_GRANT_MISSING');
    expectPlatformError(await relay(cli, 'GET', 'echo', { grant: 'dag_forged' }), 404, 'APP_GRANT_NOT_FOUND');
    expectPlatformError(
      await relay(cli, 'GET', 'echo', { grant, apiVersion: '1999-01' }),
      404,
      'APP_GRANT_NOT_FOUND',
    );
    expectPlatformError(
      await relay(cli, 'GET', 'echo', { grant, callee: 'framewright-studio' }),
      404,
      'APP_GRANT_NOT_FOUND',
    );
    const other = await issueCliSession(client, 'framewright-studio', 'manager');
    expectPlatformError(await relay(other, 'GET', 'echo', { grant }), 404, 'APP_GRANT_NOT_FOUND');
    expectPlatformError(
      await relay(cli, 'GET', 'echo', { grant, credential: client.app(0).appCredential }),
      401,
      'UNAUTHENTICATED',
    );
    expectPlatformError(await relay(cli, 'GET', '..%2F..%2Fsecret', { grant }), 400, 'INVALID_REQUEST');
    await setWithdrawn(client, HELPER, true);
    try {
      expectPlatformError(await relay(cli, 'GET', 'echo', { grant }), 404, 'APP_GRANT_NOT_FOUND');
    } finally {
      await setWithdrawn(client, HELPER, false);
    }
    expect((await relay(cli, 'GET', 'echo', { grant })).status).toBe(201);
    await client.advanceClock(121);
    expectPlatformError(await relay(cli, 'GET', 'echo', { grant }), 404, 'APP_GRANT_NOT_FOUND');
  });
});
