import { verificationOf } from '../../main/core/jobs/verification.js';
import type { EngineChange } from '../../main/core/jobs/job-engine.js';
import type { JobViews } from '../../main/core/library/job-views.js';
import type { UploadState } from '../../main/core/creating/submit-video.js';
import type { JobProgress, JobProgressChange } from './job-progress.js';

const INTENT_STAGES: Record<string, string> = {
  pending_create: 'create',
  unknown: 'create (answer unknown, sending again)',
  accepted: 'accepted',
  rejected: 'refused',
  abandoned: 'abandoned',
};

export interface FollowOptions {
  /** The line of the job created under `key` (undefined: not this command's job, not shown). */
  labelFor(key: string, jobId?: string): string | undefined;
  /**
   * End a job's line when the engine reports it finished (failed or canceled, or succeeded with
   * every output stored); for commands that learn their results only at the end (`resume`).
   */
  endOnFinish?: boolean;
}

/**
 * The job engine's changes (`EngineChange`: intents, job polls with their next poll, download
 * bytes) as `JobProgress` updates, one line per job. Give the result to `CliCore.onEngineChange`.
 */
export function followEngine(
  progress: JobProgress,
  jobs: Pick<JobViews, 'keyOfJobRow'>,
  options: FollowOptions,
): (change: EngineChange) => void {
  const keyOfRow = new Map<number, string>();
  const labelOfKey = new Map<string, string>();
  const downloads = new Map<number, Map<number, { received: number; total: number | null }>>();
  const ended = new Set<string>();

  const label = (key: string | undefined, jobId?: string): string | undefined => {
    if (key === undefined) return undefined;
    let known = labelOfKey.get(key);
    if (known === undefined) {
      known = options.labelFor(key, jobId);
      if (known !== undefined) labelOfKey.set(key, known);
    }
    return known !== undefined && !ended.has(known) ? known : undefined;
  };
  const rowKey = (jobRowId: number): string | undefined => {
    let key = keyOfRow.get(jobRowId);
    if (key === undefined) {
      key = jobs.keyOfJobRow(jobRowId);
      if (key !== undefined) keyOfRow.set(jobRowId, key);
    }
    return key;
  };

  return (change) => {
    if (change.type === 'intent') {
      const line = label(change.intent.idempotencyKey);
      if (line) progress.update(line, { stage: INTENT_STAGES[change.intent.state] ?? change.intent.state });
      return;
    }
    if (change.type === 'download') {
      const { jobRowId, outputId, receivedBytes, totalBytes } = change.progress;
      const line = label(rowKey(jobRowId));
      if (!line) return;
      const outputs =
        downloads.get(jobRowId) ?? new Map<number, { received: number; total: number | null }>();
      downloads.set(jobRowId, outputs);
      outputs.set(outputId, { received: receivedBytes, total: totalBytes ?? null });
      const all = [...outputs.values()];
      const total = all.every((o) => o.total !== null) ? all.reduce((n, o) => n + o.total!, 0) : null;
      progress.update(line, {
        stage: 'download',
        download: { bytes: all.reduce((n, o) => n + o.received, 0), totalBytes: total },
      });
      return;
    }
    const { job } = change;
    const line = label(rowKey(job.id), job.jobId);
    if (!line) return;
    const stored = job.outputs.length > 0 && job.outputs.every((o) => o.downloadState === 'verified');
    const checked = stored && job.outputs.every((o) => verificationOf(o) === 'verified');
    progress.update(line, {
      jobId: job.jobId,
      status: job.status,
      stage: stored ? (checked ? 'stored and verified' : 'stored, not verifiable') : (job.stage ?? null),
      nextPollAt: job.nextPollAt ?? null,
    });
    const finished =
      job.status === 'failed' || job.status === 'canceled' || (job.status === 'succeeded' && stored);
    if (options.endOnFinish && finished) {
      progress.done(line);
      ended.add(line);
    }
  };
}

/** An input's upload (`submitVideo`'s `onUpload`) as a progress change: the step, and its bytes. */
export function uploadChange(upload: UploadState): JobProgressChange {
  return {
    stage: `upload ${upload.fileName}${upload.state === 'reused' ? ' (reused)' : ''}`,
    ...(upload.sentBytes !== null
      ? { upload: { bytes: upload.sentBytes, totalBytes: upload.totalBytes } }
      : {}),
  };
}
