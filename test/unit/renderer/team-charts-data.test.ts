/**
 * The Team screen's charts as data: the usage rows (project × member × service × day) regrouped
 * into settled credits per day stacked by project and per member, summed exactly; and the
 * figures' age as the manager reads it ("as of 14:02, 3 min ago").
 */
import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import type { TeamUsageRow } from '../../../src/shared/bridge/contract.js';
import { en } from '../../../src/renderer/src/i18n/locales/en.js';
import { teamEn } from '../../../src/renderer/src/i18n/locales/team-en.js';
import { teamZhCN } from '../../../src/renderer/src/i18n/locales/team-zh-CN.js';
import { zhCN } from '../../../src/renderer/src/i18n/locales/zh-CN.js';
import {
  asOfClock,
  creditsPerDayByProject,
  creditsPerMember,
  freshnessText,
  usageAge,
} from '../../../src/renderer/src/screens/team/usage-charts-data.js';

const zero = {
  ledgerSettledCredits: '0.00',
  reservedCredits: '0.00',
  releasedCredits: '0.00',
  failedCredits: '0.00',
  pendingCredits: '0.00',
};

function row(
  projectId: string,
  accountId: string | null,
  day: string | null,
  settled: string,
  extra: Partial<TeamUsageRow> = {},
): TeamUsageRow {
  return {
    projectId,
    projectName: { p_harbour: 'Harbour film', p_trailer: 'Trailer' }[projectId] ?? null,
    accountId,
    memberName: accountId ? ({ acc_sam: 'Sam Okafor', acc_morgan: 'Morgan Reyes' }[accountId] ?? null) : null,
    serviceKind: 'video_generation',
    day,
    credits: { ...zero, ledgerSettledCredits: settled },
    requestCount: 1,
    ...extra,
  };
}

describe('settled credits per day, stacked by project', () => {
  it('sums each project per day (over members and services) exactly, every day between the first and the last', () => {
    const rows = [
      row('p_harbour', 'acc_sam', '2026-11-24', '0.10'),
      row('p_harbour', 'acc_morgan', '2026-11-24', '0.20', { serviceKind: 'image_generation' }),
      row('p_trailer', 'acc_sam', '2026-11-24', '4.00'),
      row('p_harbour', 'acc_sam', '2026-11-26', '12.50'),
    ];
    expect(creditsPerDayByProject(rows, 2)).toEqual({
      days: ['2026-11-24', '2026-11-25', '2026-11-26'],
      projects: [
        // largest total first: the bottom of each stack
        { projectId: 'p_harbour', label: 'Harbour film', values: [0.3, 0, 12.5], total: '12.80' },
        { projectId: 'p_trailer', label: 'Trailer', values: [4, 0, 0], total: '4.00' },
      ],
      total: '16.80',
    });
  });

  it('charts settled credits only: reserved, pending, released and failed ones stay in the table', () => {
    const rows = [
      row('p_harbour', 'acc_sam', '2026-11-24', '1.00', {
        credits: { ...zero, ledgerSettledCredits: '1.00', reservedCredits: '9.00', pendingCredits: '9.00' },
      }),
    ];
    expect(creditsPerDayByProject(rows, 2).projects[0]!.values).toEqual([1]);
    expect(creditsPerMember(rows, 2)[0]!.credits).toBe('1.00');
  });

  it('names a project by its id when it has no name, and leaves rows without a day out of the days', () => {
    const data = creditsPerDayByProject(
      [row('p_unnamed', 'acc_sam', '2026-11-24', '2.00'), row('p_harbour', 'acc_sam', null, '5.00')],
      2,
    );
    expect(data.days).toEqual(['2026-11-24']);
    expect(data.projects.find((p) => p.projectId === 'p_unnamed')!.label).toBe('p_unnamed');
  });

  it('does not fill a span of more than a year day by day', () => {
    const data = creditsPerDayByProject(
      [row('p_harbour', 'acc_sam', '2020-01-01', '1.00'), row('p_harbour', 'acc_sam', '2026-11-24', '1.00')],
      2,
    );
    expect(data.days).toEqual(['2020-01-01', '2026-11-24']);
  });
});

describe('settled credits per member', () => {
  it('adds every project, service and day of a member, largest first, named by the directory', () => {
    const rows = [
      row('p_harbour', 'acc_sam', '2026-11-24', '0.10'),
      row('p_trailer', 'acc_sam', '2026-11-25', '0.20'),
      row('p_harbour', 'acc_morgan', '2026-11-24', '7.00'),
      row('p_harbour', 'acc_unknown', '2026-11-24', '0.05'),
    ];
    expect(creditsPerMember(rows, 2)).toEqual([
      { accountId: 'acc_morgan', label: 'Morgan Reyes', credits: '7.00', value: 7 },
      { accountId: 'acc_sam', label: 'Sam Okafor', credits: '0.30', value: 0.3 },
      { accountId: 'acc_unknown', label: 'acc_unknown', credits: '0.05', value: 0.05 },
    ]);
  });
});

describe('the figures’ freshness', () => {
  const asOf = '2026-11-27T14:02:00.000Z';
  const at = (minutes: number) => Date.parse(asOf) + minutes * 60_000;

  it('is the age in the largest whole unit', () => {
    expect(usageAge(asOf, at(0.5))).toEqual({ unit: 'now', count: 0 });
    expect(usageAge(asOf, at(-2))).toEqual({ unit: 'now', count: 0 });
    expect(usageAge(asOf, at(3))).toEqual({ unit: 'minutes', count: 3 });
    expect(usageAge(asOf, at(59.9))).toEqual({ unit: 'minutes', count: 59 });
    expect(usageAge(asOf, at(125))).toEqual({ unit: 'hours', count: 2 });
    expect(usageAge(asOf, at(3 * 24 * 60 + 5))).toEqual({ unit: 'days', count: 3 });
  });

  it('shows the time alone on the same day, the date as well on another', () => {
    expect(asOfClock(asOf, at(3), 'en', 'UTC')).toBe('14:02');
    expect(asOfClock(asOf, at(24 * 60), 'en', 'UTC')).toBe('Nov 27, 2026, 14:02');
  });

  it('reads "as of 14:02, 3 min ago" with the runtime’s own freshness word, in English and Chinese', async () => {
    const i18n = i18next.createInstance();
    await i18n.init({
      resources: {
        en: { translation: { ...en, team: { ...en.team, ...teamEn.team } } },
        'zh-CN': { translation: { ...zhCN, team: { ...zhCN.team, ...teamZhCN.team } } },
      },
      lng: 'en',
      interpolation: { escapeValue: false },
    });
    const usage = { asOf, freshness: 'realtime' };
    expect(freshnessText(usage, at(3), i18n.t, 'en', 'UTC')).toBe(
      'Figures as of 14:02, 3 min ago (realtime)',
    );
    expect(freshnessText(usage, at(0), i18n.t, 'en', 'UTC')).toBe('Figures as of 14:02, just now (realtime)');
    expect(freshnessText(usage, at(60), i18n.t, 'en', 'UTC')).toBe('Figures as of 14:02, 1 h ago (realtime)');
    await i18n.changeLanguage('zh-CN');
    expect(freshnessText(usage, at(3), i18n.t, 'zh-CN', 'UTC')).toBe('数据截至 14:02，3 分钟前（realtime）');
  });
});

describe('the Team screen’s own strings', () => {
  it('are merged into English when its chunk loads, and into Chinese when Chinese is loaded later', async () => {
    await i18next.init({ resources: { en: { translation: en } }, lng: 'en', fallbackLng: 'en' });
    expect(i18next.exists('team.asOfAge')).toBe(false);
    await import('../../../src/renderer/src/screens/team/team-i18n.js');
    expect(i18next.t('team.perMemberTitle')).toBe('Settled credits per member');
    expect(i18next.t('team.title')).toBe('Team'); // merged, not replaced
    i18next.addResourceBundle('zh-CN', 'translation', zhCN); // as applyLocale loads it
    await i18next.changeLanguage('zh-CN');
    expect(i18next.t('team.perMemberTitle')).toBe('每位成员的已结算点数');
    expect(i18next.t('team.title')).toBe('团队');
  });
});
