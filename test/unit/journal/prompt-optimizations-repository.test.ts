import { afterEach, describe, expect, it } from 'vitest';
import { IdempotencyConflictError, JournalStateError } from '../../../src/main/core/journal/errors.js';
import type { NewOptimization } from '../../../src/main/core/journal/prompt-optimizations-repository.js';
import { tempJournal } from './helpers.js';

let t: ReturnType<typeof tempJournal>;
afterEach(() => t.cleanup());

function setup() {
  t = tempJournal();
  t.journal.profiles.create({ id: 'sim', name: 'Simulator', kind: 'simulator' });
  return t.journal;
}

const request = (id: string, prompt = 'a cat on a piano'): NewOptimization => ({
  clientRequestId: id,
  profileId: 'sim',
  model: 'h3',
  generationMode: 't2v',
  body: {
    clientRequestId: id,
    model: 'h3',
    generationMode: 't2v',
    originalPrompt: prompt,
    mediaSpec: { resolutionTier: '768p', orientation: 'landscape', seconds: 5 },
    referenceInputs: [],
  },
});

describe('PromptOptimizationsRepository', () => {
  it('records the request before sending, replays it as the same bytes, and commits the result', () => {
    const journal = setup();
    const recorded = journal.optimizations.record(request('opt-00000001'));
    expect(recorded).toMatchObject({ state: 'pending', attemptCount: 0 });
    expect(journal.optimizations.record(request('opt-00000001')).canonicalBodyJson).toBe(
      recorded.canonicalBodyJson,
    );
    expect(() => journal.optimizations.record(request('opt-00000001', 'a dog'))).toThrow(
      IdempotencyConflictError,
    );
    expect(() => journal.optimizations.record(request('short'))).toThrow(/8\.\.128/);

    journal.optimizations.markAttempt('opt-00000001');
    journal.optimizations.markUnknown('opt-00000001', 'timeout after 180 s');
    expect(journal.optimizations.listUnfinished().map((o) => o.clientRequestId)).toEqual(['opt-00000001']);
    journal.optimizations.markAttempt('opt-00000001');
    const done = journal.optimizations.markSucceeded('opt-00000001', {
      requestId: 'req-1',
      optimizationId: 'o-1',
      optimizedPrompt: 'A tabby cat walks across the keys of a grand piano…',
      expiresAt: t.clock.now + 3_600_000,
      response: { requestId: 'req-1', optimization: { optimizationId: 'o-1' } },
    });
    expect(done).toMatchObject({
      state: 'succeeded',
      attemptCount: 2,
      optimizedPrompt: expect.stringContaining('tabby'),
    });
    expect(journal.optimizations.listUnfinished()).toEqual([]);
    expect(() => journal.optimizations.markFailed('opt-00000001', { statusCode: 500 })).toThrow(
      JournalStateError,
    );
  });

  it('keeps failures with their codes and lists newest first with a cursor', () => {
    const journal = setup();
    for (let i = 0; i < 5; i++) journal.optimizations.record(request(`opt-0000000${i}`));
    journal.optimizations.markFailed('opt-00000002', {
      statusCode: 422,
      errorCode: 'prompt_too_long',
      errorMessage: 'Shorten it',
      requestId: 'r',
    });
    const page = journal.optimizations.list({ limit: 2 });
    expect(page.items.map((o) => o.clientRequestId)).toEqual(['opt-00000004', 'opt-00000003']);
    const next = journal.optimizations.list({ limit: 2, cursor: page.nextCursor });
    expect(next.items.map((o) => o.clientRequestId)).toEqual(['opt-00000002', 'opt-00000001']);
    expect(journal.optimizations.list({ state: 'failed' }).items).toMatchObject([
      { clientRequestId: 'opt-00000002', statusCode: 422, errorCode: 'prompt_too_long' },
    ]);
  });

  it('links a job intent to the optimization whose prompt it sends', () => {
    const journal = setup();
    journal.optimizations.record(request('opt-00000001'));
    const intent = journal.jobs.recordIntent({
      idempotencyKey: 'job-key',
      profileId: 'sim',
      model: 'h3',
      serviceKind: 'video_generation',
      body: { prompt: 'optimized' },
      optimizationClientRequestId: 'opt-00000001',
    });
    expect(intent.optimizationClientRequestId).toBe('opt-00000001');
    expect(() =>
      journal.jobs.recordIntent({
        idempotencyKey: 'job-key-2',
        profileId: 'sim',
        model: 'h3',
        serviceKind: 'video_generation',
        body: {},
        optimizationClientRequestId: 'opt-missing-1',
      }),
    ).toThrow(/FOREIGN KEY/);
  });
});
