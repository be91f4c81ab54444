import type { teamEn } from './team-en';

/** Simplified Chinese strings of the Team screen's charts and figures' age (see team-en.ts). */
export const teamZhCN: typeof teamEn = {
  team: {
    asOfAge: '数据截至 {{time}}，{{age}}（{{freshness}}）',
    age: {
      now: '刚刚',
      minutes: '{{count}} 分钟前',
      hours: '{{count}} 小时前',
      days: '{{count}} 天前',
    },
    charts: '已结算点数图表',
    perDayTitle: '每日已结算点数（按项目堆叠）',
    perDaySummary:
      '柱状图：{{first}} 至 {{last}} 每日已结算点数，按项目堆叠：{{projects}}。合计 {{total}}。精确数字见下方表格。',
    perMemberTitle: '每位成员的已结算点数',
    perMemberSummary: '柱状图：每位成员的已结算点数：{{members}}。精确数字见下方表格。',
    chartEntry: '{{name}} {{credits}}',
    noChartData: '还没有可绘制的已结算点数。',
  },
};
