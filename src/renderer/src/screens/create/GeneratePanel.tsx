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

/**
 * Create's action bar, sticky at the bottom of the screen's scroll area: what will be billed, the
 * admission check (the platform's dry-run) with its answer and cost, and Generate / Generate ×N.
 */
export function GeneratePanel({ draftId, form, service, disabled, reason, invalid }: Props) {
  const { t } = useTranslation();
  return (
    <div
      className="create-action-bar"
      role="group"
      aria-labelledby="before-title"
      data-testid="create-action-bar"
    >
      <h2 id="before-title" className="sr-only">
        {t('studio.create.beforeGenerating')}
      </h2>
      <div className="action-bar-status">
        <p data-testid="billing-summary" className="hint small">
          {t('studio.create.billing', {
            seconds: form.seconds,
            tier: form.resolutionTier,
            orientation: form.orientation,
            model: service.displayName,
          })}
        </p>
        <AdmissionCheck disabled={disabled || invalid} />
      </div>
      <SubmitBar draftId={draftId} reason={reason} />
    </div>
  );
}
