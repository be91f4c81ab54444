import { z } from 'zod';
import { AppError } from '../errors.js';
import { checkedAnswer } from './checked-answer.js';
import { PROJECT_RESOURCE_TYPE } from '../projects/resource-attribution.js';
import { formatScaled, isAmountScale, rawAmount, rescale } from '../api-clients/runtime/credit-amounts.js';

/** `resourceIds` per call of `POST /resource-usage:aggregate` (spec "Limits": 1..200). */
export const MAX_RESOURCE_IDS_PER_CALL = 200;

export const USAGE_GROUP_KEYS = ['accountId', 'serviceKind', 'day'] as const;
export type UsageGroupKey = (typeof USAGE_GROUP_KEYS)[number];

/** The five credit columns, kept apart: reserved and settled are never summed as income. */
export const CREDIT_COLUMNS = [
  'ledgerSettledCredits',
  'reservedCredits',
  'releasedCredits',
  'failedCredits',
  'pendingCredits',
] as const;
export type CreditColumn = (typeof CREDIT_COLUMNS)[number];

/** The body of one `POST {runtime}/resource-usage:aggregate` call. */
export interface UsageRequestBody {
  readonly resourceType: typeof PROJECT_RESOURCE_TYPE;
  readonly resourceIds: string[];
  readonly groupBy: UsageGroupKey[];
}

/** The calls that read the usage of `projectIds`: de-duplicated, at most 200 ids each, grouped by every key. */
export function usageRequests(projectIds: readonly string[]): UsageRequestBody[] {
  const ids = [...new Set(projectIds)];
  if (ids.length === 0 || ids.some((id) => typeof id !== 'string' || id.trim() === ''))
    throw new AppError('team.invalid_query', 'Choose at least one project; a project id cannot be empty.');
  const calls: UsageRequestBody[] = [];
  for (let i = 0; i < ids.length; i += MAX_RESOURCE_IDS_PER_CALL)
    calls.push({
      resourceType: PROJECT_RESOURCE_TYPE,
      resourceIds: ids.slice(i, i + MAX_RESOURCE_IDS_PER_CALL),
      groupBy: [...USAGE_GROUP_KEYS],
    });
  return calls;
}

const Amount = z.unknown().refine((v) => rawAmount(v) !== undefined, 'an integer amount');
const UsageItem = z.object({
  resourceId: z.string().min(1),
  accountId: z.string().optional(),
  serviceKind: z.string().optional(),
  day: z.string().optional(),
  ledgerSettledCredits: Amount,
  reservedCredits: Amount,
  releasedCredits: Amount,
  failedCredits: Amount,
  pendingCredits: Amount,
  requestCount: z.number().int().nonnegative(),
});
const UsageAnswer = z.object({
  items: z.array(UsageItem),
  amountScale: z.unknown().refine(isAmountScale, 'an integer 0..18'),
  asOf: z.string().min(1),
  freshness: z.string().min(1),
});

/** One answer of `/resource-usage:aggregate`, checked; a malformed one is a clear error. */
export function parseUsageAnswer(body: unknown): z.infer<typeof UsageAnswer> & { amountScale: number } {
  return checkedAnswer(UsageAnswer, body, 'resource usage answer') as z.infer<typeof UsageAnswer> & {
    amountScale: number;
  };
}

export type CreditAmounts = Record<CreditColumn, string>;

/** One row of the usage table: a project, a member, a service kind and a day. */
export interface UsageRow {
  readonly projectId: string;
  readonly accountId: string | undefined;
  readonly serviceKind: string | undefined;
  readonly day: string | undefined;
  /** Each column as a decimal string, `amountScale` decimals. */
  readonly credits: CreditAmounts;
  readonly requestCount: number;
}

export interface UsageTable {
  readonly rows: UsageRow[];
  /** Each column summed on its own over the rows (never one column into another). */
  readonly totals: CreditAmounts;
  readonly requestCount: number;
  readonly amountScale: number;
  /** The oldest `asOf` of the answers merged: every figure is at least this fresh. */
  readonly asOf: string;
  /** The answers' `freshness`; several distinct ones joined with " / ". */
  readonly freshness: string;
}

type RawColumns = Record<CreditColumn, bigint>;

const zeroColumns = (): RawColumns => Object.fromEntries(CREDIT_COLUMNS.map((c) => [c, 0n])) as RawColumns;

/**
 * Merges the answers of the split calls into one table: amounts brought to the largest
 * `amountScale` exactly, rows of the same project/member/service kind/day added column by column,
 * ordered by project, day, member, service kind.
 */
export function mergeUsage(answers: readonly unknown[]): UsageTable {
  if (answers.length === 0) throw new RangeError('mergeUsage needs at least one answer.');
  const parsed = answers.map(parseUsageAnswer);
  const scale = Math.max(...parsed.map((a) => a.amountScale));
  const rows = new Map<
    string,
    { key: Omit<UsageRow, 'credits' | 'requestCount'>; raw: RawColumns; count: number }
  >();
  const totals = zeroColumns();
  let requestCount = 0;
  for (const answer of parsed)
    for (const item of answer.items) {
      const key = {
        projectId: item.resourceId,
        accountId: item.accountId,
        serviceKind: item.serviceKind,
        day: item.day,
      };
      const slot = [key.projectId, key.accountId, key.serviceKind, key.day]
        .map((v) => v ?? '')
        .join('\u0000');
      let row = rows.get(slot);
      if (!row) rows.set(slot, (row = { key, raw: zeroColumns(), count: 0 }));
      for (const column of CREDIT_COLUMNS) {
        const amount = rescale(rawAmount(item[column])!, answer.amountScale, scale);
        row.raw[column] += amount;
        totals[column] += amount;
      }
      row.count += item.requestCount;
      requestCount += item.requestCount;
    }
  const format = (raw: RawColumns): CreditAmounts =>
    Object.fromEntries(CREDIT_COLUMNS.map((c) => [c, formatScaled(raw[c], scale)])) as CreditAmounts;
  const order = (r: UsageRow) => [r.projectId, r.day ?? '', r.accountId ?? '', r.serviceKind ?? ''];
  const table = [...rows.values()]
    .map(({ key, raw, count }) => ({ ...key, credits: format(raw), requestCount: count }))
    .sort((a, b) => {
      const [x, y] = [order(a), order(b)];
      for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return x[i]! < y[i]! ? -1 : 1;
      return 0;
    });
  return {
    rows: table,
    totals: format(totals),
    requestCount,
    amountScale: scale,
    asOf: parsed.map((a) => a.asOf).sort((a, b) => Date.parse(a) - Date.parse(b))[0]!,
    freshness: [...new Set(parsed.map((a) => a.freshness))].join(' / '),
  };
}
