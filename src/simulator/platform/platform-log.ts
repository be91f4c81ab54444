import { appendFileSync, existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';

/** One change of the platform surfaces' state, keyed by the kind of object (`t`) it replaces. */
export interface PlatformLogRecord {
  t: string;
  /** Stable id of the object within its kind; a later record with the same (t, id) replaces it. */
  id: string;
  v: unknown;
}

/**
 * The platform surfaces' state under `--data-dir`, in `DIR/platform-state.jsonl`: one appended
 * line per change (synchronous, so a simulator killed at any moment keeps every answered
 * change), replayed and compacted at start. Kept apart from the public surfaces' `state.jsonl`.
 */
export class PlatformLog {
  constructor(private readonly file: string) {}

  append(t: string, id: string, v: unknown): void {
    appendFileSync(this.file, JSON.stringify({ t, id, v } satisfies PlatformLogRecord) + '\n');
  }

  /**
   * Appends several records in one write, for changes that stand or fall together (a consumed
   * launch code and its session): a kill never keeps one without the other.
   */
  appendMany(records: readonly PlatformLogRecord[]): void {
    if (records.length > 0) appendFileSync(this.file, records.map((r) => JSON.stringify(r) + '\n').join(''));
  }

  /** The latest record of every (kind, id), in first-seen order; lines cut short by a kill are skipped. */
  read(): PlatformLogRecord[] {
    if (!existsSync(this.file)) return [];
    const latest = new Map<string, PlatformLogRecord>();
    for (const line of readFileSync(this.file, 'utf8').split('\n')) {
      if (!line.trim()) continue;
      try {
        const record = JSON.parse(line) as PlatformLogRecord;
        if (typeof record.t === 'string' && typeof record.id === 'string')
          latest.set(`${record.t}\u0000${record.id}`, record);
      } catch {
        // a line cut short by a kill mid-write
      }
    }
    return [...latest.values()];
  }

  /** Rewrites the log with exactly these records. */
  compact(records: readonly PlatformLogRecord[]): void {
    const tmp = `${this.file}.tmp`;
    writeFileSync(tmp, records.map((r) => JSON.stringify(r) + '\n').join(''));
    renameSync(tmp, this.file);
  }
}
