import type { MediaJobAnswer as MediaJob } from '../../../shared/api/media-jobs.js';
import type { Acceptance, JobSnapshot } from '../journal/jobs-repository.js';
import type { AnnouncedOutput } from '../journal/outputs-repository.js';

const epoch = (value: string | undefined): number | undefined => {
  if (!value) return undefined;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? undefined : ms;
};

/** The results of a job: `outputs[]`, or the deprecated `assets[]` only when `outputs` is absent. */
export function announcedOutputs(job: MediaJob): {
  outputs?: AnnouncedOutput[];
  outputsSource?: 'outputs' | 'assets';
} {
  const source = job.outputs !== undefined ? 'outputs' : job.assets !== undefined ? 'assets' : undefined;
  if (!source) return {};
  const list = (source === 'outputs' ? job.outputs : job.assets) ?? [];
  return {
    outputsSource: source,
    outputs: list.map((item) => ({
      assetId: item.assetId,
      contentUrl: item.contentUrl,
      sha256: item.sha256,
      byteSize: item.byteSize,
      mimeType: item.mimeType,
      kind: item.kind,
    })),
  };
}

/**
 * What the journal keeps of a creation or poll response. Status decides; HTTP status and stage do
 * not. The answer's `Retry-After` header, when given, is the poll interval the server asked for
 * (it wins over the body's hint).
 */
export function snapshotOf(job: MediaJob, retryAfterHeaderSeconds?: number): JobSnapshot {
  return {
    status: job.status,
    stage: job.stage,
    stageMessage: job.stageMessage,
    serverCreatedAt: epoch(job.createdAt),
    startedAt: epoch(job.startedAt),
    completedAt: epoch(job.completedAt),
    elapsedSeconds: job.elapsedSeconds,
    queuedSeconds: job.queuedSeconds,
    runningSeconds: job.runningSeconds,
    refreshAfterSeconds: job.refreshAfterSeconds,
    retryAfterSeconds:
      retryAfterHeaderSeconds !== undefined ? Math.ceil(retryAfterHeaderSeconds) : job.retryAfterSeconds,
    effectiveSpec: job.effectiveMediaSpec,
    errorCode: job.errorCode,
    errorMessage: job.errorMessage,
    statusCode: job.statusCode,
    retryable: job.retryable,
    body: job,
    ...(job.status === 'succeeded' ? announcedOutputs(job) : {}),
  };
}

export function acceptanceOf(job: MediaJob, retryAfterHeaderSeconds?: number): Acceptance {
  return {
    ...snapshotOf(job, retryAfterHeaderSeconds),
    jobId: job.jobId,
    requestId: job.requestId,
    jobUrl: job.jobUrl,
  };
}
