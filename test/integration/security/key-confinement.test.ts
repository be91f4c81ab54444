import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAppCore } from '../../../src/main/core/app/app-core.js';
import { PublicApiClient } from '../../../src/main/core/api-clients/public-api-client.js';
import type { RunningSimulator } from '../../../src/simulator/index.js';
import { openSimulator } from '../../support/worlds/simulator.js';
import { tempFolder } from '../../support/worlds/temp-folder.js';
import { MemorySecretStore } from '../../support/memory-secret-store.js';
import { BROWSER_HOST } from '../../../src/main/core/library/studio-host.js';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const KEY = `fw-personal-${randomBytes(12).toString('hex')}`;

type GatewayMode = 'rewrite-urls' | 'redirect-downloads' | 'echo-auth';

interface Recorder {
  requests: { url: string; authorization?: string }[];
}

/**
 * A stand-in for the hosted gateway in front of the simulator. In `rewrite-urls` mode it rewrites
 * every `jobUrl` and `contentUrl` to point at a foreign origin; in `redirect-downloads` mode it
 * redirects result downloads to the foreign origin; in `echo-auth` mode it answers 400 with the
 * caller's Authorization header in the message.
 */
async function startGateway(sim: RunningSimulator, foreignOrigin: string, state: { mode: GatewayMode }) {
  const simOrigin = new URL(sim.baseUrl).origin;
  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://gateway');
    if (state.mode === 'echo-auth') {
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          code: 'bad_key',
          message: `rejected credential ${req.headers.authorization}`,
          requestId: 'req_echo',
          retryable: false,
        }),
      );
      return;
    }
    if (state.mode === 'redirect-downloads' && /\/assets\/[^/]+\/content$/.test(url.pathname)) {
      res.writeHead(302, { location: `${foreignOrigin}${url.pathname}${url.search}` });
      res.end();
      return;
    }
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers))
      if (typeof v === 'string' && k !== 'host') headers.set(k, v);
    const upstream = await fetch(simOrigin + url.pathname + url.search, {
      method: req.method,
      headers,
      body: chunks.length ? Buffer.concat(chunks) : undefined,
      redirect: 'manual',
    });
    const type = upstream.headers.get('content-type') ?? '';
    const out: Record<string, string> = {};
    upstream.headers.forEach((v, k) => {
      if (!['content-length', 'content-encoding', 'transfer-encoding', 'connection', 'location'].includes(k))
        out[k] = v;
    });
    if (type.includes('json')) {
      let text = await upstream.text();
      if (state.mode === 'rewrite-urls') text = text.split(simOrigin).join(foreignOrigin);
      else text = text.split(simOrigin).join(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
      res.writeHead(upstream.status, out);
      res.end(text);
    } else {
      res.writeHead(upstream.status, out);
      res.end(Buffer.from(await upstream.arrayBuffer()));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1` };
}

/** The foreign origin: records who calls it; serves result bytes (fetched with its own credential). */
async function startForeign(sim: RunningSimulator, recorder: Recorder) {
  const server = http.createServer(async (req, res) => {
    recorder.requests.push({ url: req.url ?? '', authorization: req.headers.authorization });
    const url = new URL(req.url ?? '/', 'http://foreign');
    if (/\/assets\/[^/]+\/content$/.test(url.pathname)) {
      const upstream = await fetch(new URL(sim.baseUrl).origin + url.pathname + url.search, {
        headers: { authorization: `Bearer ${KEY}` },
      });
      res.writeHead(upstream.status, {
        'content-type': upstream.headers.get('content-type') ?? 'application/octet-stream',
      });
      res.end(Buffer.from(await upstream.arrayBuffer()));
      return;
    }
    res.writeHead(404, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ code: 'not_found', message: 'foreign', requestId: 'r', retryable: false }));
  });
  // a different host name makes a different origin
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, origin: `http://localhost:${(server.address() as AddressInfo).port}` };
}

function runCli(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(ROOT, 'bin/framewright.js'), ...args], {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d));
    child.stderr.on('data', (d: Buffer) => (stderr += d));
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

function filesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) out.push(...filesUnder(full));
    else out.push(full);
  }
  return out;
}

function expectNoKeyInFolder(dir: string) {
  const files = filesUnder(dir);
  expect(files.some((f) => f.endsWith('journal.sqlite'))).toBe(true);
  for (const file of files) {
    expect(readFileSync(file).includes(Buffer.from(KEY)), `the key was found in ${file}`).toBe(false);
  }
}

let sim: RunningSimulator;
const recorder: Recorder = { requests: [] };
const state: { mode: GatewayMode } = { mode: 'rewrite-urls' };
let gateway: Awaited<ReturnType<typeof startGateway>>;
let foreign: Awaited<ReturnType<typeof startForeign>>;

beforeAll(async () => {
  sim = await openSimulator({ timeScale: 0.02, tokens: [KEY] });
  foreign = await startForeign(sim, recorder);
  gateway = await startGateway(sim, foreign.origin, state);
});
afterAll(async () => {
  gateway.server.close();
  foreign.server.close();
  await sim.close();
});

const videoArgs = (dataDir: string) => [
  '--data-dir',
  dataDir,
  '--base-url',
  gateway.baseUrl,
  '--json',
  'video',
  '--model',
  'h3-video',
  '--mode',
  't2v',
  '--prompt',
  'A key must never leave home',
  '--seconds',
  '5',
  '--orientation',
  'landscape',
  '--timeout',
  '60',
];

describe('the API key stays in the main process', () => {
  it('a jobUrl on another origin never receives the key: the run stops, naming both origins', async () => {
    state.mode = 'rewrite-urls';
    recorder.requests.length = 0;
    const dataDir = tempFolder('fw-sec-');
    const run = await runCli(videoArgs(dataDir), { FRAMEWRIGHT_API_KEY: KEY });
    expect(run.stderr).toContain(`The service returned a URL on ${foreign.origin}`);
    expect(run.stderr).toContain(new URL(gateway.baseUrl).origin);
    expect(run.code).not.toBe(0);
    expect(recorder.requests).toEqual([]);
    expect(run.stdout + run.stderr).not.toContain(KEY);
    expectNoKeyInFolder(dataDir);
  });

  it('a download redirected to another origin is followed without the key', async () => {
    state.mode = 'redirect-downloads';
    recorder.requests.length = 0;
    const dataDir = tempFolder('fw-sec-');
    const run = await runCli(videoArgs(dataDir), { FRAMEWRIGHT_API_KEY: KEY });
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout).outputs[0].verified).toBe(true);
    expect(recorder.requests.length).toBeGreaterThan(0);
    for (const request of recorder.requests) expect(request.authorization).toBeUndefined();
    expect(run.stdout + run.stderr).not.toContain(KEY);
    expectNoKeyInFolder(dataDir);
  });

  it('a server that echoes the key in an error does not carry it into errors, logs or bridge payloads', async () => {
    state.mode = 'echo-auth';
    const client = new PublicApiClient({
      profileId: 'p',
      kind: 'personal',
      baseUrl: gateway.baseUrl,
      secret: async () => KEY,
    });
    const error = (await client.listServices().catch((e: unknown) => e)) as Error;
    expect(error.message).toContain('rejected credential Bearer [redacted]');
    expect(error.message).not.toContain(KEY);

    const dataDir = tempFolder('fw-sec-');
    const core = await createAppCore({
      dataDir,
      host: BROWSER_HOST,
      launchSimulator: async () => ({ ...sim, close: async () => undefined }),
      secretStore: new MemorySecretStore(),
      resumeOnStart: false,
    });
    const payloads: unknown[] = [];
    core.events.subscribe((event, payload) => payloads.push({ event, payload }));
    try {
      const profile = await core.services.credentials.createProfile({
        name: 'Personal',
        kind: 'personal',
        baseUrl: gateway.baseUrl,
        secret: KEY,
      });
      core.services.profiles.setActive(profile.id);
      for (const method of [
        'app.info',
        'profiles.list',
        'connection.check',
        'connection.get',
        'settings.get',
      ]) {
        payloads.push(await core.dispatcher.dispatch(method, {}));
      }
      const checked = payloads.find((p) => JSON.stringify(p).includes('rejected credential'));
      expect(checked).toBeDefined();
      expect(JSON.stringify(payloads)).not.toContain(KEY);
      const listed = (await core.dispatcher.dispatch('profiles.list', {})) as {
        ok: true;
        result: { profiles: { id: string; hasSecret: boolean }[] };
      };
      expect(listed.result.profiles.find((p) => p.id === profile.id)?.hasSecret).toBe(true);
      core.logger.error('a failing call', { error });
    } finally {
      await core.close();
    }
    expectNoKeyInFolder(dataDir);
    const log = readFileSync(path.join(dataDir, 'logs', 'main.log'), 'utf8');
    expect(log.length).toBeGreaterThan(0);
    expect(log).not.toContain(KEY);
  });
});
