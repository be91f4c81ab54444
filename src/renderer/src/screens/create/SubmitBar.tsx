import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { VARIATION_COUNT_MAX, VARIATION_COUNT_MIN } from '../../../../shared/bridge/names';
import { useStudio } from '../../store';
import type { SubmitOutcome } from '../../store/create-slice';
import {
  generate,
  generateBlocked,
  generateVariations,
  isMac,
  onGenerateShortcut,
  sendDraft,
} from './generate-action';
import { UploadProgress } from './UploadProgress';

const VARIATION_COUNTS = Array.from(
  { length: VARIATION_COUNT_MAX - VARIATION_COUNT_MIN + 1 },
  (_, i) => VARIATION_COUNT_MIN + i,
);

/**
 * Generate (Ctrl/⌘+Enter anywhere in Create) and Generate ×N, the uploads they start, why they are
 * disabled, and how the submit ended (Resend, Open queue). Buttons, shortcut and the ×N picker
 * follow one rule, `generateBlocked`.
 */
export function SubmitBar({ draftId, reason }: { draftId: string; reason: string | null }) {
  const { t } = useTranslation();
  const submitting = useStudio((s) => s.submitting);
  const draft = useStudio((s) => s.draft);
  const outcome = useStudio((s) => s.submitOutcome);
  const setSection = useStudio((s) => s.setSection);
  const [count, setCount] = useState(3);
  const actions = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      // from anywhere in Create (a focused field, or nothing focused), not from a dialog over it
      const target = event.target as Node | null;
      const inCreate = target === document.body || actions.current?.closest('section')?.contains(target);
      if (inCreate && !event.defaultPrevented) onGenerateShortcut(event, reason);
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [reason]);

  const ok = outcome !== null && outcome.kind !== 'failed';
  const disabled = generateBlocked(reason, { submitting, draft });
  const mac = isMac();
  return (
    <>
      <div className="action-bar-actions" ref={actions}>
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
          onClick={() => generateVariations(reason, count)}
        >
          {t('studio.create.variations.generate', { count })}
        </button>
        <button
          type="button"
          className="button button-primary button-generate"
          data-testid="generate"
          disabled={disabled}
          aria-describedby="generate-reason"
          aria-keyshortcuts="Control+Enter Meta+Enter"
          onClick={() => generate(reason)}
        >
          {submitting ? t('studio.create.generating') : t('studio.create.generate')}
          <kbd className="shortcut-hint" aria-hidden="true" data-testid="generate-shortcut">
            {mac ? t('studio.create.shortcutMac') : t('studio.create.shortcut')}
          </kbd>
        </button>
      </div>
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
              onClick={sendDraft}
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
