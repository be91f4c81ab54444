/**
 * English strings of the Team screen's charts and figures' age, merged into `team` when the lazy
 * Team chunk loads (screens/team/team-i18n.ts), so they cost the first chunk nothing. Mirrored in
 * team-zh-CN.ts.
 */
export const teamEn = {
  team: {
    asOfAge: 'Figures as of {{time}}, {{age}} ({{freshness}})',
    age: {
      now: 'just now',
      minutes: '{{count}} min ago',
      hours: '{{count}} h ago',
      days: '{{count}} d ago',
    },
    charts: 'Charts of settled credits',
    perDayTitle: 'Settled credits per day, by project',
    perDaySummary:
      'Bar chart of settled credits per day from {{first}} to {{last}}, stacked by project: {{projects}}. Total {{total}}. The exact figures are in the table below.',
    perMemberTitle: 'Settled credits per member',
    perMemberSummary:
      'Bar chart of settled credits per member: {{members}}. The exact figures are in the table below.',
    chartEntry: '{{name}} {{credits}}',
    noChartData: 'No settled credits to chart yet.',
  },
};
