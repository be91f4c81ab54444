import { useTranslation } from 'react-i18next';
import type { DraftForm } from '../../../../shared/bridge/contract';
import { unusedInputs, type EffectiveLimits } from '../../../../shared/h3';
import { toVideoDraft } from './form-model';

/** What the chosen mode leaves unused (kept in the draft, not sent). */
export function UnusedInputs({ form, limits }: { form: DraftForm; limits: EffectiveLimits }) {
  const { t } = useTranslation();
  const unused = unusedInputs(toVideoDraft(form), form.generationMode, limits);
  if (!unused.length) return null;
  return (
    <div className="notice" data-testid="unused-inputs">
      <p>{t('studio.create.modeSwitchUnused')}</p>
      <ul>
        {unused.map((u) => (
          <li key={`${u.code}-${u.field ?? ''}`} data-code={u.code}>
            {t(`studio.unused.${u.code.replace('mode_switch.', '')}`, {
              ...u.params,
              defaultValue: u.message,
            })}
          </li>
        ))}
      </ul>
    </div>
  );
}
