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
  const firstLine = new Promise<string>((resolve) =>
    createInterface({ input: child.stdout }).once('line', resolve),
  );
  return { child, exited, firstLine, stderr: () => stderr };
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
  }, 60_000);

  it('refuses a non-loopback host unless the public URL is https', async () => {
    const run = serve(['--host', '0.0.0.0'], settingsFor('http://studio.example.test'));
    expect(await run.exited).toBe(2);
    expect(run.stderr()).toContain('FRAMEWRIGHT_PUBLIC_URL is not https');
  }, 60_000);

  it('prints {"origin","mode":"platform"} first with --json and signs a person in', async () => {
    const port = await freePort();
    const origin = `http://127.0.0.1:${port}`;
    const run = serve(['--json', '--port', String(port)], settingsFor(origin));
    try {
      expect(await run.firstLine).toBe(JSON.stringify({ origin, mode: 'platform' }));
      const launch = await fetch(sim.platform.launchUrl, {
        method: 'POST',
        headers: { Authorization: `Bearer ${sim.token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ appKey: APP_KEY, user: 'member' }),
      });
      const { runtime } = (await launch.json()) as { runtime: { launchCode: string } };
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
    // SIGTERM drained (nothing was in flight) before the backend closed
    expect(run.stderr()).toMatch(/SIGTERM: draining[\s\S]*drained: nothing in flight[\s\S]*stopped/);
  }, 60_000);
});
