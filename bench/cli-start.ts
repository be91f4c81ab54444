/**
 * The CLI's start and the journal's unfinished-work list (issue 16), as rows for `npm run bench`:
 *
 *  1. `framewright --version`, a new process each time, vs `node -e 0` (goal ≤ 2.5×);
 *  2. `framewright jobs --json` on a data folder with 100,000 jobs vs `--version` (goal ≤ 3×);
 *  3. the resume list (`listUnfinished`) at 100,000 jobs vs 1,000 jobs holding the same unfinished
 *     work (goal ≤ 2×: its cost must not grow with finished jobs).
 *
 * The CLI is built first (scripts/build-cli.mjs), so the rows measure what `npm install` ships.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { openJournal, type Journal } from '../src/main/core/journal/open-journal.js';
import { buildCli } from '../scripts/build-cli.mjs';
import { median, timeSync, type BenchRow } from './measure.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const BIN = path.join(ROOT, 'bin', 'framewright.js');
const WORK = path.join(import.meta.dirname, '.work', 'cli-start');

/** Wall time of one process run to its end, in ms; a failed run is an error, not a figure. */
function timeProcess(args: string[]): number {
  const start = process.hrtime.bigint();
  const run = spawnSync(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (run.status !== 0)
    throw new Error(`node ${args.join(' ')} exited with ${run.status}: ${run.stderr.toString().trim()}`);
  return ms;
}

/** Medians of each command, run in turns (so a busy moment of the machine hits them alike). */
function timeInTurns(commands: string[][], rounds: number, warmup = 3): number[] {
  const samples = commands.map((): number[] => []);
  for (let round = 0; round < warmup + rounds; round += 1) {
    commands.forEach((args, i) => {
      const ms = timeProcess(args);
      if (round >= warmup) samples[i]!.push(ms);
    });
  }
  return samples.map(median);
}

/**
 * A journal at `file` holding `finished` succeeded jobs (each with a verified output) and the same
 * unfinished work at any size: 5 unsent intents, 10 running jobs, 5 outputs to download.
 */
export function seedJournal(file: string, finished: number): Journal {
  for (const suffix of ['', '-wal', '-shm']) rmSync(file + suffix, { force: true });
  mkdirSync(path.dirname(file), { recursive: true });
  const journal = openJournal({ path: file });
  journal.profiles.create({
    id: 'bench',
    name: 'bench',
    kind: 'personal',
    baseUrl: 'https://example.invalid/v1',
  });
  const jobs = finished + 15;
  journal.database.exec(`
    WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${jobs + 5})
    INSERT INTO job_intents (id, idempotency_key, profile_id, model, service_kind, canonical_body_json, state,
      created_at, updated_at)
    SELECT i, 'bench-' || i, 'bench', 'h3', 'video_generation', json_object('prompt', 'scene ' || i),
      CASE WHEN i > ${jobs} THEN 'pending_create' ELSE 'accepted' END, 0, 0 FROM n;
    INSERT INTO jobs (id, intent_id, profile_id, model, service_kind, job_id, request_id, status, next_poll_at,
      accepted_at, updated_at)
    SELECT id, id, 'bench', 'h3', 'video_generation', 'job-' || id, 'req-' || id,
      CASE WHEN id % ${Math.floor(jobs / 10)} = 0 AND id <= ${Math.floor(jobs / 10) * 10} THEN 'running'
           ELSE 'succeeded' END, NULL, id, id
    FROM job_intents WHERE id <= ${jobs};
    INSERT INTO outputs (job_row_id, position, source, asset_id, download_state, local_path, sha256, byte_size,
      mime_type, verified_at, created_at, updated_at)
    SELECT id, 0, 'outputs', 'asset-' || id,
      CASE WHEN id % ${Math.floor(jobs / 5)} = 1 AND id < ${Math.floor(jobs / 5) * 5} THEN 'pending' ELSE 'verified' END,
      '/library/' || id || '.mp4', printf('%064d', id), 1000, 'video/mp4', id, id, id
    FROM jobs WHERE status = 'succeeded';
  `);
  return journal;
}

function row(name: string, ratio: number, goalRatio: number, detail: string): BenchRow {
  return { name, ratio, goal: `goal ≤ ${goalRatio.toFixed(2)}×`, ok: ratio <= goalRatio, detail };
}

export async function benchCliStart(options: { rounds?: number } = {}): Promise<BenchRow[]> {
  const rounds = options.rounds ?? 15;
  await buildCli();
  const dataDir = path.join(WORK, 'data-100k');
  rmSync(dataDir, { recursive: true, force: true });
  seedJournal(path.join(dataDir, 'journal.sqlite'), 100_000).close();

  const [node, version, jobs] = timeInTurns(
    [
      ['-e', '0'],
      [BIN, '--version'],
      [BIN, '--data-dir', dataDir, '--json', 'jobs'],
    ],
    rounds,
  ) as [number, number, number];

  const small = seedJournal(path.join(WORK, 'journal-1k.sqlite'), 1_000);
  const large = seedJournal(path.join(WORK, 'journal-100k.sqlite'), 100_000);
  const unfinished = (j: Journal) => {
    const work = j.jobs.listUnfinished();
    return work.intents.length + work.jobsToPoll.length + work.jobsToDownload.length;
  };
  if (unfinished(small) !== unfinished(large)) throw new Error('the two journals differ in unfinished work');
  const resume1k = timeSync(() => unfinished(small), 200);
  const resume100k = timeSync(() => unfinished(large), 200);
  const items = unfinished(large);
  small.close();
  large.close();

  return [
    row(
      '`framewright --version`, cold, vs `node -e 0`',
      version / node,
      2.5,
      `${version.toFixed(0)} ms vs ${node.toFixed(0)} ms (built bundle, ${rounds} rounds, medians)`,
    ),
    row(
      '`framewright jobs --json` with 100,000 jobs vs `--version`',
      jobs / version,
      3,
      `${jobs.toFixed(0)} ms vs ${version.toFixed(0)} ms`,
    ),
    row(
      'the resume list, 100,000 jobs vs 1,000 (same unfinished work)',
      resume100k / resume1k,
      2,
      `${resume100k.toFixed(3)} ms vs ${resume1k.toFixed(3)} ms (${items} unfinished items each)`,
    ),
  ];
}
