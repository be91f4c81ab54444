import { BarController, BarElement, CategoryScale, Chart, Legend, LinearScale, Tooltip } from 'chart.js';
import type { ChartConfiguration } from 'chart.js';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TeamUsage } from '../../../../shared/bridge/contract';
import { creditsPerDayByProject, creditsPerMember } from './usage-charts-data';

// Only what two bar charts use (Chart.js is tree-shaken to these); this module is reached only
// from the lazy Team screen, so none of it is in the first chunk.
Chart.register(BarController, BarElement, CategoryScale, LinearScale, Tooltip, Legend);

/** Distinct on both themes' panels; a project past the eighth takes the first colour again. */
const PALETTE = ['#4f46e5', '#0891b2', '#d97706', '#16a34a', '#db2777', '#7c3aed', '#64748b', '#dc2626'];

/** The theme's text and grid colours, read from its CSS variables when a chart is drawn. */
function themeColours() {
  const style = getComputedStyle(document.documentElement);
  const read = (name: string, fallback: string) => style.getPropertyValue(name).trim() || fallback;
  return {
    text: read('--text', '#16181d'),
    muted: read('--muted', '#5d6470'),
    grid: read('--border', '#dfe3ea'),
  };
}

/** The config with the theme's colours on its axes, grid and legend. */
function themed(config: ChartConfiguration<'bar'>): ChartConfiguration<'bar'> {
  const { text, muted, grid } = themeColours();
  const options = config.options ?? {};
  const axis = (scale: object | undefined) => ({
    ...scale,
    ticks: { color: muted },
    grid: { color: grid },
  });
  return {
    ...config,
    options: {
      ...options,
      scales: { x: axis(options.scales?.x), y: axis(options.scales?.y) },
      plugins: { ...options.plugins, legend: { ...options.plugins?.legend, labels: { color: text } } },
    },
  };
}

/** The theme the page shows (`data-theme` on the root element), followed live. */
function usePageTheme(): string | undefined {
  const [theme, setTheme] = useState(() => document.documentElement.dataset.theme);
  useEffect(() => {
    const observer = new MutationObserver(() => setTheme(document.documentElement.dataset.theme));
    observer.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] });
    return () => observer.disconnect();
  }, []);
  return theme;
}

/**
 * A Chart.js bar chart on a canvas that assistive technology reads as one image with `label`
 * (the exact table beside it is the accessible source of truth). Redrawn when its data changes,
 * recoloured when the theme does.
 */
function BarChart({
  config,
  label,
  testId,
  height,
}: {
  config: ChartConfiguration<'bar'>;
  label: string;
  testId: string;
  /** CSS pixels; the stylesheet's height when absent. */
  height?: number;
}) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const theme = usePageTheme();
  useEffect(() => {
    // drawn anew on a theme change: its colours come from the theme's CSS variables
    const chart = new Chart(canvas.current!, themed(config));
    return () => chart.destroy();
  }, [config, theme]);
  return (
    <div className="team-chart-canvas" style={height ? { height } : undefined}>
      <canvas ref={canvas} role="img" aria-label={label} data-testid={testId} />
    </div>
  );
}

const baseOptions = (horizontal: boolean): ChartConfiguration<'bar'>['options'] => ({
  responsive: true,
  maintainAspectRatio: false,
  animation: false,
  indexAxis: horizontal ? 'y' : 'x',
  scales: {
    x: { stacked: !horizontal, beginAtZero: true },
    y: { stacked: !horizontal, beginAtZero: true },
  },
});

/** Settled credits per day stacked by project, and per member, from the usage rows. */
export function TeamCharts({ usage }: { usage: TeamUsage }) {
  const { t } = useTranslation();
  const perDay = useMemo(() => creditsPerDayByProject(usage.rows, usage.amountScale), [usage]);
  const perMember = useMemo(() => creditsPerMember(usage.rows, usage.amountScale), [usage]);

  const dayConfig = useMemo<ChartConfiguration<'bar'>>(
    () => ({
      type: 'bar',
      data: {
        labels: perDay.days,
        datasets: perDay.projects.map((p, i) => ({
          label: p.label,
          data: p.values,
          backgroundColor: PALETTE[i % PALETTE.length],
          maxBarThickness: 48,
        })),
      },
      options: baseOptions(false),
    }),
    [perDay],
  );
  const memberConfig = useMemo<ChartConfiguration<'bar'>>(
    () => ({
      type: 'bar',
      data: {
        labels: perMember.map((m) => m.label),
        datasets: [
          {
            label: t('team.credits.ledgerSettledCredits'),
            data: perMember.map((m) => m.value),
            backgroundColor: PALETTE[0],
            maxBarThickness: 32,
          },
        ],
      },
      options: { ...baseOptions(true), plugins: { legend: { display: false } } },
    }),
    [perMember, t],
  );

  const entries = (items: { label: string; credits: string }[]) =>
    items.map((item) => t('team.chartEntry', { name: item.label, credits: item.credits })).join(', ');

  return (
    <div className="team-charts" role="group" aria-label={t('team.charts')}>
      <figure className="team-chart">
        <figcaption>{t('team.perDayTitle')}</figcaption>
        {perDay.days.length === 0 ? (
          <p className="muted">{t('team.noChartData')}</p>
        ) : (
          <BarChart
            config={dayConfig}
            testId="team-chart-per-day"
            label={t('team.perDaySummary', {
              first: perDay.days[0],
              last: perDay.days.at(-1),
              projects: entries(perDay.projects.map((p) => ({ label: p.label, credits: p.total }))),
              total: perDay.total,
            })}
          />
        )}
      </figure>
      <figure className="team-chart">
        <figcaption>{t('team.perMemberTitle')}</figcaption>
        {perMember.length === 0 ? (
          <p className="muted">{t('team.noChartData')}</p>
        ) : (
          <BarChart
            config={memberConfig}
            testId="team-chart-per-member"
            height={Math.max(256, 40 + 28 * perMember.length)}
            label={t('team.perMemberSummary', { members: entries(perMember) })}
          />
        )}
      </figure>
    </div>
  );
}
