import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { VARIATION_COUNT_MAX, VARIATION_COUNT_MIN } from '../../../../shared/bridge/names';
import { useStudio } from '../../store';
import type { SubmitOutcome } from '../../store/create-slice';
import { UploadProgress } from './UploadProgress';

const VARIATION_COUNTS = Array.from(
  { length: VARIATION_COUNT_MAX - VARIATION_COUNT_MIN + 1 },
  (_, i) => VARIATION_COUNT_MIN + i,
);

/** Generate and Generate ×N, the uploads they start, why they are disabled, and how the submit ended (Resend, Open queue). */
export function SubmitBar({ draftId, reason }: { draftId: string; reason: string | null }) {
  const { t } = useTranslation();
  const submitting = useStudio((s) => s.submitting);
  const outcome = useStudio((s) => s.submitOutcome);
  const submitDraft = useStudio((s) => s.submitDraft);
  const submitVariations = useStudio((s) => s.submitVariations);
  const setSection = useStudio((s) => s.setSection);
  const [count, setCount] = useState(3);
  const askToNotify = () => {
    // asked on the creator's click: a notice when a job ends while the studio is hidden
    if (typeof Notification !== 'undefined' && Notification.permission === 'default')
      void Notification.requestPermission().catch(() => undefined);
  };
  const generate = () => {
    askToNotify();
    void submitDraft();
  };
  const generateVariations = () => {
    // a second click while the first runs is refused here and joined by the core anyway
    if (useStudio.getState().submitting) return;
    askToNotify();
    void submitVariations(count);
  };
  const ok = outcome !== null && outcome.kind !== 'failed';
  const disabled = reason !== null || submitting;
  return (
    <>
      <button
        type="button"
        className="button button-primary"
        data-testid="generate"
        disabled={disabled}
        aria-describedby="generate-reason"
        onClick={generate}
      >
        {submitting ? t('studio.create.generating') : t('studio.create.generate')}
      </button>
      <span className="variations-control">
        <label className="small">
          <select
            className="input"
            data-testid="variations-count"
            aria-label={t('studio.create.variations.count')}
            value={count}
            disabled={disabled}
            onChange={(e) => setCount(Number(e.target.value))}
          >
            {VARIATION_COUNTS.map((n) => (
              <option key={n} value={n}>
                ×{n}
              </option>
            ))}
          </select>
        </label>
        <button
          type="button"
          className="button"
          data-testid="generate-variations"
          disabled={disabled}
          aria-describedby="generate-reason"
          title={t('studio.create.variations.hint', { count })}
          onClick={generateVariations}
        >
          {t('studio.create.variations.generate', { count })}
        </button>
      </span>
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
          <p>{outcomeText(outcome, t)}</p>
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

function outcomeText(outcome: SubmitOutcome, t: (key: string, options?: Record<string, unknown>) => string) {
  switch (outcome.kind) {
    case 'failed':
      return outcome.message;
    case 'accepted':
      return t('studio.create.submitted');
    case 'pending':
      return t('studio.create.submittedPending', { reason: outcome.reason });
    case 'variations':
      return outcome.refused === 0
        ? t('studio.create.variations.submitted', { count: outcome.count })
        : t('studio.create.variations.partly', { ...outcome });
  }
}
