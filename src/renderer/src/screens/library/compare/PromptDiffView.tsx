import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { promptDiff } from '../../../../../shared/compare/prompt-diff';

/**
 * B's prompt against A's, word by word: words only in A are struck through, words only in B are
 * underlined, and both carry a spoken "only in A:" / "only in B:" (never color alone).
 */
export function PromptDiffView({ a, b }: { a: string; b: string }) {
  const { t } = useTranslation();
  const diff = useMemo(() => promptDiff(a, b), [a, b]);
  return (
    <section
      className="prompt-diff"
      data-testid="compare-prompt-diff"
      aria-labelledby="compare-prompt-diff-title"
    >
      <h3 id="compare-prompt-diff-title">{t('studio.compare.promptDiff')}</h3>
      <p className="muted small" data-testid="compare-prompt-summary">
        {diff.identical
          ? t('studio.compare.promptSame')
          : t('studio.compare.promptSummary', { removed: diff.removedWords, added: diff.addedWords })}
      </p>
      <p className="prompt-text">
        {diff.parts.map((part, i) =>
          part.kind === 'same' ? (
            <span key={i}>{part.text}</span>
          ) : part.kind === 'removed' ? (
            <del key={i} className="diff-removed" data-testid="compare-prompt-removed">
              <span className="sr-only">{t('studio.compare.onlyInA')} </span>
              {part.text}
              <span className="sr-only"> {t('studio.compare.endOfChange')}</span>
            </del>
          ) : (
            <ins key={i} className="diff-added" data-testid="compare-prompt-added">
              <span className="sr-only">{t('studio.compare.onlyInB')} </span>
              {part.text}
              <span className="sr-only"> {t('studio.compare.endOfChange')}</span>
            </ins>
          ),
        )}
      </p>
    </section>
  );
}
