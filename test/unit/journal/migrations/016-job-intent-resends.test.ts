import { describe, expect, it } from 'vitest';
import { JobsRepository, resendIdempotencyKey } from '../../../../src/main/core/journal/jobs-repository.js';
import { migration016JobIntentResends } from '../../../../src/main/core/journal/migrations/016-job-intent-resends.js';
import { OutputsRepository } from '../../../../src/main/core/journal/outputs-repository.js';
import { columns, foreignKeys, migratedTo, tables, withIntents } from './schema-helpers.js';

describe('migration 016-job-intent-resends', () => {
  it('is version 16, the last, and adds job_intent_resends tied to both intents', () => {
    expect(migration016JobIntentResends.version).toBe(16);
    const before = tables(migratedTo(15));
    const db = migratedTo(16);
    expect(tables(db).filter((t) => !before.includes(t))).toEqual(['job_intent_resends']);
    expect(Object.keys(columns(db, 'job_intent_resends'))).toEqual([
      'intent_id',
      'first_intent_id',
      'attempt',
    ]);
    expect(columns(db, 'job_intent_resends').intent_id).toMatchObject({ pk: true, notnull: true });
    expect(foreignKeys(db, 'job_intent_resends')).toEqual(
      expect.arrayContaining([
        { table: 'job_intents', from: 'intent_id', on_delete: 'CASCADE' },
        { table: 'job_intents', from: 'first_intent_id', on_delete: 'CASCADE' },
      ]),
    );
  });

  it('refuses attempt 1, an intent resending itself, two intents for one attempt and unknown intents', () => {
    const db = migratedTo(16);
    withIntents(db, [1, 2, 3]);
    const add = db.prepare('INSERT INTO job_intent_resends VALUES (?, ?, ?)');
    add.run(2, 1, 2);
    expect(() => add.run(3, 1, 2)).toThrow(/UNIQUE/);
    expect(() => add.run(3, 1, 1)).toThrow(/CHECK/);
    expect(() => add.run(3, 3, 2)).toThrow(/CHECK/);
    expect(() => add.run(9, 1, 3)).toThrow(/FOREIGN KEY/);
    add.run(3, 1, 3);
    db.prepare('DELETE FROM job_intents WHERE id = 1').run();
    expect(db.prepare('SELECT count(*) AS n FROM job_intent_resends').get()).toEqual({ n: 0 });
  });
});

describe('resends in the jobs repository', () => {
  const repo = () => {
    const db = migratedTo(16);
    db.exec(
      "INSERT INTO profiles (id, name, kind, created_at, updated_at) VALUES ('p', 'P', 'simulator', 0, 0)",
    );
    return new JobsRepository(db, new OutputsRepository(db));
  };
  const intent = (
    key: string,
    body: unknown,
    resendOf?: { firstIdempotencyKey: string; attempt: number },
  ) => ({
    idempotencyKey: key,
    profileId: 'p',
    model: 'h3-video',
    serviceKind: 'video_generation',
    body,
    ...(resendOf ? { resendOf } : {}),
  });

  it('derives the resend key from the first key and the attempt, within the spec key rule', () => {
    expect(resendIdempotencyKey('draft-1234', 2)).toBe('draft-1234.r2');
    expect(resendIdempotencyKey('draft-1234', 3)).toBe('draft-1234.r3');
    // a key the readable form would break (too long, or a character outside [A-Za-z0-9._:-])
    const long = resendIdempotencyKey('k'.repeat(126), 2);
    expect(long).toMatch(/^fw-r2-[0-9a-f]{64}$/);
    expect(resendIdempotencyKey('k'.repeat(126), 2)).toBe(long);
    expect(resendIdempotencyKey('draft 1/2', 2)).toMatch(/^fw-r2-[0-9a-f]{64}$/);
    expect(() => resendIdempotencyKey('draft-1234', 1)).toThrow(RangeError);
  });

  it('records a resend only of an intent refused 404 asset_not_found, linked to it, once per attempt', () => {
    const jobs = repo();
    jobs.recordIntent(intent('first-0001', { input: 'old' }));
    // not refused (yet): no resend
    expect(() =>
      jobs.recordIntent(
        intent('first-0001.r2', { input: 'new' }, { firstIdempotencyKey: 'first-0001', attempt: 2 }),
      ),
    ).toThrow(/not refused for an unknown asset/);
    jobs.markRejected('first-0001', { statusCode: 404, errorCode: 'asset_not_found' });
    // the key must be the derived one
    expect(() =>
      jobs.recordIntent(
        intent('first-0001.x', { input: 'new' }, { firstIdempotencyKey: 'first-0001', attempt: 2 }),
      ),
    ).toThrow(RangeError);
    expect(jobs.latestResendOf('first-0001')).toBeUndefined();
    const resend = jobs.recordIntent(
      intent('first-0001.r2', { input: 'new' }, { firstIdempotencyKey: 'first-0001', attempt: 2 }),
    );
    // recorded again (a restart): the same intent
    expect(
      jobs.recordIntent(
        intent('first-0001.r2', { input: 'new' }, { firstIdempotencyKey: 'first-0001', attempt: 2 }),
      ),
    ).toEqual(resend);
    expect(jobs.latestResendOf('first-0001')).toEqual({ intent: resend, attempt: 2 });
    // the business key now stands for its resend; a key never resent stands for itself
    expect(jobs.currentIntent('first-0001')).toEqual(resend);
    expect(jobs.currentIntent('first-0001.r2')).toEqual(resend);
    expect(jobs.currentIntent('nothing-here')).toBeUndefined();
    // the first key keeps its first body
    expect(JSON.parse(jobs.getIntent('first-0001')!.canonicalBodyJson)).toEqual({ input: 'old' });

    jobs.recordIntent(intent('other-0001', {}));
    jobs.markRejected('other-0001', { statusCode: 422, errorCode: 'invalid_request' });
    expect(() =>
      jobs.recordIntent(intent('other-0001.r2', {}, { firstIdempotencyKey: 'other-0001', attempt: 2 })),
    ).toThrow(/not refused for an unknown asset/);
  });
});
