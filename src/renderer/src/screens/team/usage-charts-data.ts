import type { TeamUsageRow } from '../../../../shared/bridge/contract';

/**
 * The Team screen's charts, as plain data: the usage rows (one per project, member, service kind
 * and day, as `/resource-usage:aggregate` grouped them) shaped into the two pictures a manager
 * reads — settled credits per day stacked by project, and settled credits per member — plus the
 * age of the figures. Pure (no chart library, no DOM): the exact table stays the source of truth,
 * these only regroup its settled column, summed exactly (decimal strings, never floats) and then
 * handed to the chart as numbers.
 */

/** The column the charts draw: credits the ledger settled (reserved ones are not spent, and are never added in). */
export const CHARTED_COLUMN = 'ledgerSettledCredits' as const;

/** A day span longer than this is drawn as the days that have usage only (no gap filling). */
const MAX_FILLED_DAYS = 366;
const DAY_MS = 24 * 60 * 60 * 1000;

/** "12.50" at scale 2 → 1250n; a malformed amount counts as 0 (the table still shows it as sent). */
function toScaled(amount: string, scale: number): bigint {
  const match = /^(-?)(\d+)(?:\.(\d+))?$/.exec(amount.trim());
  if (!match) return 0n;
  const [, sign, whole, fraction = ''] = match;
  const digits = `${whole}${fraction.padEnd(scale, '0').slice(0, scale)}`;
  const value = BigInt(digits);
  return sign === '-' ? -value : value;
}

/** 1250n at scale 2 → "12.50" (the table's own notation). */
function formatScaled(raw: bigint, scale: number): string {
  const negative = raw < 0n;
  const digits = (negative ? -raw : raw).toString().padStart(scale + 1, '0');
  const whole = digits.slice(0, digits.length - scale);
  const fraction = digits.slice(digits.length - scale);
  return `${negative ? '-' : ''}${whole}${scale > 0 ? `.${fraction}` : ''}`;
}

export interface ProjectSeries {
  readonly projectId: string;
  readonly label: string;
  /** One value per entry of `days` (0 where the project had no usage that day). */
  readonly values: number[];
  /** The project's settled credits over every day, exact. */
  readonly total: string;
}

export interface CreditsPerDay {
  /** ISO days (YYYY-MM-DD), oldest first, every day between the first and the last. */
  readonly days: string[];
  /** Largest total first (the bottom of each stack). */
  readonly projects: ProjectSeries[];
  /** Every project's settled credits over every day, exact. */
  readonly total: string;
}

const isIsoDay = (day: string) =>
  /^\d{4}-\d{2}-\d{2}$/.test(day) && !Number.isNaN(Date.parse(`${day}T00:00:00Z`));

/** Every ISO day from `first` to `last` (inclusive), or only `present` when the span is too long. */
function daySpan(present: string[]): string[] {
  const sorted = [...new Set(present)].sort();
  if (sorted.length < 2 || !sorted.every(isIsoDay)) return sorted;
  const first = Date.parse(`${sorted[0]}T00:00:00Z`);
  const last = Date.parse(`${sorted.at(-1)}T00:00:00Z`);
  const count = Math.round((last - first) / DAY_MS) + 1;
  if (count > MAX_FILLED_DAYS) return sorted;
  return Array.from({ length: count }, (_, i) => new Date(first + i * DAY_MS).toISOString().slice(0, 10));
}

/** Settled credits per day, one series per project (stacked in the chart); rows without a day are left out. */
export function creditsPerDayByProject(rows: readonly TeamUsageRow[], amountScale: number): CreditsPerDay {
  const perProject = new Map<string, { label: string; perDay: Map<string, bigint>; total: bigint }>();
  const present: string[] = [];
  let total = 0n;
  for (const row of rows) {
    if (!row.day) continue;
    const amount = toScaled(row.credits[CHARTED_COLUMN], amountScale);
    let project = perProject.get(row.projectId);
    if (!project)
      perProject.set(
        row.projectId,
        (project = { label: row.projectName ?? row.projectId, perDay: new Map(), total: 0n }),
      );
    project.perDay.set(row.day, (project.perDay.get(row.day) ?? 0n) + amount);
    project.total += amount;
    total += amount;
    present.push(row.day);
  }
  const days = daySpan(present);
  const projects = [...perProject.entries()]
    .sort(([idA, a], [idB, b]) =>
      a.total !== b.total
        ? a.total > b.total
          ? -1
          : 1
        : a.label.localeCompare(b.label) || (idA < idB ? -1 : 1),
    )
    .map(([projectId, p]) => ({
      projectId,
      label: p.label,
      values: days.map((day) => Number(formatScaled(p.perDay.get(day) ?? 0n, amountScale))),
      total: formatScaled(p.total, amountScale),
    }));
  return { days, projects, total: formatScaled(total, amountScale) };
}

export interface MemberCredits {
  /** null: rows the runtime did not attribute to an account. */
  readonly accountId: string | null;
  readonly label: string;
  /** Settled credits over every project, service and day, exact. */
  readonly credits: string;
  readonly value: number;
}

/** Settled credits per member (every project, service and day), largest first. */
export function creditsPerMember(rows: readonly TeamUsageRow[], amountScale: number): MemberCredits[] {
  const perMember = new Map<string, { accountId: string | null; label: string; raw: bigint }>();
  for (const row of rows) {
    const key = row.accountId ?? '';
    let member = perMember.get(key);
    if (!member)
      perMember.set(
        key,
        (member = { accountId: row.accountId, label: row.memberName ?? row.accountId ?? '—', raw: 0n }),
      );
    member.raw += toScaled(row.credits[CHARTED_COLUMN], amountScale);
  }
  return [...perMember.values()]
    .sort((a, b) => (a.raw !== b.raw ? (a.raw > b.raw ? -1 : 1) : a.label.localeCompare(b.label)))
    .map((m) => {
      const credits = formatScaled(m.raw, amountScale);
      return { accountId: m.accountId, label: m.label, credits, value: Number(credits) };
    });
}

/** How old the figures are, in the largest whole unit (under a minute: now; a clock ahead of `now` counts as now). */
export type UsageAge =
  | { readonly unit: 'now'; readonly count: 0 }
  | { readonly unit: 'minutes' | 'hours' | 'days'; readonly count: number };

export function usageAge(asOf: string, now: number): UsageAge {
  const elapsed = now - Date.parse(asOf);
  if (!Number.isFinite(elapsed) || elapsed < 60_000) return { unit: 'now', count: 0 };
  const minutes = Math.floor(elapsed / 60_000);
  if (minutes < 60) return { unit: 'minutes', count: minutes };
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return { unit: 'hours', count: hours };
  return { unit: 'days', count: Math.floor(hours / 24) };
}

/**
 * When the figures were taken, as the reader's clock says it: the time alone ("14:02") on the
 * day of `now`, else the date and time.
 */
export function asOfClock(asOf: string, now: number, locale: string, timeZone?: string): string {
  const at = new Date(asOf);
  if (Number.isNaN(at.getTime())) return asOf;
  const zone = timeZone ? { timeZone } : {};
  const day = new Intl.DateTimeFormat('en-CA', {
    ...zone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  });
  const time = { ...zone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' } as const;
  if (day.format(at) === day.format(new Date(now))) return new Intl.DateTimeFormat(locale, time).format(at);
  return new Intl.DateTimeFormat(locale, { ...time, year: 'numeric', month: 'short', day: 'numeric' }).format(
    at,
  );
}

type Translate = (key: string, options?: Record<string, unknown>) => string;

/** "Figures as of 14:02, 3 min ago (realtime)": the clock time, the age, and the runtime's own freshness word. */
export function freshnessText(
  usage: { readonly asOf: string; readonly freshness: string },
  now: number,
  t: Translate,
  locale: string,
  timeZone?: string,
): string {
  const age = usageAge(usage.asOf, now);
  return t('team.asOfAge', {
    time: asOfClock(usage.asOf, now, locale, timeZone),
    age: t(`team.age.${age.unit}`, { count: age.count }),
    freshness: usage.freshness,
  });
}
