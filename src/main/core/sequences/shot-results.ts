import type { JobWithOutputs, JobsRepository } from '../journal/jobs-repository.js';
import type { Output } from '../journal/outputs-repository.js';
import { readMediaFacts, type MediaFacts } from '../media-tools/probe-media.js';
import type { StoredDraft } from '../creating/drafts.js';

/** A shot's job, found through its draft: the job row the draft records, else its key's intent. */
export function jobOfDraft(
  jobs: Pick<JobsRepository, 'getJob' | 'currentIntent' | 'getJobForIntent'>,
  draft: StoredDraft,
): JobWithOutputs | undefined {
  if (draft.jobRowId !== null) {
    const job = jobs.getJob(draft.jobRowId);
    if (job) return job;
  }
  const intent = jobs.currentIntent(draft.idempotencyKey);
  return intent ? jobs.getJobForIntent(intent.id) : undefined;
}

/** The verified video of a job (the first one), with its file in the library. */
export function verifiedVideoOf(
  job: JobWithOutputs | undefined,
): (Output & { localPath: string }) | undefined {
  return job?.outputs.find(
    (o): o is Output & { localPath: string } =>
      o.downloadState === 'verified' &&
      o.localPath !== undefined &&
      (o.mimeType ?? o.expectedMimeType ?? '').startsWith('video/'),
  );
}

/**
 * Measured facts of verified results (duration, tracks), read once per output with ffprobe: a
 * verified output never changes, so the answer is kept for the process.
 */
export class ResultFacts {
  private readonly known = new Map<number, Promise<MediaFacts>>();

  of(output: Output & { localPath: string }): Promise<MediaFacts> {
    let facts = this.known.get(output.id);
    if (!facts) {
      facts = readMediaFacts(output.localPath);
      facts.catch(() => this.known.delete(output.id));
      this.known.set(output.id, facts);
    }
    return facts;
  }
}

/**
 * How long a result plays, as measured: its verified video's or audio's length in seconds, 0 for
 * a still image, undefined when it cannot be measured now (its file cannot be read or probed).
 */
export async function mediaSecondsOf(job: JobWithOutputs, facts: ResultFacts): Promise<number | undefined> {
  const verified = job.outputs.filter(
    (o): o is Output & { localPath: string } => o.downloadState === 'verified' && o.localPath !== undefined,
  );
  const typeOf = (o: Output) => o.mimeType ?? o.expectedMimeType ?? '';
  const timed = verified.find((o) => /^(video|audio)\//.test(typeOf(o)));
  if (!timed) return verified.some((o) => typeOf(o).startsWith('image/')) ? 0 : undefined;
  try {
    return (await facts.of(timed)).durationSeconds;
  } catch {
    return undefined;
  }
}
