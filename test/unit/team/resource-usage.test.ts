import { describe, expect, it } from 'vitest';
import { formatScaled, rawAmount } from '../../../src/main/core/api-clients/runtime/credit-amounts.js';
import { mergeUsage, usageRequests } from '../../../src/main/core/team/resource-usage.js';

const item = (resourceId: string, credits: Partial<Record<string, unknown>>, extra: object = {}) => ({
  resourceId,
  ledgerSettledCredits: 0,
  reservedCredits: 0,
  releasedCredits: 0,
  failedCredits: 0,
  pendingCredits: 0,
  requestCount: 1,
  ...extra,
  ...credits,
});
const answer = (items: object[], amountScale = 2, asOf = '2026-11-23T10:00:00.000Z') => ({
  items,
  amountScale,
  asOf,
  freshness: 'realtime',
});

describe('credit amounts scaled by amountScale', () => {
  it('divides by 10^amountScale exactly for scales 0, 2 and 6', () => {
    expect(formatScaled(150n, 0)).toBe('150');
    expect(formatScaled(150n, 2)).toBe('1.50');
    expect(formatScaled(5n, 2)).toBe('0.05');
    expect(formatScaled(-5n, 2)).toBe('-0.05');
    expect(formatScaled(1n, 6)).toBe('0.000001');
    expect(formatScaled(123456789n, 6)).toBe('123.456789');
    expect(formatScaled(0n, 6)).toBe('0.000000');
  });

  it('adds without float drift: ten times 0.1 is 1.0 and 0.1 + 0.2 is 0.3', () => {
    const table = mergeUsage([
      answer(
        Array.from({ length: 10 }, (_, i) =>
          item('p', { ledgerSettledCredits: 10 }, { day: `2026-11-${10 + i}` }),
        ),
      ),
    ]);
    expect(table.totals.ledgerSettledCredits).toBe('1.00');
    const drift = mergeUsage([answer([item('a', { failedCredits: 1 }), item('b', { failedCredits: 2 })], 1)]);
    expect(drift.totals.failedCredits).toBe('0.3');
    // beyond Number's safe integers, as a digit string
    const big = mergeUsage([answer([item('p', { reservedCredits: '90071992547409931' })], 6)]);
    expect(big.totals.reservedCredits).toBe('90071992547.409931');
  });

  it('reads integers or digit strings only', () => {
    expect(rawAmount(12)).toBe(12n);
    expect(rawAmount('12')).toBe(12n);
    expect(rawAmount(1.5)).toBeUndefined();
    expect(rawAmount('1.5')).toBeUndefined();
    expect(() => mergeUsage([answer([item('p', { ledgerSettledCredits: 1.5 })])])).toThrow(
      expect.objectContaining({ code: 'team.unexpected_response' }),
    );
    expect(() => mergeUsage([{ ...answer([]), amountScale: -1 }])).toThrow(
      expect.objectContaining({ code: 'team.unexpected_response' }),
    );
  });
});

describe('usage split and merged', () => {
  it('splits more than 200 projects into calls of at most 200 ids, de-duplicated, grouped by member, service kind and day', () => {
    const ids = Array.from({ length: 450 }, (_, i) => `prj_${i}`);
    const calls = usageRequests([...ids, 'prj_0']);
    expect(calls.map((c) => c.resourceIds.length)).toEqual([200, 200, 50]);
    expect(calls.flatMap((c) => c.resourceIds)).toEqual(ids);
    expect(calls[0]).toMatchObject({ resourceType: 'project', groupBy: ['accountId', 'serviceKind', 'day'] });
    expect(() => usageRequests([])).toThrow(expect.objectContaining({ code: 'team.invalid_query' }));
    expect(() => usageRequests(['ok', ' '])).toThrow(expect.objectContaining({ code: 'team.invalid_query' }));
  });

  it('merges the answers of split calls, each credit column kept apart, scales brought together, oldest asOf', () => {
    const keys = { accountId: 'acc_1', serviceKind: 'video_generation', day: '2026-11-23' };
    const table = mergeUsage([
      answer([item('p1', { ledgerSettledCredits: 300, reservedCredits: 150, pendingCredits: 150 }, keys)], 2),
      answer(
        [
          item('p2', { failedCredits: 1_500_000, releasedCredits: 1_500_000 }, keys),
          item('p2', { ledgerSettledCredits: 1 }, { ...keys, accountId: 'acc_2' }),
        ],
        6,
        '2026-11-23T09:59:58.000Z',
      ),
    ]);
    expect(table.amountScale).toBe(6);
    expect(table.asOf).toBe('2026-11-23T09:59:58.000Z');
    expect(table.freshness).toBe('realtime');
    expect(table.rows.map((r) => [r.projectId, r.accountId, r.credits])).toEqual([
      [
        'p1',
        'acc_1',
        {
          ledgerSettledCredits: '3.000000',
          reservedCredits: '1.500000',
          releasedCredits: '0.000000',
          failedCredits: '0.000000',
          pendingCredits: '1.500000',
        },
      ],
      [
        'p2',
        'acc_1',
        {
          ledgerSettledCredits: '0.000000',
          reservedCredits: '0.000000',
          releasedCredits: '1.500000',
          failedCredits: '1.500000',
          pendingCredits: '0.000000',
        },
      ],
      ['p2', 'acc_2', expect.objectContaining({ ledgerSettledCredits: '0.000001' })],
    ]);
    // settled and reserved stay apart: no column adds one into the other
    expect(table.totals).toEqual({
      ledgerSettledCredits: '3.000001',
      reservedCredits: '1.500000',
      releasedCredits: '1.500000',
      failedCredits: '1.500000',
      pendingCredits: '1.500000',
    });
    expect(table.requestCount).toBe(3);
  });
});
