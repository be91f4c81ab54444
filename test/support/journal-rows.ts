import { openJournal, type Journal } from '../../src/main/core/journal/open-journal.js';
import type { AnnouncedOutput } from '../../src/main/core/journal/outputs-repository.js';
import type { ProfileKind } from '../../src/shared/bridge/contract.js';

/** A journal in memory with profile "p" (calls, uploads and jobs belong to a profile). */
export function journalWithProfile(baseUrl: string, kind: ProfileKind = 'personal'): Journal {
  const journal = openJournal({ path: ':memory:' });
  journal.profiles.create({ id: 'p', name: 'P', kind, baseUrl });
  return journal;
}

let counter = 0;

/** A committed video intent of profile "p" (model "m"), before its create request leaves. */
export function videoIntentRow(journal: Journal, idempotencyKey: string, prompt = 'a cat') {
  return journal.jobs.recordIntent({
    idempotencyKey,
    profileId: 'p',
    model: 'm',
    serviceKind: 'video_generation',
    body: { model: 'm', prompt },
  });
}

/** An accepted video job of profile "p" (model "m"), as the engine records it after creation. */
export function acceptedJobRow(
  journal: Journal,
  job: {
    status?: 'queued' | 'running' | 'succeeded';
    jobUrl?: string;
    outputs?: AnnouncedOutput[];
  } = {},
) {
  counter += 1;
  const key = `row-${counter}`;
  videoIntentRow(journal, key, `row ${counter}`);
  return journal.jobs.markAccepted(key, {
    jobId: `job_${counter}`,
    requestId: 'req',
    status: job.status ?? 'succeeded',
    ...(job.jobUrl ? { jobUrl: job.jobUrl } : {}),
    ...(job.outputs ? { outputs: job.outputs, outputsSource: 'outputs' as const } : {}),
  });
}
