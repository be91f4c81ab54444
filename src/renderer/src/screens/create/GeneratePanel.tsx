import { useTranslation } from 'react-i18next';
import type { DraftForm, ServiceEntryView } from '../../../../shared/bridge/contract';
import { AdmissionCheck } from './AdmissionCheck';
import { SubmitBar } from './SubmitBar';

interface Props {
  draftId: string;
  form: DraftForm;
  service: ServiceEntryView;
  /** The draft was sent or its service cannot be called. */
  disabled: boolean;
  /** Why Generate is disabled (null: it is not). */
  reason: string | null;
  invalid: boolean;
}

/** "Before generating": what will be billed, the admission check, and Generate. */
export function GeneratePanel({ draftId, form, service, disabled, reason, invalid }: Props) {
  const { t } = useTranslation();
  return (
    <div className="panel" aria-labelledby="before-title">
      <h2 id="before-title">{t('studio.create.beforeGenerating')}</h2>
      <p data-testid="billing-summary">
        {t('studio.create.billing', {
          seconds: form.seconds,
          tier: form.resolutionTier,
          orientation: form.orientation,
          model: service.displayName,
        })}
      </p>
      <AdmissionCheck disabled={disabled || invalid} />
      <SubmitBar draftId={draftId} reason={reason} />
    </div>
  );
}
