/**
 * What every bench module shares: the row type `npm run bench` prints and writes to its JSON file,
 * and the timing helpers. A bench module exports an async function returning its rows; bench/run.ts
 * lists those functions.
 */
import { spawn } from 'node:child_process';

/** One row of the benchmark table: a ratio against a baseline measured in the same run. */
export interface BenchRow {
  name: string;
  ratio: number;
  goal: string;
  ok: boolean;
  detail: string;
}

/** Produces one or more rows (bench/run.ts runs these in order). */
export type BenchRows = () => Promise<BenchRow[]>;

/** Timed rounds per measure (`BENCH_ROUNDS`, default 7); medians are reported. */
export const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/**
 * The nearest-rank percentile of `values` (`p` in 0–100): the smallest value with at least p % of
 * the values at or below it (p50 of an even count is the lower middle). NaN when there are none.
 */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.ceil((Math.min(100, Math.max(0, p)) / 100) * sorted.length);
  return sorted[Math.max(0, rank - 1)]!;
}

/** The smallest and largest of `values`, as "min–max" in whole milliseconds. */
export function spread(values: number[]): string {
  return `${Math.min(...values).toFixed(0)}–${Math.max(...values).toFixed(0)} ms`;
}

/** Runs a command without blocking this process (a benchmark server may live in it); its stdout. */
export function run(command: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d));
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolve(out) : reject(new Error(`${command} exited with ${code}`)),
    );
  });
}

export async function timeAsync(work: () => Promise<unknown>): Promise<number> {
  const start = process.hrtime.bigint();
  await work();
  return Number(process.hrtime.bigint() - start) / 1e6;
}

export function timeSync(work: () => unknown, runs = 50): number {
  const samples: number[] = [];
  for (let i = 0; i < runs; i += 1) {
    const start = process.hrtime.bigint();
    work();
    samples.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  return median(samples);
}
