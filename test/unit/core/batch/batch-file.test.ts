import { describe, expect, it } from 'vitest';
import {
  attemptKey,
  batchIdempotencyKey,
  parseCsvBatch,
  parseTxtBatch,
  type CanonicalBatchDraft,
} from '../../../../src/main/core/batch/batch-file.js';
import { concurrencyPool } from '../../../../src/main/core/batch/pool.js';

describe('batch files', () => {
  it('TXT: one prompt per line as written; blank lines and # comments skipped; rows are line numbers', () => {
    const rows = parseTxtBatch(
      '\ufeff# header\r\n  A fox, running  \r\n\r\n   \r\nA #hashtag prompt\n# done',
    );
    expect(rows).toEqual([
      { row: 2, prompt: '  A fox, running  ', overrides: {} },
      { row: 5, prompt: 'A #hashtag prompt', overrides: {} },
    ]);
  });

  it('CSV: quoted commas, quotes and line breaks; rows are the lines records start on (LF and CRLF)', () => {
    for (const eol of ['\n', '\r\n']) {
      const text = [
        'Prompt,Seconds,orientation,first_frame',
        '"A cat, sitting' + eol + 'on a mat, ""purring""",6,portrait,frames/a.png',
        '',
        'A dog,,landscape,',
        '"",5,,',
      ].join(eol);
      expect(parseCsvBatch(text, 'x.csv')).toEqual([
        {
          row: 2,
          prompt: `A cat, sitting${eol}on a mat, "purring"`,
          overrides: { seconds: '6', orientation: 'portrait', first_frame: 'frames/a.png' },
        },
        { row: 5, prompt: 'A dog', overrides: { orientation: 'landscape' } },
        { row: 6, prompt: '', overrides: { seconds: '5' } },
      ]);
    }
  });

  it('CSV: no prompt column, an unknown column or a broken quote is refused with the file named', () => {
    expect(() => parseCsvBatch('text,seconds\na,5\n', 'a.csv')).toThrow(/unknown column "text"/);
    expect(() => parseCsvBatch('seconds\n5\n', 'b.csv')).toThrow(/no "prompt" column/);
    expect(() => parseCsvBatch('prompt,seconds\n"open,5\n', 'c.csv')).toThrow(/c\.csv.*not a readable CSV/);
  });

  it('keys: deterministic per profile, run label and draft; frames by content; within the 255-byte limit', () => {
    const draft: CanonicalBatchDraft = {
      model: 'h3-video',
      generationMode: 't2v',
      prompt: 'A fox',
      seconds: 5,
      orientation: 'landscape',
      resolutionTier: '768p',
      seed: null,
      firstFrameSha256: null,
      lastFrameSha256: null,
    };
    const key = batchIdempotencyKey('p1', undefined, draft);
    expect(key).toMatch(/^fw-batch-[0-9a-f]{64}$/);
    expect(batchIdempotencyKey('p1', undefined, { ...draft })).toBe(key);
    const others = [
      batchIdempotencyKey('p2', undefined, draft),
      batchIdempotencyKey('p1', 'take-2', draft),
      batchIdempotencyKey('p1', undefined, { ...draft, prompt: 'A fox ' }),
      batchIdempotencyKey('p1', undefined, { ...draft, seed: 0 }),
      batchIdempotencyKey('p1', undefined, { ...draft, firstFrameSha256: 'ab'.repeat(32) }),
    ];
    expect(new Set([key, ...others]).size).toBe(6);
  });

  it('the pool never runs more than its limit, and a failing task frees its slot', async () => {
    const pool = concurrencyPool(2);
    let running = 0;
    let peak = 0;
    const task = (fail: boolean) => async () => {
      running += 1;
      peak = Math.max(peak, running);
      await new Promise((resolve) => setTimeout(resolve, 5));
      running -= 1;
      if (fail) throw new Error('boom');
      return 'ok';
    };
    const results = await Promise.allSettled(
      [true, false, true, false, false, false].map((f) => pool(task(f))),
    );
    expect(peak).toBe(2);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(4);
    expect(() => concurrencyPool(0)).toThrow(RangeError);
  });
});

describe('attempt keys after a refusal', () => {
  const journal = (intents: Record<string, { state: string; statusCode?: number }>) => ({
    getIntent: (key: string) => intents[key],
  });

  it('a row never sent, accepted, pending or unknown keeps its base key', () => {
    expect(attemptKey(journal({}), 'k')).toBe('k');
    for (const state of ['accepted', 'pending_create', 'unknown', 'abandoned'])
      expect(attemptKey(journal({ k: { state } }), 'k')).toBe('k');
  });

  it.each([401, 402, 403])(
    'refused with %i (nothing created, fixed elsewhere): the next attempt',
    (status) => {
      expect(attemptKey(journal({ k: { state: 'rejected', statusCode: status } }), 'k')).toBe('k.2');
      expect(
        attemptKey(
          journal({
            k: { state: 'rejected', statusCode: 402 },
            'k.2': { state: 'rejected', statusCode: status },
            'k.3': { state: 'accepted' },
          }),
          'k',
        ),
      ).toBe('k.3');
    },
  );

  it.each([400, 404, 409, 422])('refused with %i (the row itself): stays on that key', (status) => {
    expect(attemptKey(journal({ k: { state: 'rejected', statusCode: status } }), 'k')).toBe('k');
    expect(
      attemptKey(
        journal({
          k: { state: 'rejected', statusCode: 402 },
          'k.2': { state: 'rejected', statusCode: status },
        }),
        'k',
      ),
    ).toBe('k.2');
  });
});
