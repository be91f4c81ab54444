/**
 * `npm run bench`: Framewright's speed and memory targets (issue 16's table), each measured in one
 * run against a baseline on the same machine and printed as a ratio, plus the sizes of the built
 * renderer's chunks. Every figure is also written as JSON to `BENCH_RESULTS` (default
 * `bench/.work/results.json`). `BENCH_ROUNDS` sets the timed rounds per measure (default 7);
 * `BENCH_ONLY=transfer,journal` (or the names as arguments: `npm run bench -- platform`) runs only the
 * named benches.
 *
 * A bench is a function returning rows ({@link BenchRow}); adding one is one line in BENCHES.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { benchCliStart } from './cli-start.js';
import { benchDelivery } from './delivery.js';
import { benchFirstScreen } from './first-screen.js';
import { benchJournal } from './journal.js';
import { ROUNDS, type BenchRow, type BenchRows } from './measure.js';
import { benchPlatform } from './platform.js';
import { benchQueueScrollRows } from './queue-scroll.js';
import { benchSequenceTimelineRows } from './sequence-timeline.js';
import { benchRendererChunks, rendererChunkSizes, type ChunkSize } from './renderer-chunks.js';
import { benchSimulatorRender } from './simulator-render.js';
import { benchTransfers } from './transfer.js';

/** Every bench, in the order it runs: [name for BENCH_ONLY, rows]. */
const BENCHES: [string, BenchRows][] = [
  ['transfer', benchTransfers],
  ['journal', benchJournal],
  ['renderer-chunks', benchRendererChunks],
  ['queue-scroll', benchQueueScrollRows],
  ['sequence-timeline', benchSequenceTimelineRows],
  ['simulator-render', benchSimulatorRender],
  ['cli-start', benchCliStart],
  ['first-screen', benchFirstScreen],
  ['platform', benchPlatform],
  ['delivery', benchDelivery],
];

const RESULTS = process.env.BENCH_RESULTS ?? path.resolve(import.meta.dirname, '.work', 'results.json');

function print(row: BenchRow): void {
  console.log(
    `${row.ok ? '✔' : '✘'} ${row.name}: ratio ${row.ratio.toFixed(2)} (${row.goal}) — ${row.detail}`,
  );
}

async function main() {
  const named = [...(process.env.BENCH_ONLY?.split(',') ?? []), ...process.argv.slice(2)]
    .map((name) => name.trim())
    .filter(Boolean);
  const unknown = named.filter((name) => !BENCHES.some(([known]) => known === name));
  if (unknown.length > 0) {
    console.error(`Unknown bench: ${unknown.join(', ')} (known: ${BENCHES.map(([n]) => n).join(', ')})`);
    process.exitCode = 2;
    return;
  }
  const only = named.length > 0 ? named : undefined;
  const loadAtStart = os.loadavg();
  const load = loadAtStart.map((l) => l.toFixed(2)).join(' ');
  console.log(`Framewright benchmarks (rounds: ${ROUNDS}, medians; load average ${load})\n`);
  const rows: BenchRow[] = [];
  for (const [name, bench] of BENCHES) {
    if (only && !only.includes(name)) continue;
    try {
      for (const row of await bench()) {
        rows.push(row);
        print(row);
      }
    } catch (error) {
      // a bench that cannot run is a failed row, and the others still run
      const row = { name, ratio: NaN, goal: 'ran', ok: false, detail: `did not run: ${String(error)}` };
      rows.push(row);
      print(row);
    }
  }
  let chunks: ChunkSize[] = [];
  try {
    chunks = rendererChunkSizes();
  } catch {
    // no built renderer: the renderer-chunks row already says so
  }
  mkdirSync(path.dirname(RESULTS), { recursive: true });
  writeFileSync(
    RESULTS,
    JSON.stringify(
      {
        date: new Date().toISOString(),
        rounds: ROUNDS,
        machine: { cpus: os.cpus().length, loadAverageAtStart: loadAtStart, node: process.version },
        rows,
        rendererChunks: chunks,
      },
      null,
      2,
    ) + '\n',
  );
  const failed = rows.filter((r) => !r.ok).length;
  console.log(`\n${rows.length - failed} passed, ${failed} failed; figures in ${RESULTS}`);
  process.exitCode = failed === 0 ? 0 : 1;
}

await main();
