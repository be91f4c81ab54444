import { Dialog } from 'radix-ui';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { COLLECTION_NAME_MAX_CHARS } from '../../../../../shared/library-review';
import { nameProblem, type InputProblem } from '../../../store/review-store';

/**
 * Asks for a collection's name (a new one, or a rename): a name that is empty or too long is said
 * so in place and nothing is sent; a refusal of the core is shown and the name kept.
 */
export function NameDialog({
  title,
  submitLabel,
  initial = '',
  error,
  onSubmit,
  onClose,
}: {
  title: string;
  submitLabel: string;
  initial?: string;
  /** Why the last try failed (the core's words). */
  error: string | null;
  /** Sends the name; answers whether it went through (the dialog then closes). */
  onSubmit(name: string): Promise<boolean>;
  onClose(): void;
}) {
  const { t } = useTranslation();
  const [name, setName] = useState(initial);
  const [problem, setProblem] = useState<InputProblem | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async () => {
    const wrong = nameProblem(name);
    setProblem(wrong);
    if (wrong || busy) return;
    setBusy(true);
    const ok = await onSubmit(name);
    setBusy(false);
    if (ok) onClose();
  };
  return (
    <Dialog.Root open onOpenChange={(open) => !open && onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content
          className="dialog-content dialog-narrow"
          data-testid="collection-name-dialog"
          aria-describedby={undefined}
        >
          <Dialog.Title>{title}</Dialog.Title>
          <form
            className="stack"
            onSubmit={(e) => {
              e.preventDefault();
              void submit();
            }}
          >
            <label className="field">
              <span className="field-label">{t('review.collections.name')}</span>
              <input
                className="input"
                data-testid="collection-name"
                value={name}
                maxLength={COLLECTION_NAME_MAX_CHARS + 1}
                aria-invalid={problem !== null}
                autoFocus
                onChange={(e) => setName(e.target.value)}
              />
            </label>
            {problem ? (
              <p role="alert" className="error-text small" data-testid="collection-name-problem">
                {t(`review.collections.problem.${problem}`, { max: COLLECTION_NAME_MAX_CHARS })}
              </p>
            ) : null}
            {error ? (
              <p role="alert" className="error-banner small">
                {t('errors.generic', { message: error })}
              </p>
            ) : null}
            <div className="row">
              <button
                type="submit"
                className="button button-primary"
                data-testid="collection-name-submit"
                disabled={busy}
              >
                {submitLabel}
              </button>
              <Dialog.Close className="button button-secondary">
                {t('review.collections.cancel')}
              </Dialog.Close>
            </div>
          </form>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
