import path from 'node:path';
import type { SimClock } from '../clock.js';
import { PlatformLog } from './platform-log.js';
import { SessionStore } from './session-store.js';

/** The platform surfaces' state: sessions (and, with a data folder, its log). */
export interface PlatformState {
  sessions: SessionStore;
  log?: PlatformLog;
}

/** File of the platform state under `--data-dir`. */
export const PLATFORM_STATE_FILE = 'platform-state.jsonl';

/** Creates the platform state, restored from `dataDir` (and the log compacted) when one is given. */
export function createPlatformState(clock: SimClock, dataDir: string | undefined): PlatformState {
  const log = dataDir ? new PlatformLog(path.join(dataDir, PLATFORM_STATE_FILE)) : undefined;
  const sessions = new SessionStore(clock, log);
  if (log) {
    sessions.restore(log.read());
    log.compact(sessions.snapshot());
  }
  return { sessions, log };
}
