import type { EffectiveMediaSpec, MediaJob, MediaJobStatus } from '../../shared/api/media-jobs.js';
import { toResultAsset, type StoredAsset } from '../assets/asset-store.js';
import { iso } from '../clock.js';
import type { RenderTask } from './render-tasks.js';

export interface JobFailure {
  errorCode: string;
  errorMessage: string;
  statusCode: number;
  retryable: boolean;
}

export interface StoredJob {
  jobId: string;
  identityId: string;
  model: string;
  serviceKind: string;
  object: string;
  requestId: string;
  clientRequestId?: string;
  status: MediaJobStatus;
  stage: string;
  stageMessage: string;
  createdAtMs: number;
  startedAtMs?: number;
  completedAtMs?: number;
  effectiveMediaSpec?: EffectiveMediaSpec;
  outputs: StoredAsset[];
  failure?: JobFailure;
  /** Suggested poll interval in seconds. */
  pollSeconds: number;
  /** Pacing profile (see job-runner.ts). */
  pacing: 'video' | 'image' | 'audio';
  /** What the job renders. */
  task: RenderTask;
  /** Stage names shown while running. */
  stages?: { stage: string; message: string }[];
  /** A failure scripted by a scenario (job_failed, job_failed_retryable), applied when running ends. */
  scriptedFailure?: JobFailure;
}

/** Jobs, each visible only to the identity and model that created it. */
export class JobStore {
  private readonly jobs = new Map<string, StoredJob>();

  add(job: StoredJob): StoredJob {
    this.jobs.set(job.jobId, job);
    return job;
  }

  getOwned(jobId: string, identityId: string, model: string): StoredJob | undefined {
    const job = this.jobs.get(jobId);
    if (!job || job.identityId !== identityId || job.model !== model) return undefined;
    return job;
  }

  get(jobId: string): StoredJob | undefined {
    return this.jobs.get(jobId);
  }

  get size(): number {
    return this.jobs.size;
  }

  all(): StoredJob[] {
    return [...this.jobs.values()];
  }
}

export function jobUrl(baseUrl: string, job: Pick<StoredJob, 'jobId' | 'model'>): string {
  return `${baseUrl}/jobs/${encodeURIComponent(job.jobId)}?model=${encodeURIComponent(job.model)}`;
}

const round = (seconds: number) => Math.max(0, Math.round(seconds * 1000) / 1000);

/** The public MediaJob body of a stored job at `nowMs`. */
export function toMediaJob(
  job: StoredJob,
  baseUrl: string,
  nowMs: number,
  requestId: string = job.requestId,
): MediaJob {
  const body: MediaJob = {
    id: job.jobId,
    jobId: job.jobId,
    jobUrl: jobUrl(baseUrl, job),
    requestId,
    object: job.object,
    model: job.model,
    serviceKind: job.serviceKind,
    status: job.status,
    stage: job.stage,
    stageMessage: job.stageMessage,
    createdAt: iso(job.createdAtMs),
  };
  if (job.clientRequestId) body.clientRequestId = job.clientRequestId;
  const end = job.completedAtMs ?? nowMs;
  body.elapsedSeconds = round((end - job.createdAtMs) / 1000);
  body.queuedSeconds = round(((job.startedAtMs ?? end) - job.createdAtMs) / 1000);
  body.runningSeconds = job.startedAtMs ? round((end - job.startedAtMs) / 1000) : 0;
  if (job.startedAtMs) body.startedAt = iso(job.startedAtMs);
  if (job.completedAtMs) body.completedAt = iso(job.completedAtMs);
  if (job.status === 'queued' || job.status === 'running') {
    body.refreshAfterSeconds = job.pollSeconds;
    body.retryAfterSeconds = job.pollSeconds;
  }
  if (job.effectiveMediaSpec) body.effectiveMediaSpec = { ...job.effectiveMediaSpec };
  if (job.status === 'succeeded') {
    const outputs = job.outputs.map((asset) => toResultAsset(asset, baseUrl));
    body.outputs = outputs;
    body.assets = outputs.map((output) => ({ ...output }));
  }
  if (job.status === 'failed' && job.failure) {
    body.errorCode = job.failure.errorCode;
    body.errorMessage = job.failure.errorMessage;
    body.statusCode = job.failure.statusCode;
    body.retryable = job.failure.retryable;
  }
  return body;
}
