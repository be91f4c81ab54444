import type { JobDetail } from '../../../shared/bridge/domains/studio.js';
import type { JobWithOutputs } from '../journal/jobs-repository.js';
import type { Journal } from '../journal/open-journal.js';
import { storedOutputOf } from '../journal/outputs-repository.js';
import { StudioCollections, type SequenceFromTakes } from './collections.js';
import { ResultNotes } from './result-notes.js';
import { SidecarWrites } from './sidecar-writes.js';
import type { ReviewPackageTake } from './review-package.js';
import type { ReviewedTake } from './review-package-html.js';
import type { ReviewPackages } from './review-packages.js';

/** Reviewing takes (issue 41): notes at a frame and collections, beside the Library's marks. */
export interface ReviewFeatures {
  /** Each result's sidecar written again after a review change (marks, notes, collections). */
  readonly sidecars: SidecarWrites;
  readonly notes: ResultNotes;
  readonly collections: StudioCollections;
}

/** Builds the review features over the person's journal, each with the narrow parts it uses. */
export function createReviewFeatures(d: {
  journal: Pick<Journal, 'jobs' | 'notes' | 'collections' | 'projects'>;
  requireJob: (jobRowId: number) => JobWithOutputs;
  rewriteSidecar: (job: JobWithOutputs, folder: string) => Promise<void>;
  mediaSeconds: (job: JobWithOutputs) => Promise<number | undefined>;
  sequenceFromTakes: SequenceFromTakes;
  /** A job's detail as the studio shows it (title, prompt, seed, marks). */
  jobDetail: (jobRowId: number) => JobDetail;
  packages: ReviewPackages;
}): ReviewFeatures {
  const sidecars = new SidecarWrites({ requireJob: d.requireJob, rewriteSidecar: d.rewriteSidecar });
  return {
    sidecars,
    notes: new ResultNotes({
      notes: d.journal.notes,
      requireJob: d.requireJob,
      mediaSeconds: d.mediaSeconds,
      sidecars,
    }),
    collections: new StudioCollections({
      collections: d.journal.collections,
      getJob: (id) => d.journal.jobs.getJob(id),
      projects: d.journal.projects,
      sidecars,
      sequenceFromTakes: d.sequenceFromTakes,
      packages: d.packages,
      takeOf: (jobRowId) => packageTake(d.jobDetail(jobRowId), d.requireJob(jobRowId), d.journal),
    }),
  };
}

/** What a reviewed take is, for someone without Framewright: its detail, marks and notes. */
export function reviewedTakeFacts(detail: JobDetail, journal: Pick<Journal, 'notes'>): ReviewedTake {
  return {
    title: detail.title,
    prompt: detail.prompt,
    model: detail.model,
    seed: detail.seed,
    generationMode: detail.generationMode,
    marks: detail.marks,
    notes: journal.notes
      .forJob(detail.rowId)
      .map((n) => ({ atSeconds: n.atSeconds, text: n.text, rect: n.rect })),
  };
}

/** A take as a review package lists it, from the job's detail, its verified file and its notes. */
function packageTake(
  detail: JobDetail,
  job: JobWithOutputs,
  journal: Pick<Journal, 'notes'>,
): ReviewPackageTake {
  const output = storedOutputOf(job);
  return {
    ...reviewedTakeFacts(detail, journal),
    file: output
      ? {
          path: output.localPath,
          mimeType: output.mimeType ?? output.expectedMimeType ?? 'application/octet-stream',
          sha256: output.sha256 ?? null,
        }
      : null,
    acceptedAt: job.acceptedAt,
    jobId: job.jobId,
  };
}
