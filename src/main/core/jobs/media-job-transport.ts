import type { Readable } from 'node:stream';
import type { MediaJobAnswer as MediaJob } from '../../../shared/api/media-jobs.js';
import type { RetryClock } from '../api-clients/retry/retry-after.js';

/** Where each asynchronous service kind is created. */
export const CREATE_PATHS = {
  video_generation: '/media/generations',
  image_generation: '/images/generations',
  audio_generation: '/audio/generations',
} as const;
export type AsyncServiceKind = keyof typeof CREATE_PATHS;
/**
 * Kinds that are jobs only on the platform's runtime (`POST /media/jobs`, whatever the kind): the
 * public interface parses documents synchronously and has no job path for them.
 */
export const RUNTIME_JOB_PATHS = { document_parse: '/media/jobs' } as const;
export type CreatePath =
  (typeof CREATE_PATHS)[AsyncServiceKind] | (typeof RUNTIME_JOB_PATHS)[keyof typeof RUNTIME_JOB_PATHS];

/** A create answered: the job, and the suggested poll interval of the answer's `Retry-After`. */
export interface CreatedJob {
  /** 202 on first acceptance; 200 (or the stored status) when a replay returns the stored job. */
  httpStatus: number;
  job: MediaJob;
  retryAfterSeconds: number | undefined;
}

/** One read of a job, with the answer's `Retry-After` in seconds. */
export interface ReadJob {
  job: MediaJob;
  retryAfterSeconds: number | undefined;
}

/** A result's bytes with the headers the download verifies. */
export interface ResultStream {
  status: number;
  contentType: string | undefined;
  contentLength: string | undefined;
  body: Readable;
}

/**
 * The seam between the job engine and a platform that runs media jobs: everything the engine
 * (create under the intent journal, poll, download and verify, resume) asks of the platform, and
 * no more. Errors follow the platform client's types — `ApiError` for an error answer,
 * `OutcomeUnknownError` when no answer was read — so the one retry module classifies them.
 *
 * The Public Model and Media API client is the first implementation (see
 * public-api-transport.ts); the platform's deployed runtime (`/media/jobs`) is meant to be the next.
 */
export interface MediaJobTransport {
  /** Time as the engine's waits see it (real, or a test's instant clock). */
  readonly clock: RetryClock;
  /** Sends a creation body under its idempotency key (spec: "Media generation", "Idempotency"). */
  createJob(path: CreatePath, body: Record<string, unknown>, idempotencyKey: string): Promise<CreatedJob>;
  /** Reads one accepted job at its `jobUrl` as returned (spec: "Polling"). */
  getJob(ref: { jobId: string; model: string; jobUrl?: string | null }): Promise<ReadJob>;
  /** Opens one result's content (spec: "Assets", content download). */
  openContentStream(ref: {
    assetId: string;
    model: string;
    contentUrl?: string | null;
    /** The job the result belongs to (a runtime download may need that job's recovery reference). */
    jobId?: string;
  }): Promise<ResultStream>;
  /**
   * Reads many accepted jobs at once (the runtime's `:batch-get`), as a resume's first read; null
   * when it cannot (no user session): the jobs are then read one by one. Absent: never batched.
   */
  getJobs?(jobIds: readonly string[]): Promise<ReadJob[] | null>;
}
