import { appendFileSync, existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import type { PromptOptimizationResponse } from '../shared/api/prompt-optimization.js';
import type { StoredAsset } from './assets/asset-store.js';
import type { SimulatorState } from './context.js';
import type { IdempotencyRecord } from './idempotency.js';
import type { StoredJob } from './jobs/job-store.js';

type PersistedJob = Omit<StoredJob, 'outputs'> & { outputIds: string[] };

type LogRecord =
  | { t: 'asset'; v: StoredAsset }
  | { t: 'job'; v: PersistedJob }
  | { t: 'idem'; v: IdempotencyRecord }
  | { t: 'opt'; v: PromptOptimizationResponse }
  | { t: 'clock'; v: number };

/**
 * State of a simulator started with a data folder (assets, jobs, optimizations, idempotency
 * records), kept as an append-only JSON-lines log so that a simulator killed at any moment and
 * started again on the same folder still knows every accepted job and key. Each change is one
 * synchronous append; the log is compacted at start.
 */
export class StateLog {
  constructor(private readonly file: string) {}

  private write(record: LogRecord): void {
    appendFileSync(this.file, JSON.stringify(record) + '\n');
  }

  asset(asset: StoredAsset): void {
    this.write({ t: 'asset', v: asset });
  }

  job(job: StoredJob): void {
    const { outputs, ...rest } = job;
    this.write({ t: 'job', v: { ...rest, outputIds: outputs.map((o) => o.assetId) } });
  }

  idempotency(record: IdempotencyRecord): void {
    this.write({ t: 'idem', v: record });
  }

  optimization(response: PromptOptimizationResponse): void {
    this.write({ t: 'opt', v: response });
  }

  clock(offsetSeconds: number): void {
    this.write({ t: 'clock', v: offsetSeconds });
  }

  /** Replays the log into the (empty) stores; returns the jobs that were still in progress. */
  restore(state: SimulatorState): StoredJob[] {
    if (!existsSync(this.file)) return [];
    const assets = new Map<string, StoredAsset>();
    const jobs = new Map<string, PersistedJob>();
    const idem: IdempotencyRecord[] = [];
    const opts = new Map<string, PromptOptimizationResponse>();
    let clockOffset = 0;
    for (const line of readFileSync(this.file, 'utf8').split('\n')) {
      if (!line.trim()) continue;
      let record: LogRecord;
      try {
        record = JSON.parse(line) as LogRecord;
      } catch {
        continue; // a line cut short by a kill mid-write
      }
      if (record.t === 'asset') assets.set(record.v.assetId, record.v);
      else if (record.t === 'job') jobs.set(record.v.jobId, record.v);
      else if (record.t === 'idem') idem.push(record.v);
      else if (record.t === 'opt') opts.set(record.v.optimization.optimizationId, record.v);
      else if (record.t === 'clock') clockOffset = record.v;
    }
    state.clock.advance(clockOffset - state.clock.offsetSeconds);
    for (const asset of assets.values()) state.assets.add(asset);
    const pending: StoredJob[] = [];
    for (const { outputIds, ...job } of jobs.values()) {
      const restored: StoredJob = {
        ...job,
        outputs: outputIds.map((id) => assets.get(id)).filter((a): a is StoredAsset => Boolean(a)),
      };
      state.jobs.add(restored);
      if (restored.status === 'queued' || restored.status === 'running') pending.push(restored);
    }
    for (const record of idem) state.idempotency.restore(record);
    for (const [id, response] of opts) state.optimizations.set(id, response);
    this.compact(state);
    return pending;
  }

  /** Rewrites the log with one record per live object. */
  compact(state: SimulatorState): void {
    const tmp = `${this.file}.tmp`;
    writeFileSync(tmp, '');
    const lines: string[] = [];
    const add = (record: LogRecord) => lines.push(JSON.stringify(record));
    for (const asset of state.assets.all()) add({ t: 'asset', v: asset });
    for (const job of state.jobs.all()) {
      const { outputs, ...rest } = job;
      add({ t: 'job', v: { ...rest, outputIds: outputs.map((o) => o.assetId) } });
    }
    for (const record of state.idempotency.all()) add({ t: 'idem', v: record });
    for (const response of state.optimizations.values()) add({ t: 'opt', v: response });
    add({ t: 'clock', v: state.clock.offsetSeconds });
    writeFileSync(tmp, lines.join('\n') + '\n');
    renameSync(tmp, this.file);
  }
}
