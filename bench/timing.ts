/** Timing helpers for the benchmarks: medians of repeated runs. */

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** The median wall time of `runs` synchronous runs of `work`, in ms. */
export function timeSync(work: () => unknown, runs: number): number {
  const samples: number[] = [];
  for (let i = 0; i < runs; i += 1) {
    const start = process.hrtime.bigint();
    work();
    samples.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  return median(samples);
}
