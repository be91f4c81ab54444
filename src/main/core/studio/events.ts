import type { EventHub } from '../events/event-hub.js';
import type { EngineChange } from '../jobs/job-engine.js';
import type { Logger } from '../logging/logger.js';
import type { JobViews } from '../library/job-views.js';

const nul = <T>(value: T | undefined): T | null => (value === undefined ? null : value);

/**
 * The engine's changes as the bridge's pushed events: `jobs.changed`, `downloads.progress`,
 * `intents.changed`. A failure to send is only logged (the engine's work never depends on it).
 */
export function engineChangeForwarder(d: {
  events: EventHub;
  views: Pick<JobViews, 'jobView'>;
  logger: Logger;
}): (change: EngineChange) => void {
  return (change) => {
    try {
      if (change.type === 'job') d.events.emit('jobs.changed', d.views.jobView(change.job));
      else if (change.type === 'download')
        d.events.emit('downloads.progress', {
          jobRowId: change.progress.jobRowId,
          outputId: change.progress.outputId,
          receivedBytes: change.progress.receivedBytes,
          totalBytes: nul(change.progress.totalBytes),
        });
      else
        d.events.emit('intents.changed', {
          idempotencyKey: change.intent.idempotencyKey,
          draftId: nul(change.intent.draftId),
          state: change.intent.state,
          errorCode: nul(change.intent.errorCode),
          errorMessage: nul(change.intent.errorMessage),
        });
    } catch (error) {
      d.logger.warn('studio event not sent', { error });
    }
  };
}

/** Sends a job's current view as `jobs.changed` (e.g. once its variation group is recorded); only logged on failure. */
export function forwardJobView(
  events: EventHub,
  views: Pick<JobViews, 'jobView' | 'requireJob'>,
  logger: Logger,
  jobRowId: number,
): void {
  try {
    events.emit('jobs.changed', views.jobView(views.requireJob(jobRowId)));
  } catch (error) {
    logger.warn('studio event not sent', { error });
  }
}
