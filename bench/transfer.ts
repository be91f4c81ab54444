/**
 * Transfers of a 128 MiB file against the command-line tools, on the same file and the same
 * server (bench/bench-server.ts, in its own process), in alternating rounds:
 *  - upload: Framewright's streamed multipart upload vs `curl -F` (goal ≥ 1.0× curl's speed), and
 *    its resident memory growth (goal ≤ 32 MiB);
 *  - download and verify: Framewright's download (hashing while it writes, fsynced, renamed into
 *    the library) vs `curl` then `sha256sum` (goal ≥ 1.1×).
 */
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream, existsSync, mkdirSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { downloadOutputs } from '../src/main/core/jobs/download-outputs.js';
import { openJournal } from '../src/main/core/journal/open-journal.js';
import { PublicApiClient } from '../src/main/core/api-clients/public-api-client.js';
import { ROUNDS, median, run, spread, timeAsync, type BenchRow } from './measure.js';

const WORK = path.resolve(import.meta.dirname, '.work');
const SIZE = 128 * 1024 * 1024;
const MIB = 1024 * 1024;

async function makeFile(): Promise<{ file: string; sha256: string }> {
  mkdirSync(WORK, { recursive: true });
  const file = path.join(WORK, 'bench-128MiB.mp4');
  if (!existsSync(file) || statSync(file).size !== SIZE) {
    async function* chunks() {
      for (let written = 0; written < SIZE; written += MIB) yield randomBytes(MIB);
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
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const base = await new Promise<string>((resolve, reject) => {
    child.stdout.once('data', (d: Buffer) => resolve(d.toString().trim()));
    child.once('exit', (code) => reject(new Error(`bench server exited with ${code}`)));
  });
  return { base, close: () => child.kill() };
}

function benchClient(base: string): PublicApiClient {
  return new PublicApiClient({
    profileId: 'bench',
    kind: 'personal',
    baseUrl: base,
    secret: async () => 'bench-key',
  });
}

async function benchUpload(base: string, file: string): Promise<BenchRow[]> {
  const client = benchClient(base);
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
  for (let warm = 0; warm < 3; warm += 1) {
    await run('curl', curlArgs);
    await upload();
  }
  const ours: number[] = [];
  const curl: number[] = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    curl.push(await timeAsync(() => run('curl', curlArgs)));
    ours.push(await timeAsync(upload));
  }
  const ratio = median(curl) / median(ours);
  const mibPerSecond = SIZE / MIB / (median(ours) / 1000);

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
  const growthMiB = peakGrowth / MIB;
  return [
    {
      name: 'upload 128 MiB vs curl -F',
      ratio,
      goal: 'goal ≥ 1.00',
      ok: ratio >= 1,
      detail: `ours ${median(ours).toFixed(0)} ms (${mibPerSecond.toFixed(0)} MiB/s, ${spread(ours)}), curl ${median(curl).toFixed(0)} ms (${spread(curl)})`,
    },
    {
      name: 'upload resident memory growth',
      ratio: growthMiB / 32,
      goal: 'goal ≤ 1.00 of 32 MiB',
      ok: growthMiB <= 32,
      detail: `${growthMiB.toFixed(1)} MiB peak growth while uploading 128 MiB`,
    },
  ];
}

async function benchDownload(base: string, sha256: string): Promise<BenchRow[]> {
  const client = benchClient(base);
  const contentUrl = `${base}/assets/r/content?model=bench`;
  const ours: number[] = [];
  const baseline: number[] = [];
  const curlThenSha = async (target: string) => {
    await run('curl', ['-s', '-S', '-o', target, '-H', 'Authorization: Bearer bench-key', contentUrl]);
    return (await run('sha256sum', [target])).split(' ')[0];
  };
  // one warm-up round of each, not counted
  for (let round = -1; round < ROUNDS; round += 1) {
    const target = path.join(WORK, 'curl-download.mp4');
    let sum: string | undefined;
    const curlMs = await timeAsync(async () => (sum = await curlThenSha(target)));
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
      outputs: [{ assetId: 'r', contentUrl, sha256, byteSize: SIZE, mimeType: 'video/mp4' }],
    });
    const oursMs = await timeAsync(() => downloadOutputs(journal, client, job, library));
    const verified = journal.outputs.listForJob(job.id)[0]!;
    if (verified.downloadState !== 'verified') throw new Error('not verified');
    journal.close();
    rmSync(library, { recursive: true, force: true });
    if (round >= 0) {
      baseline.push(curlMs);
      ours.push(oursMs);
    }
  }
  const ratio = median(baseline) / median(ours);
  return [
    {
      name: 'download and verify 128 MiB vs curl then sha256sum',
      ratio,
      goal: 'goal ≥ 1.10',
      ok: ratio >= 1.1,
      detail: `ours ${median(ours).toFixed(0)} ms (${spread(ours)}, fsynced), curl+sha256sum ${median(baseline).toFixed(0)} ms (${spread(baseline)})`,
    },
  ];
}

export async function benchTransfers(): Promise<BenchRow[]> {
  const { file, sha256 } = await makeFile();
  const server = await startServer(file);
  try {
    return [...(await benchUpload(server.base, file)), ...(await benchDownload(server.base, sha256))];
  } finally {
    server.close();
  }
}
