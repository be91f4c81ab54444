import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { beforeAll, describe, expect, it } from 'vitest';
import type { RunningSimulator } from '../../../src/simulator/index.js';
import { APP_KEY, freePort } from './harness.js';
import { openSimulator } from '../../support/worlds/simulator.js';
import { tempFolder } from '../../support/worlds/temp-folder.js';
import { signInWithLaunchCode } from '../../support/platform-sign-in.js';

const root = path.resolve(import.meta.dirname, '../../..');
let tmp: string;
let sim: RunningSimulator;

beforeAll(async () => {
  tmp = tempFolder('fw-serve-platform-');
  mkdirSync(path.join(tmp, 'renderer'));
  writeFileSync(path.join(tmp, 'renderer', 'index.html'), '<!doctype html><title>Framewright</title>');
  sim = await openSimulator({ timeScale: 0.01 });
});

/** Runs `framewright serve --platform …` with only the given environment (plus PATH/HOME). */
function serve(args: string[], env: Record<string, string>) {
  const child = spawn(
    process.execPath,
    [
      path.join(root, 'bin/framewright.js'),
      'serve',
      '--platform',
      '--data-dir',
      path.join(tmp, 'data'),
      '--renderer-dir',
      path.join(tmp, 'renderer'),
      ...args,
    ],
    {
      cwd: root,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? tmp, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const stdout: string[] = [];
  const firstLine = new Promise<string>((resolve) => {
    const lines = createInterface({ input: child.stdout });
    lines.once('line', resolve);
    lines.on('line', (line) => stdout.push(line));
  });
  return { child, exited, firstLine, stderr: () => stderr, stdout: () => stdout };
}

/** A launch code for the simulator's member, as the application center makes one. */
async function memberLaunchCode(): Promise<string> {
  const launch = await fetch(sim.platform.launchUrl, {
    method: 'POST',
    headers: { Authorization: `Bearer ${sim.token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ appKey: APP_KEY, user: 'member' }),
  });
  return ((await launch.json()) as { runtime: { launchCode: string } }).runtime.launchCode;
}

function settingsFor(publicUrl: string): Record<string, string> {
  const app = sim.platform.apps.find((a) => a.appKey === APP_KEY)!;
  return {
    PLATFORM_APP_RUNTIME_BASE_URL: sim.platform.runtimeBaseUrl,
    PLATFORM_APP_SESSION_BASE_URL: sim.platform.sessionBaseUrl,
    PLATFORM_APP_KEY: APP_KEY,
    PLATFORM_APP_CREDENTIAL: app.appCredential,
    FRAMEWRIGHT_PUBLIC_URL: publicUrl,
  };
}

describe('framewright serve --platform', () => {
  it('stops with exit code 2 and one line per missing setting, never echoing the credential', async () => {
    const run = serve([], {
      PLATFORM_APP_CREDENTIAL: 'cred-SECRET-42',
      FRAMEWRIGHT_PUBLIC_URL: 'https://x.example/app',
    });
    expect(await run.exited).toBe(2);
    const lines = run.stderr().trim().split('\n');
    expect(lines).toHaveLength(4); // runtime URL, session URL, app key, public URL with a path
    expect(run.stderr()).toContain('PLATFORM_APP_KEY');
    expect(run.stderr()).toContain('FRAMEWRIGHT_PUBLIC_URL must be an origin only');
    expect(run.stderr()).not.toContain('cred-SECRET-42');
  });

  it('refuses a non-loopback host unless the public URL is https', async () => {
    const run = serve(['--host', '0.0.0.0'], settingsFor('http://studio.example.test'));
    expect(await run.exited).toBe(2);
    expect(run.stderr()).toContain('FRAMEWRIGHT_PUBLIC_URL is not https');
  });

  it('prints {"origin","mode":"platform"} first with --json and signs a person in', async () => {
    const port = await freePort();
    const origin = `http://127.0.0.1:${port}`;
    const run = serve(['--json', '--port', String(port)], settingsFor(origin));
    try {
      expect(await run.firstLine).toBe(JSON.stringify({ origin, mode: 'platform' }));
      const runtime = { launchCode: await memberLaunchCode() };
      const signIn = await signInWithLaunchCode(origin, runtime.launchCode);
      expect(signIn.response.status).toBe(200);
      expect(signIn.cookie).toMatch(/^framewright_session=/);
      expect(run.stderr()).not.toContain(runtime.launchCode);
      // the orchestrator's probes: alive, and ready once start-up resume has run
      expect((await fetch(`${origin}/healthz`)).status).toBe(200);
      expect((await fetch(`${origin}/readyz`)).status).toBe(200);
    } finally {
      run.child.kill('SIGTERM');
      expect(await run.exited).toBe(0);
    }
    // the log on stdout (not a terminal): one JSON object per line, after the start-up line
    const entries = run
      .stdout()
      .slice(1)
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const messages = entries.map((entry) => entry.message);
    // SIGTERM drained (nothing was in flight) before the backend closed
    expect(messages.join('\n')).toMatch(/SIGTERM: draining[\s\S]*drained: nothing in flight[\s\S]*stopped/);
    // each request: its id, route (no query), status and duration, and an opaque person
    const requests = entries.filter((entry) => entry.message === 'request');
    const signIns = requests.filter((entry) => entry.route === '/platform/session' && entry.status === 200);
    expect(signIns.length).toBeGreaterThan(0);
    expect(signIns.at(-1)).toMatchObject({
      level: 'info',
      method: 'POST',
      person: expect.stringMatching(/^[0-9a-f]{16}$/),
    });
    expect(requests.find((entry) => entry.route === '/healthz')).toBeUndefined();
    for (const entry of requests) {
      expect(entry).toMatchObject({ requestId: expect.any(String), durationMs: expect.any(Number) });
      expect(JSON.stringify(entry)).not.toMatch(/member|launchCode|\?/);
    }
  });

  it('serves its metrics on their own port behind a token, counting what a scripted run did', async () => {
    const [port, metricsPort] = [await freePort(), await freePort()];
    const origin = `http://127.0.0.1:${port}`;
    const token = 'metrics-token-0123456789';
    // a data folder of its own: no session of the tests above is held
    const run = serve(['--json', '--port', String(port), '--data-dir', path.join(tmp, 'metrics-data')], {
      ...settingsFor(origin),
      FRAMEWRIGHT_METRICS_PORT: String(metricsPort),
      FRAMEWRIGHT_METRICS_TOKEN: token,
    });
    const scrape = async (auth = `Bearer ${token}`) => {
      const response = await fetch(`http://127.0.0.1:${metricsPort}/metrics`, {
        headers: { Authorization: auth },
      });
      return { status: response.status, text: await response.text() };
    };
    /** The value of one sample (`name{labels} value`), 0 when absent. */
    const sample = (text: string, series: string) => {
      const line = text.split('\n').find((l) => l.startsWith(`${series} `));
      return line ? Number(line.slice(series.length + 1)) : 0;
    };
    try {
      await run.firstLine;
      const runtime = { launchCode: await memberLaunchCode() };
      const signIn = await signInWithLaunchCode(origin, runtime.launchCode);
      expect(signIn.response.status).toBe(200);
      const call = (method: string) =>
        fetch(`${origin}/bridge/invoke`, {
          method: 'POST',
          headers: {
            Origin: origin,
            Cookie: signIn.cookie,
            'X-Framewright-CSRF': signIn.json.result!.csrfToken,
            'Content-Type': 'application/json',
          },
          body: JSON.stringify({ method, params: {} }),
        }).then((r) => r.json() as Promise<{ ok: boolean }>);
      for (let i = 0; i < 3; i += 1) expect((await call('app.info')).ok).toBe(true);
      await call('no.such.method');
      // a junk launch code: refused
      const junk = await fetch(`${origin}/platform/session`, {
        method: 'POST',
        headers: { Origin: origin, 'Content-Type': 'application/json' },
        body: JSON.stringify({ launchCode: 'x'.repeat(40) }),
      });
      expect(junk.status).toBeGreaterThanOrEqual(400);

      expect((await scrape('Bearer wrong-token-0123456789')).status).toBe(401);
      expect((await scrape('')).status).toBe(401);
      // never on the public port
      expect((await fetch(`${origin}/metrics`)).headers.get('content-type')).not.toMatch(
        /^text\/plain; version/,
      );
      const { status, text } = await scrape();
      expect(status).toBe(200);
      expect(
        sample(text, 'framewright_bridge_call_duration_seconds_count{method="app.info",outcome="ok"}'),
      ).toBe(3);
      expect(
        sample(text, 'framewright_bridge_call_duration_seconds_count{method="unknown",outcome="error"}'),
      ).toBe(1);
      // the link asked whom it signs in, then the person confirmed; the junk code was refused
      expect(sample(text, 'framewright_sign_ins_total{outcome="confirm_asked"}')).toBe(1);
      expect(sample(text, 'framewright_sign_ins_total{outcome="signed_in"}')).toBe(1);
      expect(sample(text, 'framewright_sign_ins_total{outcome="refused"}')).toBe(1);
      expect(sample(text, 'framewright_sessions_open')).toBe(1);
      expect(sample(text, 'framewright_workspaces_open')).toBe(1);
      expect(text).toMatch(/^nodejs_eventloop_lag_seconds \d/m);
      expect(text).toMatch(/^process_resident_memory_bytes \d/m);
      expect(text).toMatch(/^framewright_runtime_calls_total\{operation="[^"]+",status="200"\} \d/m);
      // no person, cookie or token in the labels
      expect(text).not.toContain('member');
      expect(text).not.toContain(signIn.json.result!.csrfToken);
    } finally {
      run.child.kill('SIGTERM');
      expect(await run.exited).toBe(0);
    }
    expect(run.stdout().join('\n')).not.toContain(token);
  });
});
