import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { CreditAmounts } from '../../../../shared/bridge/contract';
import { useStudio } from '../../store';
// the charts (and Chart.js) are in the Team screen's lazy chunk, never in the first one
import { TeamCharts } from './TeamCharts';
import './team-i18n';
import { freshnessText } from './usage-charts-data';
import './team.css';

/** The current time, renewed every `everyMs` (the figures' age stays true while the screen is open). */
function useNow(everyMs: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), everyMs);
    return () => window.clearInterval(timer);
  }, [everyMs]);
  return now;
}

const COLUMNS: (keyof CreditAmounts)[] = [
  'ledgerSettledCredits',
  'reservedCredits',
  'releasedCredits',
  'failedCredits',
  'pendingCredits',
];

/**
 * Team (organization managers only): the group tree, the members of a group, the usage charts
 * (settled credits per day by project, per member) and the exact usage table they are drawn from.
 */
export function TeamScreen() {
  const { t, i18n } = useTranslation();
  const now = useNow(30_000);
  const manager = useStudio((s) => s.teamManager);
  const groups = useStudio((s) => s.teamGroups);
  const groupId = useStudio((s) => s.teamGroupId);
  const members = useStudio((s) => s.teamMembers);
  const usage = useStudio((s) => s.teamUsage);
  const error = useStudio((s) => s.teamError);
  const loading = useStudio((s) => s.teamLoading);
  const loadTeam = useStudio((s) => s.loadTeam);
  const selectGroup = useStudio((s) => s.selectTeamGroup);
  const searchMembers = useStudio((s) => s.searchTeamMembers);
  const [search, setSearch] = useState('');

  useEffect(() => {
    void loadTeam();
  }, [loadTeam]);

  if (manager !== true) return <p className="muted">{t('team.managersOnly')}</p>;

  return (
    <section className="team" aria-labelledby="team-title">
      <h1 id="team-title">{t('team.title')}</h1>
      {error ? (
        <p role="alert" className="error-banner">
          {t('errors.generic', { message: error })}
        </p>
      ) : null}
      <div className="team-directory">
        <nav aria-label={t('team.groups')} className="team-groups">
          <h2>{t('team.groups')}</h2>
          <ul>
            <li>
              <button type="button" aria-pressed={groupId === null} onClick={() => void selectGroup(null)}>
                {t('team.wholeOrganization')}
              </button>
            </li>
            {groups.map((g) => (
              <li key={g.groupId} style={{ paddingInlineStart: `${g.depth}rem` }}>
                <button
                  type="button"
                  aria-pressed={groupId === g.groupId}
                  onClick={() => void selectGroup(g.groupId)}
                >
                  {g.name} <span className="muted">({g.branchMemberCount})</span>
                </button>
              </li>
            ))}
          </ul>
        </nav>
        <div className="team-members">
          <h2>{t('team.members')}</h2>
          <form
            role="search"
            onSubmit={(event) => {
              event.preventDefault();
              void searchMembers(search);
            }}
          >
            <input
              type="search"
              aria-label={t('team.searchMembers')}
              placeholder={t('team.searchMembers')}
              maxLength={100}
              value={search}
              onChange={(event) => setSearch(event.target.value)}
            />
            <button type="submit" disabled={loading}>
              {t('team.search')}
            </button>
          </form>
          {members ? (
            <>
              <p className="muted">{t('team.memberCount', { count: members.total })}</p>
              <table>
                <thead>
                  <tr>
                    <th>{t('team.name')}</th>
                    <th>{t('team.group')}</th>
                    <th>{t('team.appRoles')}</th>
                  </tr>
                </thead>
                <tbody>
                  {members.items.map((m) => (
                    <tr key={m.membershipId}>
                      <td>{m.displayName}</td>
                      <td>{m.groupPath.join(' › ')}</td>
                      <td>{m.appRoles.join(', ')}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </>
          ) : null}
        </div>
      </div>
      <h2>{t('team.usage')}</h2>
      {usage ? (
        <>
          <p className="muted" data-testid="team-usage-as-of">
            {freshnessText(usage, now, t, i18n.language)}
          </p>
          {usage.rows.length > 0 ? <TeamCharts usage={usage} /> : null}
          {usage.rows.length === 0 ? (
            <p className="muted">{t('team.noUsage')}</p>
          ) : (
            <table className="team-usage">
              <thead>
                <tr>
                  <th>{t('team.project')}</th>
                  <th>{t('team.member')}</th>
                  <th>{t('team.serviceKind')}</th>
                  <th>{t('team.day')}</th>
                  {COLUMNS.map((c) => (
                    <th key={c} className="num">
                      {t(`team.credits.${c}`)}
                    </th>
                  ))}
                  <th className="num">{t('team.requests')}</th>
                </tr>
              </thead>
              <tbody>
                {usage.rows.map((r) => (
                  <tr key={[r.projectId, r.accountId, r.serviceKind, r.day].join('|')}>
                    <td>{r.projectName ?? r.projectId}</td>
                    <td>{r.memberName ?? r.accountId ?? ''}</td>
                    <td>{r.serviceKind ?? ''}</td>
                    <td>{r.day ?? ''}</td>
                    {COLUMNS.map((c) => (
                      <td key={c} className="num">
                        {r.credits[c]}
                      </td>
                    ))}
                    <td className="num">{r.requestCount}</td>
                  </tr>
                ))}
              </tbody>
              <tfoot>
                <tr>
                  <th colSpan={4}>{t('team.totals')}</th>
                  {COLUMNS.map((c) => (
                    <td key={c} className="num">
                      {usage.totals[c]}
                    </td>
                  ))}
                  <td className="num">{usage.requestCount}</td>
                </tr>
              </tfoot>
            </table>
          )}
          <p className="muted">{t('team.notIncome')}</p>
        </>
      ) : null}
    </section>
  );
}
