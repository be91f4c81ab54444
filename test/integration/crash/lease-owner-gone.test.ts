/**
 * The journal's promise across a crash and a second process (issue: "Jobs that a crash or a second
 * process must never strand"): a job paid for is never lost and never doubled.
 * - a CLI killed (SIGKILL, its whole process group) while the service holds its create's answer,
 *   then `resume` at once: the lease of the dead process blocks nothing, the create is replayed
 *   under the same key and body, one job, its verified file — also while the killed process is a
 *   zombie its parent has not reaped (`kill(pid, 0)` still answers for it);
 * - a replay after a dropped connection answered 409 (a request with this key is being processed):
 *   the latest state is read by replaying the same key and body after a back-off, never a new key;
 * - a result announced without sha256 or byteSize is `verified: false` (not verifiable) in `--json`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSimulator } from '../../../src/simulator/index.js';
import { runFramewright } from '../../support/cli-runner.js';
import { createdPerKey } from '../../support/engine-harness.js';
import { openSimulator } from '../../support/worlds/simulator.js';
import { tempFolder } from '../../support/worlds/temp-folder.js';
import { ScriptedProxy, type CreateScript } from '../../support/scripted-proxy.js';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const CLI = path.join(ROOT, 'bin', 'framewright.js');

let sim: RunningSimulator;
const proxies: ScriptedProxy[] = [];

beforeAll(async () => {
  sim = await openSimulator({ timeScale: 0.05 });
});
afterAll(async () => {
  for (const proxy of proxies) await proxy.close();
  await sim.close();
});

async function proxyWith(
  script: (n: number) => CreateScript,
  rewriteJson?: ConstructorParameters<typeof ScriptedProxy>[2],
): Promise<{ proxy: ScriptedProxy; url: string }> {
  const proxy = new ScriptedProxy(new URL(sim.baseUrl).origin, script, rewriteJson);
  proxies.push(proxy);
  return { proxy, url: await proxy.start() };
}

const videoArgs = (baseUrl: string, dataDir: string, key: string) => [
  ...['--base-url', baseUrl, '--data-dir', dataDir, '--json', 'video', '--model', 'h3-video'],
  ...['--mode', 't2v', '--prompt', `Lease test ${key}`, '--seconds', '5', '--orientation', 'landscape'],
  ...['--seed', '7', '--timeout', '120', '--idempotency-key', key],
];

const cliEnv = () => ({ FRAMEWRIGHT_API_KEY: sim.token });

async function waitFor(check: () => boolean, what: string, ms = 60_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

function journalRow(dataDir: string, key: string) {
  const db = new Database(path.join(dataDir, 'journal.sqlite'), { readonly: true, fileMustExist: true });
  try {
    return db
      .prepare(
        `SELECT job_intents.state, job_intents.attempt_count AS attempts,
           (SELECT count(*) FROM job_leases WHERE job_leases.intent_id = job_intents.id) AS leases
         FROM job_intents WHERE idempotency_key = ?`,
      )
      .get(key) as { state: string; attempts: number; leases: number } | undefined;
  } finally {
    db.close();
  }
}

function processState(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
  } catch {
    return undefined;
  }
}

interface ResumeReport {
  results: {
    state: string;
    idempotencyKey: string;
    outputs?: { path: string; sha256: string; verified: boolean }[];
  }[];
  errors: unknown[];
}

/** `resume` right away: the create replayed under the same key, one job, the verified file. */
async function resumeFindsOneVerifiedJob(
  proxyUrl: string,
  proxy: ScriptedProxy,
  dataDir: string,
  key: string,
) {
  const createsBefore = proxy.creates;
  const resumed = await runFramewright(
    ['--base-url', proxyUrl, '--data-dir', dataDir, '--json', 'resume', '--timeout', '120'],
    cliEnv(),
  );
  expect(resumed.code, resumed.stderr + resumed.stdout).toBe(0);
  const report = JSON.parse(resumed.stdout.trim().split('\n').pop()!) as ResumeReport;
  expect(report.errors).toEqual([]);
  const result = report.results.find((r) => r.idempotencyKey === key)!;
  expect(result.state).toBe('succeeded');
  // the create was sent again (a replay under the same key), and the service made one job
  expect(proxy.creates).toBe(createsBefore + 1);
  expect((await createdPerKey(sim.baseUrl, sim.token)).get(key)).toBe(1);
  const output = result.outputs![0]!;
  expect(output.verified).toBe(true);
  expect(createHash('sha256').update(readFileSync(output.path)).digest('hex')).toBe(output.sha256);
  expect(journalRow(dataDir, key)).toMatchObject({ state: 'accepted', leases: 0 });
}

describe('resume right after a crash', () => {
  it('SIGKILL of the process group while the create is held: resume replays it at once and stores the verified file', async () => {
    const { proxy, url } = await proxyWith((n) => (n === 1 ? 'hold' : 'pass'));
    const dataDir = tempFolder('fw-lease-crash-');
    const key = 'lease-crash-held-create';
    // its own process group, as a shell runs a command: the whole group is killed
    const child = spawn(process.execPath, [CLI, ...videoArgs(url, dataDir, key)], {
      cwd: ROOT,
      env: { ...process.env, ...cliEnv() },
      stdio: 'ignore',
      detached: true,
    });
    const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_c, s) => resolve(s)));
    await waitFor(() => proxy.holding, 'the held create');
    expect(journalRow(dataDir, key)).toMatchObject({ state: 'pending_create', attempts: 1, leases: 1 });
    process.kill(-child.pid!, 'SIGKILL');
    expect(await exited).toBe('SIGKILL');
    // the dead process's lease row is still there: it must not block the resume
    expect(journalRow(dataDir, key)!.leases).toBe(1);
    await resumeFindsOneVerifiedJob(url, proxy, dataDir, key);
  });

  it('the same while the killed process is a zombie its parent has not reaped yet', async () => {
    const { proxy, url } = await proxyWith((n) => (n === 1 ? 'hold' : 'pass'));
    const dataDir = tempFolder('fw-lease-zombie-');
    const key = 'lease-crash-zombie';
    // a parent that never reaps: the shell starts the CLI, prints its pid, then becomes `sleep`
    const quoted = [process.execPath, CLI, ...videoArgs(url, dataDir, key)]
      .map((a) => `'${a.replace(/'/g, `'\\''`)}'`)
      .join(' ');
    const parent: ChildProcess = spawn('sh', ['-c', `${quoted} >/dev/null 2>&1 & echo $!; exec sleep 120`], {
      cwd: ROOT,
      env: { ...process.env, ...cliEnv() },
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    try {
      const pid = Number(
        await new Promise<string>((resolve) =>
          parent.stdout!.once('data', (d: Buffer) => resolve(String(d))),
        ),
      );
      await waitFor(() => proxy.holding, 'the held create');
      process.kill(pid, 'SIGKILL');
      await waitFor(() => processState(pid) === 'Z', 'the killed CLI to become a zombie');
      // signal 0 still answers for it: a pid check alone would call it alive
      expect(() => process.kill(pid, 0)).not.toThrow();
      expect(existsSync(path.join(dataDir, 'journal.sqlite'))).toBe(true);
      await resumeFindsOneVerifiedJob(url, proxy, dataDir, key);
      expect(processState(pid)).toBe('Z');
    } finally {
      parent.kill('SIGKILL');
    }
  });
});

describe('a 409 answering the replay after an unknown outcome', () => {
  it('is read as "the latest state": the same key and body are replayed after a back-off until the job is answered', async () => {
    const busy = { status: 409, code: 'idempotency_conflict', retryAfter: 1 };
    const { proxy, url } = await proxyWith((n) =>
      n === 1
        ? 'drop'
        : n <= 3
          ? { ...busy, message: 'A request with this key is already being processed.' }
          : 'pass',
    );
    const dataDir = tempFolder('fw-lease-409-');
    const key = 'replay-409-then-job';
    const run = await runFramewright(videoArgs(url, dataDir, key), cliEnv());
    expect(run.code, run.stderr + run.stdout).toBe(0);
    const summary = JSON.parse(run.stdout.trim().split('\n').pop()!) as {
      state: string;
      idempotencyKey: string;
      outputs: { path: string; sha256: string; verified: boolean }[];
    };
    expect(summary).toMatchObject({ state: 'succeeded', idempotencyKey: key });
    // drop, 409, 409, then the replay that the service answered with the job it made first
    expect(proxy.creates).toBe(4);
    expect((await createdPerKey(sim.baseUrl, sim.token)).get(key)).toBe(1);
    expect(summary.outputs[0]!.verified).toBe(true);
    expect(createHash('sha256').update(readFileSync(summary.outputs[0]!.path)).digest('hex')).toBe(
      summary.outputs[0]!.sha256,
    );
  });

  it('still answered 409 when the run gives up: the intent stays resumable and the next resume finds the job', async () => {
    let conflicts = true;
    const { proxy, url } = await proxyWith((n) =>
      n === 1 ? 'drop' : conflicts ? { status: 409, code: 'idempotency_conflict', retryAfter: 1 } : 'pass',
    );
    const dataDir = tempFolder('fw-lease-409-resume-');
    const key = 'replay-409-resume';
    // a short wait limit: the run stops replaying, and says the work is still pending
    const args = videoArgs(url, dataDir, key).map((a, i, all) => (all[i - 1] === '--timeout' ? '4' : a));
    const run = await runFramewright(args, cliEnv());
    expect(run.code).not.toBe(0);
    expect(journalRow(dataDir, key)).toMatchObject({ state: 'unknown' });
    expect(proxy.creates).toBeGreaterThanOrEqual(2);
    conflicts = false;
    await resumeFindsOneVerifiedJob(url, proxy, dataDir, key);
  });
});

describe('a result the service announced without sha256 or byteSize', () => {
  it('is "verified": false in --json, with the reason, as the studio says "not verifiable"', async () => {
    // a legacy answer: the finished job lists its result as `assets[]` with only `assetId`
    const { url } = await proxyWith(
      () => 'pass',
      (pathname, body) => {
        if (!/\/jobs\//.test(pathname) || body.status !== 'succeeded') return body;
        const outputs = (body.outputs ?? []) as { assetId: string }[];
        const { outputs: _outputs, ...rest } = body;
        return { ...rest, assets: outputs.map((o) => ({ assetId: o.assetId })) };
      },
    );
    const dataDir = tempFolder('fw-legacy-');
    const run = await runFramewright(videoArgs(url, dataDir, 'legacy-answer'), cliEnv());
    expect(run.code, run.stderr + run.stdout).toBe(0);
    const summary = JSON.parse(run.stdout.trim().split('\n').pop()!) as {
      state: string;
      outputs: { path: string; verified: boolean; verification: string; verificationReason?: string }[];
    };
    expect(summary.state).toBe('succeeded');
    expect(summary.outputs).toHaveLength(1);
    const output = summary.outputs[0]!;
    expect(existsSync(output.path)).toBe(true);
    expect(output).toMatchObject({ verified: false, verification: 'not_verifiable' });
    expect(output.verificationReason).toMatch(/no sha256 and byte size/);
  });
});
