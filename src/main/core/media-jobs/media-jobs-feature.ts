import type { BatchFileRow } from '../batch/batch-file.js';
import {
  prepareBatch,
  runBatch,
  videoBatchOverProfiles,
  type BatchPlan,
  type PrepareBatchOptions,
  type PreparedBatchRow,
  type RunBatchOptions,
} from '../batch/batch-service.js';
import type { JobEngine } from '../jobs/job-engine.js';
import { submitAudio, type AudioSubmission } from '../operations/audio-generation.js';
import { submitImage, type ImageSubmission } from '../operations/image-generation.js';
import type { MediaJobDeps } from '../operations/job-with-inputs.js';
import { submitVideo, type VideoSubmission } from '../creating/submit-video.js';

export interface MediaJobsDeps extends MediaJobDeps {
  readonly engine: Pick<JobEngine, 'submit' | 'continueIntent' | 'createOrContinue' | 'resume'>;
}

/**
 * Media jobs through the job engine (intent in the journal, create, poll, verified download):
 * a video, a batch of videos, an image, audio, and the resume of everything left unfinished.
 * The CLI and the Playground use these; the studio has its own drafts over the same engine.
 */
export class MediaJobsFeature {
  constructor(private readonly deps: MediaJobsDeps) {}

  submitVideo(submission: VideoSubmission): ReturnType<typeof submitVideo> {
    return submitVideo(this.deps, submission);
  }

  submitImage(submission: ImageSubmission): ReturnType<typeof submitImage> {
    return submitImage(this.deps, submission);
  }

  submitAudio(submission: AudioSubmission): ReturnType<typeof submitAudio> {
    return submitAudio(this.deps, submission);
  }

  prepareBatch(rows: BatchFileRow[], options: PrepareBatchOptions): Promise<BatchPlan> {
    return prepareBatch(videoBatchOverProfiles(this.deps), rows, options);
  }

  runBatch(rows: PreparedBatchRow[], options: RunBatchOptions): ReturnType<typeof runBatch> {
    return runBatch(videoBatchOverProfiles(this.deps), rows, options);
  }

  /** Finishes unfinished work: unsent or unknown creations, jobs in progress, downloads, optimizations. */
  resume(...args: Parameters<JobEngine['resume']>): ReturnType<JobEngine['resume']> {
    return this.deps.engine.resume(...args);
  }
}
