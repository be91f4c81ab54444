import type { RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import type { DraftForm } from '../../../../shared/bridge/contract';
import {
  countPromptCodePoints,
  findStaleLabels,
  numberReferences,
  violationsFor,
  type EffectiveLimits,
  type StaleLabel,
  type Violation,
} from '../../../../shared/h3';
import { useStudio } from '../../store';
import { ViolationList } from './ViolationList';

interface Props {
  form: DraftForm;
  limits: EffectiveLimits;
  violations: readonly Violation[];
  disabled: boolean;
  /** Labels a reordering or removal left in the prompt without their reference. */
  orphaned: StaleLabel[];
  promptRef: RefObject<HTMLTextAreaElement | null>;
}

/** The prompt, its length as the service counts it, its violations, and reference labels gone stale. */
export function PromptField({ form, limits, violations, disabled, orphaned, promptRef }: Props) {
  const { t } = useTranslation();
  const editForm = useStudio((s) => s.editForm);
  const stale = findStaleLabels(form.prompt, numberReferences(form.references));
  const count = countPromptCodePoints(form.prompt, limits.prompt.trim);
  return (
    <div className="panel" aria-labelledby="prompt-title">
      <h2 id="prompt-title">{t('studio.create.prompt')}</h2>
      <textarea
        ref={promptRef}
        id="prompt"
        data-testid="prompt"
        className="input textarea"
        aria-labelledby="prompt-title"
        aria-describedby="prompt-count"
        value={form.prompt}
        disabled={disabled}
        onChange={(e) => editForm({ prompt: e.target.value })}
      />
      <p
        id="prompt-count"
        data-testid="prompt-count"
        className={count > limits.prompt.maxCodePoints ? 'count count-over' : 'count'}
      >
        {t('studio.create.promptCount', { count, max: limits.prompt.maxCodePoints })}
      </p>
      <p className="hint">{t('studio.create.promptHint')}</p>
      <ViolationList violations={violationsFor(violations, 'prompt')} testId="violations-prompt" />
      {stale.length || orphaned.length ? (
        <ul className="warnings" data-testid="stale-labels">
          {stale.map((s) => (
            <li key={`s-${s.params.start}`}>{t('studio.create.staleLabel', { label: s.params.label })}</li>
          ))}
          {orphaned
            .filter((o) => form.prompt.includes(o.params.label))
            .map((o) => (
              <li key={`o-${o.params.start}`}>
                {t('studio.create.orphanedLabel', { label: o.params.label })}
              </li>
            ))}
        </ul>
      ) : null}
    </div>
  );
}
