/**
 * `npm run bench`: Framewright's speed and memory targets, each measured in one run against a
 * baseline on the same files and the same server, and printed as a ratio.
 *
 *  1. streamed upload of a 128 MiB file: Framewright's client vs `curl -F` (goal ≥ 0.8× curl's
 *     throughput; resident memory growth < 64 MiB);
 *  2. download-and-verify of the same file: Framewright vs `curl` + `sha256sum` (goal ≥ 0.8×);
 *  3. the journal at 100,000 jobs: a page of the queue and the resume list (goal < 50 ms each),
 *     against the same operations at 1,000 jobs;
 *  4. the Queue screen scrolling 10,000 jobs in Chromium: p95 frame gap vs the same page at rest
 *     (goal ≥ 0.5, see bench/queue-scroll.ts).
 */
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream, existsSync, mkdirSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { downloadOutputs } from '../src/main/core/jobs/download-outputs.js';
import { openJournal, type Journal } from '../src/main/core/journal/open-journal.js';
import { PublicApiClient } from '../src/main/core/platform/public-api-client.js';
import { benchCliStart } from './cli-start.js';
import { benchFirstScreen } from './first-screen.js';
import { benchQueueScroll } from './queue-scroll.js';

const WORK = path.resolve(import.meta.dirname, '.work');
const SIZE = 128 * 1024 * 1024;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const results: { name: string; ratio: number; goal: string; ok: boolean; detail: string }[] = [];

function record(name: string, ratio: number, goal: string, ok: boolean, detail: string) {
  results.push({ name, ratio, goal, ok, detail });
  console.log(`${ok ? '✔' : '✘'} ${name}: ratio ${ratio.toFixed(2)} (${goal}) — ${detail}`);
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

async function makeFile(): Promise<{ file: string; sha256: string }> {
  mkdirSync(WORK, { recursive: true });
  const file = path.join(WORK, 'bench-128MiB.mp4');
  if (!existsSync(file) || statSync(file).size !== SIZE) {
    async function* chunks() {
      for (let written = 0; written < SIZE; written += 1024 * 1024) yield randomBytes(1024 * 1024);
    }
    await pipeline(chunks, createWriteStream(file));
  }
  const sha256 = execFileSync('sha256sum', [file]).toString().split(' ')[0]!;
  return { file, sha256 };
}

/** One server for both clients, in its own process so that it shares no CPU or memory with them. */
async function startServer(file: string): Promise<{ base: string; close: () => void }> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(import.meta.dirname, 'bench-server.ts'), file],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const base = await new Promise<string>((resolve, reject) => {
    child.stdout.once('data', (d: Buffer) => resolve(d.toString().trim()));
    child.once('exit', (code) => reject(new Error(`bench server exited with ${code}`)));
  });
  return { base, close: () => child.kill() };
}

/** Runs a command without blocking this process (the benchmark server lives in it). */
function run(command: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d));
    child.on('exit', (code) =>
      code === 0 ? resolve(out) : reject(new Error(`${command} exited with ${code}`)),
    );
  });
}

async function timeCommand(command: string, args: string[]): Promise<number> {
  const start = process.hrtime.bigint();
  await run(command, args);
  return Number(process.hrtime.bigint() - start) / 1e6;
}

async function timeAsync(work: () => Promise<unknown>): Promise<number> {
  const start = process.hrtime.bigint();
  await work();
  return Number(process.hrtime.bigint() - start) / 1e6;
}

async function benchUpload(base: string, file: string) {
  const client = new PublicApiClient({
    profileId: 'bench',
    kind: 'personal',
    baseUrl: base,
    secret: async () => 'bench-key',
  });
  const curlArgs = [
    '-s',
    '-S',
    '-o',
    '/dev/null',
    '-H',
    'Authorization: Bearer bench-key',
    '-F',
    `file=@${file};type=video/mp4`,
    `${base}/assets/input?model=bench`,
  ];
  const upload = () =>
    client.uploadAsset({
      model: 'bench',
      filePath: file,
      fileName: 'bench.mp4',
      mimeType: 'video/mp4',
      field: 'file',
    });
  // warm-up rounds for both (the JIT of this process and of the server, the page cache), not counted
  for (let warm = 0; warm < 6; warm += 1) {
    await timeCommand('curl', curlArgs);
    await upload();
  }
  const ours: number[] = [];
  const curl: number[] = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    curl.push(await timeCommand('curl', curlArgs));
    ours.push(await timeAsync(upload));
  }
  const ratio = median(curl) / median(ours);
  const mib = SIZE / 1024 / 1024 / (median(ours) / 1000);
  record(
    'streamed upload 128 MiB vs curl',
    ratio,
    'goal ≥ 0.80',
    ratio >= 0.8,
    `ours ${median(ours).toFixed(0)} ms (${mib.toFixed(0)} MiB/s), curl ${median(curl).toFixed(0)} ms`,
  );

  // memory, in separate rounds so that sampling does not slow the timed ones
  let peakGrowth = 0;
  for (let round = 0; round < 2; round += 1) {
    global.gc?.();
    const baseline = process.memoryUsage.rss();
    let peak = baseline;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 5);
    await upload();
    clearInterval(sampler);
    peakGrowth = Math.max(peakGrowth, peak - baseline);
  }
  const growthMiB = peakGrowth / 1024 / 1024;
  record(
    'upload resident memory growth',
    growthMiB / 64,
    'goal < 1.00 of 64 MiB',
    growthMiB < 64,
    `${growthMiB.toFixed(1)} MiB peak growth while uploading 128 MiB`,
  );
}

async function benchDownload(base: string, sha256: string) {
  const client = new PublicApiClient({
    profileId: 'bench',
    kind: 'personal',
    baseUrl: base,
    secret: async () => 'bench-key',
  });
  const ours: number[] = [];
  const baseline: number[] = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    const target = path.join(WORK, 'curl-download.mp4');
    const start = process.hrtime.bigint();
    await run('curl', [
      '-s',
      '-S',
      '-o',
      target,
      '-H',
      'Authorization: Bearer bench-key',
      `${base}/assets/r/content?model=bench`,
    ]);
    const sum = (await run('sha256sum', [target])).split(' ')[0];
    baseline.push(Number(process.hrtime.bigint() - start) / 1e6);
    if (sum !== sha256) throw new Error('curl download mismatch');
    rmSync(target);

    const journal = openJournal({ path: ':memory:' });
    const library = path.join(WORK, `library-${round}`);
    rmSync(library, { recursive: true, force: true });
    journal.profiles.create({ id: 'bench', name: 'bench', kind: 'personal', baseUrl: base });
    journal.jobs.recordIntent({
      idempotencyKey: `b${round}`,
      profileId: 'bench',
      model: 'bench',
      serviceKind: 'video_generation',
      body: {},
    });
    const job = journal.jobs.markAccepted(`b${round}`, {
      jobId: `job${round}`,
      requestId: 'r',
      status: 'succeeded',
      outputs: [
        {
          assetId: 'r',
          contentUrl: `${base}/assets/r/content?model=bench`,
          sha256,
          byteSize: SIZE,
          mimeType: 'video/mp4',
        },
      ],
    });
    ours.push(await timeAsync(() => downloadOutputs(journal, client, job, library)));
    const verified = journal.outputs.listForJob(job.id)[0]!;
    if (verified.downloadState !== 'verified') throw new Error('not verified');
    journal.close();
    rmSync(library, { recursive: true, force: true });
  }
  const ratio = median(baseline) / median(ours);
  record(
    'download-and-verify 128 MiB vs curl + sha256sum',
    ratio,
    'goal ≥ 0.80',
    ratio >= 0.8,
    `ours ${median(ours).toFixed(0)} ms, curl+sha256sum ${median(baseline).toFixed(0)} ms`,
  );
}

function seedJournal(count: number): Journal {
  const file = path.join(WORK, `journal-${count}.sqlite`);
  for (const suffix of ['', '-wal', '-shm']) rmSync(file + suffix, { force: true });
  const journal = openJournal({ path: file });
  journal.profiles.create({ id: 'sim', name: 'sim', kind: 'simulator' });
  journal.profiles.create({
    id: 'work',
    name: 'work',
    kind: 'personal',
    baseUrl: 'https://example.invalid/v1',
  });
  journal.database.exec(`
    WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < ${count - 1})
    INSERT INTO job_intents (id, idempotency_key, profile_id, model, service_kind, canonical_body_json, state, created_at, updated_at)
    SELECT i + 1, 'bulk-' || i, CASE i % 2 WHEN 1 THEN 'work' ELSE 'sim' END, 'h3', 'video_generation',
      json_object('prompt', 'scene ' || i), 'accepted', 0, 0 FROM n;
    INSERT INTO jobs (id, intent_id, profile_id, model, service_kind, job_id, request_id, status, accepted_at, updated_at)
    SELECT id, id, profile_id, 'h3', 'video_generation', 'job-' || (id - 1), 'req',
      CASE WHEN (id - 1) % 1000 = 0 THEN 'running' ELSE 'succeeded' END, 0, 0 FROM job_intents;
  `);
  return journal;
}

function timeSync(work: () => unknown, runs = 50): number {
  const samples: number[] = [];
  for (let i = 0; i < runs; i += 1) {
    const start = process.hrtime.bigint();
    work();
    samples.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  return median(samples);
}

function benchJournal() {
  const small = seedJournal(1_000);
  const large = seedJournal(100_000);
  const ops: [string, (j: Journal) => unknown][] = [
    ['list a page of jobs', (j) => j.jobs.listJobs({ limit: 50 })],
    [
      'list a filtered deep page',
      (j) => {
        const first = j.jobs.listJobs({ status: 'succeeded', profileId: 'work', limit: 50 });
        return j.jobs.listJobs({
          status: 'succeeded',
          profileId: 'work',
          limit: 50,
          cursor: first.nextCursor,
        });
      },
    ],
    ['list unfinished work (resume)', (j) => j.jobs.listUnfinished()],
  ];
  for (const [name, op] of ops) {
    const at1k = timeSync(() => op(small));
    const at100k = timeSync(() => op(large));
    record(
      `journal at 100,000 jobs: ${name}`,
      at100k / 50,
      'goal < 1.00 of 50 ms',
      at100k < 50,
      `${at100k.toFixed(2)} ms at 100,000 (${at1k.toFixed(2)} ms at 1,000: ${(at100k / Math.max(at1k, 0.001)).toFixed(1)}×)`,
    );
  }
  small.close();
  large.close();
}

async function main() {
  console.log(`Framewright benchmarks (${ROUNDS} rounds, medians)\n`);
  const { file, sha256 } = await makeFile();
  const server = await startServer(file);
  try {
    await benchUpload(server.base, file);
    await benchDownload(server.base, sha256);
  } finally {
    server.close();
  }
  benchJournal();
  for (const row of await benchCliStart()) record(row.name, row.ratio, row.goal, row.ok, row.detail);
  const queue = await benchQueueScroll();
  record(
    'queue scroll, 10,000 jobs (rest / scrolling p95 frame gap)',
    queue.ratio,
    'goal ≥ 0.5',
    queue.ratio >= 0.5,
    queue.detail,
  );
  for (const row of await benchFirstScreen()) record(row.name, row.ratio, row.goal, row.ok, row.detail);
  const failed = results.filter((r) => !r.ok).length;
  console.log(`\n${results.length - failed} passed, ${failed} failed`);
  process.exitCode = failed === 0 ? 0 : 1;
}

await main();
