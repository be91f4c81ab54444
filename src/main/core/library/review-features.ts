import type { JobWithOutputs } from '../journal/jobs-repository.js';
import type { Journal } from '../journal/open-journal.js';
import { StudioCollections, type SequenceFromTakes } from './collections.js';
import { ResultNotes } from './result-notes.js';
import { SidecarWrites } from './sidecar-writes.js';

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
    }),
  };
}
