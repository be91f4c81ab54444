import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { emptyDraftForm } from '../../../src/shared/bridge/draft-form.js';
import { JobEngine } from '../../../src/main/core/jobs/job-engine.js';
import type { MediaJobTransport } from '../../../src/main/core/jobs/media-job-transport.js';
import { openJournal, type Journal } from '../../../src/main/core/journal/open-journal.js';
import type { Logger } from '../../../src/main/core/logging/logger.js';
import { ApiError } from '../../../src/main/core/api-clients/api-errors.js';
import { StudioDrafts } from '../../../src/main/core/creating/drafts.js';
import { StudioSubmit } from '../../../src/main/core/creating/submit.js';
import type { LocalVideoDraft } from '../../../src/main/core/creating/submit-video.js';

/**
 * `video.submit` maps what the engine did (its RunResult, or what a failure had committed) and
 * never reads the journal's intents back: StudioSubmit is built here without any jobs repository.
 */
const journals: Journal[] = [];
afterEach(() => {
  for (const j of journals.splice(0)) j.close();
});

const LOCAL: LocalVideoDraft = {
  model: 'h3',
  generationMode: 't2v',
  prompt: 'a kite over the dunes',
  orientation: 'landscape',
  seconds: 5,
  resolutionTier: '768p',
  references: [],
};

const silent = { warn: () => undefined, info: () => undefined, error: () => undefined } as unknown as Logger;

/** A platform that accepts every create (the job stays queued), or refuses it with `refuse`. */
function transport(refuse?: number): MediaJobTransport {
  return {
    clock: { now: () => Date.now(), sleep: async () => undefined },
    async createJob() {
      if (refuse)
        throw new ApiError({ status: refuse, apiCode: 'invalid_request', message: 'no', retryable: false });
      return {
        httpStatus: 202,
        job: { jobId: 'job-1', requestId: 'req-1', status: 'queued', jobUrl: 'https://fake.test/jobs/job-1' },
        retryAfterSeconds: undefined,
      };
    },
    async getJob() {
      return {
        job: {
          jobId: 'job-1',
          requestId: 'req-1',
          status: 'running',
          jobUrl: 'https://fake.test/jobs/job-1',
        },
        retryAfterSeconds: undefined,
      };
    },
    async openContentStream() {
      throw new Error('not read');
    },
  };
}

function world(refuse?: number) {
  const journal = openJournal({ path: ':memory:' });
  journals.push(journal);
  journal.profiles.create({ id: 'p', name: 'P', kind: 'simulator' });
  const engine = new JobEngine({
    journal,
    transportFor: async () => transport(refuse),
    libraryDir: path.join(os.tmpdir(), 'fw-unused-library'),
    create: { backoff: { initialMs: 1, maxMs: 2, factor: 2, jitter: 0 } },
    pollBackoff: { initialMs: 1, maxMs: 2, factor: 2, jitter: 0 },
  });
  const drafts = new StudioDrafts({ drafts: journal.drafts, jobs: journal.jobs });
  const filed: [number, string][] = [];
  const submit = new StudioSubmit({
    createJob: (s) =>
      engine.submit(
        {
          profileId: s.profileId,
          model: s.draft.model,
          serviceKind: 'video_generation',
          body: { model: s.draft.model, prompt: s.draft.prompt },
          idempotencyKey: s.idempotencyKey,
          draftId: s.draftId,
        },
        { ...s.wait, waitSeconds: 0.05 },
      ),
    drafts,
    inputs: { localDraft: async () => LOCAL, emitUpload: () => undefined },
    waitSeconds: () => 1,
    logger: silent,
    projects: { fileJobOfDraft: (intentId, draftId) => filed.push([intentId, draftId]) },
  });
  const draft = drafts.createDraft({ ...emptyDraftForm('p'), model: 'h3', prompt: LOCAL.prompt });
  return { engine, drafts, submit, draft, filed, journal };
}

describe('video.submit answers from the engine’s result, not a second read of the journal', () => {
  it('an accepted create: the job row, the draft submitted and filed under its project', async () => {
    const w = world();
    const answer = await w.submit.submit(w.draft.id);
    const intent = w.journal.jobs.getIntent(w.draft.idempotencyKey)!;
    const job = w.journal.jobs.getJobForIntent(intent.id)!;

    expect(answer).toMatchObject({
      state: 'accepted',
      idempotencyKey: w.draft.idempotencyKey,
      jobRowId: job.id,
      reason: null,
    });
    expect(w.drafts.stored(w.draft.id).submittedAt).not.toBeNull();
    expect(w.drafts.stored(w.draft.id).jobRowId).toBe(job.id);
    expect(w.filed).toEqual([[intent.id, w.draft.id]]);
    await w.engine.stop();
  });

  it('a refused create: the refusal is thrown and the draft is editable again under a fresh key', async () => {
    const w = world(422);
    const firstKey = w.draft.idempotencyKey;
    await expect(w.submit.submit(w.draft.id)).rejects.toBeInstanceOf(ApiError);

    expect(w.journal.jobs.getIntent(firstKey)!.state).toBe('rejected');
    const reopened = w.drafts.stored(w.draft.id);
    expect(reopened.submittedAt).toBeNull();
    expect(reopened.idempotencyKey).not.toBe(firstKey);
    expect(w.filed).toEqual([]);
    await w.engine.stop();
  });
});
