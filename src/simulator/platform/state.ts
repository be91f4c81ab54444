import path from 'node:path';
import type { SimClock } from '../clock.js';
import type { StoredJob } from '../jobs/job-store.js';
import { DebugStore } from './debug/debug-store.js';
import { CliSessionStore } from './developer/cli-session-store.js';
import { DeveloperStore } from './developer/developer-store.js';
import { EventStore } from './event-store.js';
import { ExportStore } from './export-store.js';
import { GrantStore } from './grant-store.js';
import { PlatformLog } from './platform-log.js';
import { RuntimeJobStore } from './runtime-job-store.js';
import { PlatformSecrets } from './secrets.js';
import { SessionStore } from './session-store.js';

/** The platform surfaces' state: sessions, runtime jobs, their events (and, with a data folder, its log). */
export interface PlatformState {
  sessions: SessionStore;
  runtimeJobs: RuntimeJobStore;
  events: EventStore;
  exports: ExportStore;
  grants: GrantStore;
  /** CLI sessions of online debugging (issued by section E's pairing, used by B, D and the relay). */
  cliSessions: CliSessionStore;
  /** The developer control plane (section E): applications, versions, requests, imports, pairing. */
  developer: DeveloperStore;
  /** Section D: debug grants, receivers, launch codes, derived sessions, providers' withdrawals. */
  debug: DebugStore;
  /** `startSimulator({businessTargets})`: business base addresses by appKey (the relay's production targets). */
  businessTargets?: Readonly<Record<string, string>>;
  log?: PlatformLog;
  /** Called on every change of a simulator job: a runtime job's change becomes an event. */
  jobChanged(job: StoredJob): void;
}

/** File of the platform state under `--data-dir`. */
export const PLATFORM_STATE_FILE = 'platform-state.jsonl';

/** Creates the platform state, restored from `dataDir` (and the log compacted) when one is given. */
export function createPlatformState(clock: SimClock, dataDir: string | undefined): PlatformState {
  const log = dataDir ? new PlatformLog(path.join(dataDir, PLATFORM_STATE_FILE)) : undefined;
  // the key the stores derive the secrets they answer again from (only their hashes are logged)
  const secrets = new PlatformSecrets(dataDir);
  const sessions = new SessionStore(clock, log, secrets);
  const runtimeJobs = new RuntimeJobStore(log, secrets);
  const events = new EventStore(log);
  const exports = new ExportStore(log);
  const grants = new GrantStore(log);
  const cliSessions = new CliSessionStore(clock, log, secrets);
  const developer = new DeveloperStore(clock, log);
  // launches open the application's active version (a publish applied by a reviewer changes it)
  sessions.activeVersionOf = (app) => developer.activeVersionIdOf(app.appKey) ?? app.appVersionId;
  const debug = new DebugStore(clock, log);
  if (log) {
    const records = log.read();
    sessions.restore(records);
    runtimeJobs.restore(records);
    events.restore(records);
    exports.restore(records);
    grants.restore(records);
    cliSessions.restore(records);
    developer.restore(records);
    debug.restore(records);
    log.compact([
      ...debug.snapshot(),
      ...grants.snapshot(),
      ...cliSessions.snapshot(),
      ...sessions.snapshot(),
      ...runtimeJobs.snapshot(),
      ...events.snapshot(),
      ...exports.snapshot(),
      ...developer.snapshot(),
    ]);
  }
  const jobChanged = (job: StoredJob) => {
    const runtime = runtimeJobs.get(job.jobId);
    if (runtime) events.record(runtime, job, clock.nowMs());
  };
  return { sessions, runtimeJobs, events, exports, grants, cliSessions, developer, debug, log, jobChanged };
}
