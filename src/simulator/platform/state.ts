import path from 'node:path';
import type { SimClock } from '../clock.js';
import { PlatformLog } from './platform-log.js';
import { RuntimeJobStore } from './runtime-job-store.js';
import { SessionStore } from './session-store.js';

/** The platform surfaces' state: sessions, runtime jobs (and, with a data folder, its log). */
export interface PlatformState {
  sessions: SessionStore;
  runtimeJobs: RuntimeJobStore;
  log?: PlatformLog;
}

/** File of the platform state under `--data-dir`. */
export const PLATFORM_STATE_FILE = 'platform-state.jsonl';

/** Creates the platform state, restored from `dataDir` (and the log compacted) when one is given. */
export function createPlatformState(clock: SimClock, dataDir: string | undefined): PlatformState {
  const log = dataDir ? new PlatformLog(path.join(dataDir, PLATFORM_STATE_FILE)) : undefined;
  const sessions = new SessionStore(clock, log);
  const runtimeJobs = new RuntimeJobStore(log);
  if (log) {
    const records = log.read();
    sessions.restore(records);
    runtimeJobs.restore(records);
    log.compact([...sessions.snapshot(), ...runtimeJobs.snapshot()]);
  }
  return { sessions, runtimeJobs, log };
}
