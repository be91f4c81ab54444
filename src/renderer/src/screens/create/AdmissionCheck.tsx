import { useTranslation } from 'react-i18next';
import { useStudio } from '../../store';

/** Asks the platform whether it would admit the draft now; the answer holds until the form changes. */
export function AdmissionCheck({ disabled }: { disabled: boolean }) {
  const { t } = useTranslation();
  const admission = useStudio((s) => s.admission);
  const checkAdmission = useStudio((s) => s.checkAdmission);
  const refused =
    admission?.kind === 'failed' || (admission?.kind === 'answered' && admission.admitted === false);
  return (
    <>
      <button
        type="button"
        className="button button-secondary"
        data-testid="check-admission"
        disabled={disabled}
        onClick={() => void checkAdmission()}
      >
        {t('studio.create.checkAdmission')}
      </button>
      {admission ? (
        <p data-testid="admission-result" className={refused ? 'error-text' : 'ok-text'}>
          {admission.kind === 'failed'
            ? admission.message
            : admission.admitted === false
              ? t('studio.create.notAdmitted', { reason: admission.reason })
              : t('studio.create.admitted')}
        </p>
      ) : null}
      {admission?.kind === 'answered' && admission.cost ? (
        <p data-testid="admission-cost">{t('studio.create.estimatedCost', { cost: admission.cost })}</p>
      ) : null}
    </>
  );
}
