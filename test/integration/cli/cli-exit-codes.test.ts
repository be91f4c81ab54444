import { spawn } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type RunningSimulator } from '../../../src/simulator/index.js';
import { openSimulator } from '../../support/worlds/simulator.js';
import { createdPerKey } from '../../support/engine-harness.js';
import { tempFolder } from '../../support/worlds/temp-folder.js';

const ROOT = path.resolve(import.meta.dirname, '../../..');

function cli(args: string[], env: Record<string, string> = {}, stdin?: string) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, [path.join(ROOT, 'bin/framewright.js'), ...args], {
      cwd: ROOT,
      env: { ...process.env, FRAMEWRIGHT_SIMULATOR_TIME_SCALE: '0.05', FRAMEWRIGHT_API_KEY: '', ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d));
    child.stderr.on('data', (d: Buffer) => (stderr += d));
    child.stdin.end(stdin ?? '');
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

const video = (dataDir: string, extra: string[] = []) => [
  '--data-dir',
  dataDir,
  '--json',
  'video',
  '--model',
  'h3-video',
  '--mode',
  't2v',
  '--prompt',
  'Exit codes matter to scripts',
  '--seconds',
  '5',
  '--orientation',
  'landscape',
  ...extra,
];

let sim: RunningSimulator;
beforeAll(async () => {
  sim = await openSimulator({ timeScale: 0.05, tokens: ['script-key-0123456789'] });
});
afterAll(async () => {
  await sim.close();
});

describe('framewright CLI', () => {
  it('--help works and lists the commands', async () => {
    const run = await cli(['--help']);
    expect(run.code).toBe(0);
    for (const command of [
      'serve',
      'simulator',
      'services',
      'login',
      'profiles',
      'video',
      'jobs',
      'show',
      'resume',
    ]) {
      expect(run.stdout).toContain(command);
    }
  });

  it('0: a job that succeeds prints its verified outputs', async () => {
    const dataDir = tempFolder('fw-cli-');
    const run = await cli(video(dataDir, ['--idempotency-key', 'cli-ok-1']));
    expect(run.code).toBe(0);
    const out = JSON.parse(run.stdout);
    expect(out).toMatchObject({ status: 'succeeded', idempotencyKey: 'cli-ok-1' });
    expect(out.outputs[0]).toMatchObject({ mimeType: 'video/mp4', verified: true });
    const jobs = await cli(['--data-dir', dataDir, '--json', 'jobs']);
    expect(JSON.parse(jobs.stdout).data.map((j: { jobId: string }) => j.jobId)).toEqual([out.jobId]);
    const show = await cli(['--data-dir', dataDir, '--json', 'show', out.jobId]);
    expect(JSON.parse(show.stdout)).toMatchObject({
      jobId: out.jobId,
      request: { prompt: 'Exit codes matter to scripts' },
    });
  });

  it('2: invalid input names the problem and sends nothing', async () => {
    const dataDir = tempFolder('fw-cli-');
    const run = await cli(video(dataDir, ['--seconds', '16', '--idempotency-key', 'cli-bad-1']));
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/seconds/i);
    const missingFile = await cli(video(dataDir, ['--mode', 'i2v', '--first-frame', '/nonexistent.png']));
    expect(missingFile.code).toBe(2);
    expect(missingFile.stderr).toContain('/nonexistent.png');
    const jobs = await cli(['--data-dir', dataDir, '--json', 'jobs']);
    expect(JSON.parse(jobs.stdout).data).toEqual([]);
  });

  it('3: a refused identity (401) with --base-url and FRAMEWRIGHT_API_KEY', async () => {
    const dataDir = tempFolder('fw-cli-');
    const run = await cli(['--base-url', sim.baseUrl, ...video(dataDir)], {
      FRAMEWRIGHT_API_KEY: 'wrong-key-0123456789',
    });
    expect(run.code).toBe(3);
    expect(run.stderr).toMatch(/key or token was refused/);
    expect(run.stdout + run.stderr).not.toContain('wrong-key-0123456789');
    const ok = await cli(['--base-url', sim.baseUrl, ...video(dataDir, ['--idempotency-key', 'cli-env-1'])], {
      FRAMEWRIGHT_API_KEY: 'script-key-0123456789',
    });
    expect(ok.code).toBe(0);
    expect(ok.stdout + ok.stderr).not.toContain('script-key-0123456789');
  });

  it('3: --base-url without a key in the environment', async () => {
    const run = await cli(['--base-url', sim.baseUrl, ...video(tempFolder('fw-cli-'))]);
    expect(run.code).toBe(3);
    expect(run.stderr).toContain('FRAMEWRIGHT_API_KEY');
  });

  it('4: insufficient balance is surfaced, not retried', async () => {
    const dataDir = tempFolder('fw-cli-');
    const run = await cli(video(dataDir, ['--idempotency-key', 'cli-402']), {
      FRAMEWRIGHT_SIMULATOR_SCENARIO: 'insufficient_balance',
    });
    expect(run.code).toBe(4);
    expect(JSON.parse(run.stdout).error.details).toMatchObject({ status: 402 });
  });

  it('1: a failed job keeps its ids and is not re-created by resume', async () => {
    const dataDir = tempFolder('fw-cli-');
    const run = await cli(video(dataDir, ['--idempotency-key', 'cli-failed']), {
      FRAMEWRIGHT_SIMULATOR_SCENARIO: 'job_failed',
    });
    expect(run.code).toBe(1);
    const out = JSON.parse(run.stdout);
    expect(out).toMatchObject({ status: 'failed', retryable: false });
    expect(out.errorCode).toBeTruthy();
    expect(out.requestId).toBeTruthy();
    const resumed = await cli(['--data-dir', dataDir, '--json', 'resume']);
    expect(resumed.code).toBe(0);
    expect(JSON.parse(resumed.stdout).results).toEqual([]);
  });

  it('5: past the wait limit the job stays pending; resume finishes it', async () => {
    const dataDir = tempFolder('fw-cli-');
    const run = await cli(video(dataDir, ['--timeout', '1', '--idempotency-key', 'cli-slow']), {
      FRAMEWRIGHT_SIMULATOR_TIME_SCALE: '1',
    });
    expect(run.code).toBe(5);
    expect(JSON.parse(run.stdout)).toMatchObject({ state: 'pending' });
    const resumed = await cli(['--data-dir', dataDir, '--json', 'resume', '--timeout', '120'], {
      FRAMEWRIGHT_SIMULATOR_TIME_SCALE: '0.2',
    });
    expect(resumed.code).toBe(0);
    expect(JSON.parse(resumed.stdout).results[0]).toMatchObject({
      state: 'succeeded',
      idempotencyKey: 'cli-slow',
    });
    const embedded = await startSimulator({ port: 0, dataDir: path.join(dataDir, 'simulator') });
    try {
      expect((await createdPerKey(embedded.baseUrl, embedded.token)).get('cli-slow')).toBe(1);
    } finally {
      await embedded.close();
    }
  });

  it('login stores the key in the OS keychain, or refuses and says why when there is none', async () => {
    const dataDir = tempFolder('fw-cli-');
    const key = 'login-key-abcdef0123456789';
    const run = await cli(
      ['--data-dir', dataDir, '--json', 'login', '--profile', 'Studio', '--base-url', sim.baseUrl],
      {},
      key + '\n',
    );
    const profiles = await cli(['--data-dir', dataDir, '--json', 'profiles']);
    expect(run.stdout + run.stderr + profiles.stdout).not.toContain(key);
    const listed = JSON.parse(profiles.stdout).data as { name: string; hasSecret: boolean }[];
    if (process.env.FRAMEWRIGHT_KEYRING_TESTS === '1') {
      expect(run.code).toBe(0);
      expect(listed.find((p) => p.name === 'Studio')).toMatchObject({ hasSecret: true });
      const services = await cli(['--data-dir', dataDir, '--profile', 'Studio', '--json', 'services']);
      // the simulator does not know this key: the identity is refused, proving the stored key was sent
      expect(services.code).toBe(3);
    } else {
      expect(run.code).toBe(6);
      expect(run.stderr).toMatch(/keychain|Secret Service/i);
      expect(listed.find((p) => p.name === 'Studio')).toBeUndefined();
    }
  });
});
