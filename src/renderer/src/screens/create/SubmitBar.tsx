import { useTranslation } from 'react-i18next';
import { useStudio } from '../../store';
import { UploadProgress } from './UploadProgress';

/** Generate, the uploads it starts, why it is disabled, and how the submit ended (Resend, Open queue). */
export function SubmitBar({ draftId, reason }: { draftId: string; reason: string | null }) {
  const { t } = useTranslation();
  const submitting = useStudio((s) => s.submitting);
  const outcome = useStudio((s) => s.submitOutcome);
  const submitDraft = useStudio((s) => s.submitDraft);
  const setSection = useStudio((s) => s.setSection);
  const generate = () => {
    // asked on the creator's click: a notice when a job ends while the studio is hidden
    if (typeof Notification !== 'undefined' && Notification.permission === 'default')
      void Notification.requestPermission().catch(() => undefined);
    void submitDraft();
  };
  const ok = outcome !== null && outcome.kind !== 'failed';
  return (
    <>
      <button
        type="button"
        className="button button-primary"
        data-testid="generate"
        disabled={reason !== null || submitting}
        aria-describedby="generate-reason"
        onClick={generate}
      >
        {submitting ? t('studio.create.generating') : t('studio.create.generate')}
      </button>
      <UploadProgress draftId={draftId} />
      {reason ? (
        <p id="generate-reason" className="hint" data-testid="generate-reason">
          {t('studio.create.whyDisabled', { reason })}
        </p>
      ) : null}
      {outcome ? (
        <div
          role={ok ? 'status' : 'alert'}
          data-testid="submit-status"
          className={ok ? 'ok-text' : 'error-text'}
        >
          <p>
            {outcome.kind === 'failed'
              ? outcome.message
              : outcome.kind === 'accepted'
                ? t('studio.create.submitted')
                : t('studio.create.submittedPending', { reason: outcome.reason })}
          </p>
          {outcome.kind === 'pending' ? (
            <button
              type="button"
              className="button"
              data-testid="resend"
              disabled={submitting}
              onClick={generate}
            >
              {t('studio.create.resend')}
            </button>
          ) : null}
          {ok ? (
            <button
              type="button"
              className="button"
              data-testid="open-queue"
              onClick={() => setSection('queue')}
            >
              {t('studio.create.openQueue')}
            </button>
          ) : null}
        </div>
      ) : null}
    </>
  );
}
