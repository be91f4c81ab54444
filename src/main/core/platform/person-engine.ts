import path from 'node:path';
import { PRESENCE_DIR } from '../process/process-presence.js';
import { forgetRecoveryRefsOnFinish } from './recovery-ref-cleanup.js';
import { AppError } from '../errors.js';
import { JobWakeups } from './job-events/job-wakeups.js';
import { JobEngine, type JobEngineOptions } from '../jobs/job-engine.js';
import { runtimeTransport } from '../jobs/runtime-transport.js';
import type { Journal } from '../journal/open-journal.js';
import type { Logger } from '../logging/logger.js';
import type { RuntimeApiClient } from '../api-clients/runtime/runtime-api-client.js';
import type { RecoveryRefs } from '../secrets/recovery-refs.js';
import { RUNTIME_PROFILE_ID } from '../backends/platform-runtime/runtime-create.js';
import type { PersonSessions } from './person-sessions.js';

/**
 * One person's job engine on the platform: its transport is the deployed runtime, as the person's
 * session (or, without one, each job's recovery reference, forgotten once the job is finished
 * with); its polls wake on the person's job events.
 */
export function personEngine(d: {
  journal: Journal;
  /** The person's folder (the engine's lease presence lives there). */
  dir: string;
  libraryDir: string;
  runtime: RuntimeApiClient;
  sessions: Pick<PersonSessions, 'source'>;
  recoveryRefs: RecoveryRefs;
  onChange: NonNullable<JobEngineOptions['onChange']>;
  logger: Logger;
  timing?: Partial<Omit<JobEngineOptions, 'journal' | 'transportFor' | 'libraryDir' | 'onChange'>>;
}): { engine: JobEngine; wakeups: JobWakeups } {
  const forgetOnFinish = forgetRecoveryRefsOnFinish(d.recoveryRefs, RUNTIME_PROFILE_ID, (error) =>
    d.logger.warn('recovery reference not forgotten', { error }),
  );
  const wakeups = new JobWakeups();
  const transport = runtimeTransport({
    client: d.runtime,
    sessions: d.sessions.source,
    recoveryRefs: d.recoveryRefs,
  });
  const engine = new JobEngine({
    journal: d.journal,
    libraryDir: d.libraryDir,
    transportFor: async (profileId) => {
      if (profileId !== RUNTIME_PROFILE_ID)
        throw new AppError('platform.not_here', 'Only the platform runtime runs jobs here.');
      return transport;
    },
    pollWake: wakeups,
    onChange: (change) => {
      d.onChange(change);
      forgetOnFinish(change);
    },
    ...d.timing,
    lease: { presenceDir: path.join(d.dir, PRESENCE_DIR), ...d.timing?.lease },
  });
  return { engine, wakeups };
}
