import { afterEach, describe, expect, it } from 'vitest';
import { JournalStateError } from '../../../src/main/core/journal/errors.js';
import { tempJournal } from './helpers.js';

let t: ReturnType<typeof tempJournal>;
afterEach(() => t.cleanup());

function withProfiles() {
  t = tempJournal();
  const a = t.journal.profiles.create({ name: 'A', kind: 'simulator', baseUrl: 'http://127.0.0.1:1/v1' });
  const b = t.journal.profiles.create({ name: 'B', kind: 'simulator', baseUrl: 'http://127.0.0.1:2/v1' });
  return { a: a.id, b: b.id, calls: t.journal.serviceCalls };
}

describe('ServiceCallsRepository', () => {
  it('records a call as sent, then completes it once', () => {
    const { a, calls } = withProfiles();
    const sent = calls.record({
      profileId: a,
      model: 'vector-embed',
      operation: 'embeddings',
      request: { inputCount: 2, totalCharacters: 9 },
    });
    expect(sent).toMatchObject({ state: 'sent', startedAt: t.clock.now, request: { inputCount: 2 } });
    expect(sent.finishedAt).toBeUndefined();
    t.clock.now += 250;
    const done = calls.markSucceeded(sent.id, {
      requestId: 'req_1',
      response: { count: 2, dimensions: 8 },
      usage: { prompt_tokens: 4 },
    });
    expect(done).toMatchObject({
      state: 'succeeded',
      requestId: 'req_1',
      response: { count: 2, dimensions: 8 },
      usage: { prompt_tokens: 4 },
      finishedAt: sent.startedAt + 250,
    });
    expect(() => calls.markFailed(sent.id, { statusCode: 500 })).toThrow(JournalStateError);
    expect(() => calls.markSucceeded(sent.id, { response: {} })).toThrow(JournalStateError);
  });

  it('keeps a failure with its status, code, message and request id; unknown can still succeed', () => {
    const { a, calls } = withProfiles();
    const failed = calls.record({ profileId: a, model: 'm', operation: 'rerank', request: {} });
    expect(
      calls.markFailed(failed.id, {
        statusCode: 402,
        errorCode: 'insufficient_balance',
        errorMessage: 'x'.repeat(2000),
        requestId: 'req_f',
      }),
    ).toMatchObject({
      state: 'failed',
      statusCode: 402,
      errorCode: 'insufficient_balance',
      requestId: 'req_f',
    });
    expect(calls.get(failed.id)!.errorMessage!.length).toBeLessThanOrEqual(500);

    const lost = calls.record({ profileId: a, model: 'm', operation: 'ocr', request: {} });
    expect(calls.markUnknown(lost.id, { errorCode: 'api.outcome_unknown' })).toMatchObject({
      state: 'unknown',
      errorCode: 'api.outcome_unknown',
    });
    expect(() => calls.markFailed(lost.id, {})).toThrow(JournalStateError);
    expect(calls.markSucceeded(lost.id, { response: { blockCount: 1 } }).state).toBe('succeeded');
    expect(() => calls.markUnknown(12345)).toThrow(/12345/);
  });

  it('lists newest first per profile and operation, keyset-paginated', () => {
    const { a, b, calls } = withProfiles();
    const ops = ['embeddings', 'rerank', 'ocr', 'transcription'] as const;
    const ids: number[] = [];
    for (let i = 0; i < 9; i += 1) {
      t.clock.now += 1;
      ids.push(calls.record({ profileId: a, model: 'm', operation: ops[i % 4]!, request: { i } }).id);
    }
    calls.record({ profileId: b, model: 'm', operation: 'embeddings', request: {} });

    const first = calls.list({ profileId: a, limit: 4 });
    expect(first.items.map((c) => c.id)).toEqual(ids.slice(5).reverse());
    const second = calls.list({ profileId: a, limit: 4, cursor: first.nextCursor });
    expect(second.items.map((c) => c.id)).toEqual(ids.slice(1, 5).reverse());
    const last = calls.list({ profileId: a, limit: 4, cursor: second.nextCursor });
    expect(last.items.map((c) => c.id)).toEqual([ids[0]]);
    expect(last.nextCursor).toBeUndefined();

    expect(calls.list({ profileId: a, operation: 'embeddings' }).items.map((c) => c.request.i)).toEqual([
      8, 4, 0,
    ]);
    expect(calls.list().items).toHaveLength(10);
    expect(() => calls.list({ limit: 0 })).toThrow(RangeError);

    const plan = (sql: string) =>
      (t.journal.database.prepare(`EXPLAIN QUERY PLAN ${sql}`).all() as { detail: string }[])
        .map((r) => r.detail)
        .join('; ');
    expect(
      plan("SELECT * FROM service_calls WHERE profile_id = 'x' AND id < 5 ORDER BY id DESC LIMIT 5"),
    ).toMatch(/USING (COVERING )?INDEX service_calls_by_profile /);
    expect(
      plan(
        "SELECT * FROM service_calls WHERE profile_id = 'x' AND operation = 'ocr' AND id < 5 ORDER BY id DESC LIMIT 5",
      ),
    ).toMatch(/USING (COVERING )?INDEX service_calls_by_profile_operation/);
  });
});
