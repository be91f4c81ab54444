import { useTranslation } from 'react-i18next';
import type { Violation } from '../../../../shared/h3';

/** Violations next to the item they concern; translated by code, the engine's English as default. */
export function ViolationList({ violations, testId }: { violations: readonly Violation[]; testId?: string }) {
  const { t } = useTranslation();
  if (violations.length === 0) return null;
  return (
    // the alert is a wrapper: a list keeps its list semantics (a role on <ul> would remove them)
    <div role="alert" data-testid={testId}>
      <ul className="violations">
        {violations.map((v, i) => (
          <li key={`${v.code}-${i}`} className="violation" data-code={v.code}>
            {t(`violation.${v.code.replaceAll('.', '__')}`, { ...v.params, defaultValue: v.message })}
          </li>
        ))}
      </ul>
    </div>
  );
}
