import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { startSimulator } from '../../../src/simulator/index.js';
import { createdPerKey } from '../../support/engine-harness.js';
import { tempFolder } from '../../support/worlds/temp-folder.js';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const CLI = path.join(ROOT, 'bin', 'framewright.js');

interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

function runCli(args: string[], env: Record<string, string> = {}, killWhen?: () => boolean): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      cwd: ROOT,
      env: { ...process.env, FRAMEWRIGHT_SIMULATOR_TIME_SCALE: '0.05', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d));
    child.stderr.on('data', (d: Buffer) => (stderr += d));
    const watcher = killWhen
      ? setInterval(() => {
          try {
            if (killWhen()) child.kill('SIGKILL');
          } catch {
            // the journal may not exist yet
          }
        }, 25)
      : undefined;
    child.on('exit', (code, signal) => {
      if (watcher) clearInterval(watcher);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

function intentState(dataDir: string, key: string): string | undefined {
  const file = path.join(dataDir, 'journal.sqlite');
  if (!existsSync(file)) return undefined;
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const row = db.prepare('SELECT state FROM job_intents WHERE idempotency_key = ?').get(key) as
      { state: string } | undefined;
    return row?.state;
  } finally {
    db.close();
  }
}

/** Every file under the library, hidden working folders included. */
function libraryFiles(dataDir: string): string[] {
  const root = path.join(dataDir, 'library');
  const out: string[] = [];
  const walk = (dir: string) => {
    if (!existsSync(dir)) return;
    for (const name of readdirSync(dir)) {
      const full = path.join(dir, name);
      if (statSync(full).isDirectory()) walk(full);
      else out.push(path.relative(root, full));
    }
  };
  walk(root);
  return out.sort();
}

const videoArgs = (dataDir: string, key: string) => [
  '--data-dir',
  dataDir,
  '--json',
  'video',
  '--model',
  'h3-video',
  '--mode',
  't2v',
  '--prompt',
  `Crash test ${key}`,
  '--seconds',
  '5',
  '--orientation',
  'landscape',
  '--seed',
  '11',
  '--timeout',
  '120',
  '--idempotency-key',
  key,
];

async function assertExactlyOneVerifiedJob(dataDir: string, key: string) {
  const resumed = await runCli(['--data-dir', dataDir, '--json', 'resume', '--timeout', '120']);
  expect(resumed.stderr).not.toMatch(/error/i);
  expect(resumed.code).toBe(0);
  const summary = JSON.parse(resumed.stdout.trim().split('\n').pop()!);
  const result = summary.results.find((r: { idempotencyKey: string }) => r.idempotencyKey === key);
  expect(result.state).toBe('succeeded');

  // the simulator's own record: exactly one job was created for the intent
  const sim = await startSimulator({ port: 0, timeScale: 0.05, dataDir: path.join(dataDir, 'simulator') });
  try {
    expect((await createdPerKey(sim.baseUrl, sim.token)).get(key)).toBe(1);
  } finally {
    await sim.close();
  }

  // the library holds exactly the verified files (plus the sidecar), nothing partial
  const files = libraryFiles(dataDir);
  const media = files.filter((f) => f.endsWith('.mp4'));
  expect(media).toHaveLength(1);
  expect(files.filter((f) => f.startsWith('.incoming'))).toEqual([]);
  expect(files.filter((f) => !f.endsWith('.mp4') && !f.endsWith('framewright.json'))).toEqual([]);
  const output = result.outputs[0];
  expect(output.verified).toBe(true);
  const bytes = readFileSync(output.path);
  expect(createHash('sha256').update(bytes).digest('hex')).toBe(output.sha256);
}

describe('killed with SIGKILL at each dangerous point, then resumed', () => {
  it('after the intent is committed, before the create request leaves', async () => {
    const dataDir = tempFolder('fw-crash-');
    const crashed = await runCli(videoArgs(dataDir, 'crash-intent'), {
      FRAMEWRIGHT_TEST_CRASH_AT: 'after-intent',
    });
    expect(crashed.signal).toBe('SIGKILL');
    expect(intentState(dataDir, 'crash-intent')).toBe('pending_create');
    await assertExactlyOneVerifiedJob(dataDir, 'crash-intent');
  });

  it('after the create request was answered by the service but before the answer was read', async () => {
    const dataDir = tempFolder('fw-crash-');
    // the simulator creates the job, then drops the connection: the CLI records an unknown
    // outcome and is killed before it can replay
    const crashed = await runCli(
      videoArgs(dataDir, 'crash-unknown'),
      { FRAMEWRIGHT_SIMULATOR_SCENARIO: 'dropped_connection' },
      () => intentState(dataDir, 'crash-unknown') === 'unknown',
    );
    expect(crashed.signal).toBe('SIGKILL');
    expect(intentState(dataDir, 'crash-unknown')).toBe('unknown');
    await assertExactlyOneVerifiedJob(dataDir, 'crash-unknown');
  });

  it('while polling an accepted job', async () => {
    const dataDir = tempFolder('fw-crash-');
    const crashed = await runCli(videoArgs(dataDir, 'crash-poll'), {
      FRAMEWRIGHT_TEST_CRASH_AT: 'while-polling',
      FRAMEWRIGHT_SIMULATOR_TIME_SCALE: '0.5',
    });
    expect(crashed.signal).toBe('SIGKILL');
    expect(intentState(dataDir, 'crash-poll')).toBe('accepted');
    await assertExactlyOneVerifiedJob(dataDir, 'crash-poll');
  });

  it('in the middle of a download', async () => {
    const dataDir = tempFolder('fw-crash-');
    const crashed = await runCli(videoArgs(dataDir, 'crash-download'), {
      FRAMEWRIGHT_TEST_CRASH_AT: 'mid-download',
    });
    expect(crashed.signal).toBe('SIGKILL');
    // the partial file is there, in the working folder only, and nothing was verified
    const partial = libraryFiles(dataDir).filter((f) => f.startsWith('.incoming/'));
    expect(partial).toHaveLength(1);
    expect(statSync(path.join(dataDir, 'library', partial[0]!)).size).toBeGreaterThan(0);
    expect(libraryFiles(dataDir).filter((f) => f.endsWith('.mp4'))).toEqual([]);
    await assertExactlyOneVerifiedJob(dataDir, 'crash-download');
  });
});

function optimizationStates(dataDir: string): string[] {
  const file = path.join(dataDir, 'journal.sqlite');
  if (!existsSync(file)) return [];
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    return (db.prepare('SELECT state FROM prompt_optimizations').all() as { state: string }[]).map(
      (r) => r.state,
    );
  } catch {
    return []; // the journal is still being created
  } finally {
    db.close();
  }
}

describe('killed during a prompt optimization the service accepted, then resumed', () => {
  it('resume replays it under the same key; the same command again bills no second optimization', async () => {
    const dataDir = tempFolder('fw-crash-');
    const args = [...videoArgs(dataDir, 'crash-optimize'), '--optimize'];
    const crashed = await runCli(
      args,
      { FRAMEWRIGHT_SIMULATOR_SCENARIO: 'dropped_connection' },
      () => optimizationStates(dataDir)[0] === 'unknown',
    );
    expect(crashed.signal).toBe('SIGKILL');
    expect(optimizationStates(dataDir)).toEqual(['unknown']);

    const resumed = await runCli(['--data-dir', dataDir, '--json', 'resume', '--timeout', '60']);
    expect(resumed.code).toBe(0);
    const summary = JSON.parse(resumed.stdout.trim().split('\n').pop()!);
    expect(summary.optimizations).toEqual([expect.objectContaining({ state: 'succeeded' })]);
    const key = summary.optimizations[0].clientRequestId as string;

    const again = await runCli(args);
    expect(again.code).toBe(0);
    expect(optimizationStates(dataDir)).toEqual(['succeeded']);

    const sim = await startSimulator({ port: 0, timeScale: 0.05, dataDir: path.join(dataDir, 'simulator') });
    try {
      const created = await createdPerKey(sim.baseUrl, sim.token);
      expect([...created].filter(([k]) => k.startsWith('opt-'))).toEqual([[key, 1]]);
      expect(created.get('crash-optimize')).toBe(1);
    } finally {
      await sim.close();
    }
  });
});
