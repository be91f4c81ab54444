import { Fragment, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { JobDetail } from '../../../../../shared/bridge/contract';
import { compareSettings, type SettingGroup } from '../../../../../shared/compare/settings-diff';

const GROUPS: readonly SettingGroup[] = ['request', 'reference', 'effective', 'timing'];

/** Every setting that differs between A and B, grouped; "show all" adds the equal ones. */
export function SettingsTable({ a, b }: { a: JobDetail; b: JobDetail }) {
  const { t } = useTranslation();
  const [showAll, setShowAll] = useState(false);
  const all = useMemo(() => compareSettings(a, b), [a, b]);
  const rows = showAll ? all : all.filter((r) => r.differs);
  const label = (name: string, fallback: string) =>
    t(`studio.compare.name.${name}`, { defaultValue: fallback });
  return (
    <section
      className="compare-settings"
      data-testid="compare-settings"
      aria-labelledby="compare-settings-title"
    >
      <div className="row">
        <h3 id="compare-settings-title">{t('studio.compare.settings')}</h3>
        <label className="small">
          <input
            type="checkbox"
            data-testid="compare-settings-all"
            checked={showAll}
            onChange={(e) => setShowAll(e.target.checked)}
          />{' '}
          {t('studio.compare.settingsAll')}
        </label>
      </div>
      {rows.length === 0 ? (
        <p className="muted" data-testid="compare-settings-none">
          {t('studio.compare.settingsNone')}
        </p>
      ) : (
        <table className="spec-table compare-table">
          <thead>
            <tr>
              <th scope="col">{t('studio.compare.setting')}</th>
              <th scope="col">A</th>
              <th scope="col">B</th>
              {showAll ? <th scope="col">{t('studio.compare.state')}</th> : null}
            </tr>
          </thead>
          <tbody>
            {GROUPS.map((group) => {
              const inGroup = rows.filter((r) => r.group === group);
              if (inGroup.length === 0) return null;
              return (
                <Fragment key={group}>
                  <tr className="compare-group">
                    <th scope="colgroup" colSpan={showAll ? 4 : 3}>
                      {t(`studio.compare.group.${group}`)}
                    </th>
                  </tr>
                  {inGroup.map((r) => (
                    <tr
                      key={r.name}
                      data-testid={`compare-setting-${r.name}`}
                      data-differs={r.differs ? 'true' : 'false'}
                      className={r.differs ? 'compare-differs' : undefined}
                    >
                      <th scope="row">
                        {r.group === 'request' || r.group === 'timing' ? label(r.name, r.label) : r.label}
                      </th>
                      <td className="compare-value">{r.a ?? '—'}</td>
                      <td className="compare-value">{r.b ?? '—'}</td>
                      {showAll ? (
                        <td>{r.differs ? t('studio.compare.differs') : t('studio.compare.same')}</td>
                      ) : null}
                    </tr>
                  ))}
                </Fragment>
              );
            })}
          </tbody>
        </table>
      )}
    </section>
  );
}
