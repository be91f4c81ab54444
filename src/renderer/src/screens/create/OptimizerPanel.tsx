import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { countPromptCodePoints, type EffectiveLimits } from '../../../../shared/h3';
import { useStudio } from '../../store';
import { diffWords } from './word-diff';

interface Props {
  limits: EffectiveLimits;
  style: string;
  disabled: boolean;
  invalid: boolean;
  onStyle(style: string): void;
  onAccept(prompt: string): void;
}

/** The optional optimizer: a separate billed call; original and optimized side by side. */
export function OptimizerPanel({ limits, style, disabled, invalid, onStyle, onAccept }: Props) {
  const { t } = useTranslation();
  const optimizePrompt = useStudio((s) => s.optimizePrompt);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [result, setResult] = useState<{ original: string; optimized: string } | null>(null);
  const [editing, setEditing] = useState<string | null>(null);
  const opt = limits.optimization;
  const trim = limits.prompt.trim;

  if (!opt.available)
    return (
      <div className="panel">
        <h2>{t('studio.create.optimizer')}</h2>
        <p className="hint">{t('studio.create.optimizerUnavailable')}</p>
      </div>
    );

  const run = async () => {
    setBusy(true);
    setError(null);
    setEditing(null);
    try {
      const r = await optimizePrompt(opt.styleAllowed && style.trim() ? style : undefined);
      setResult({ original: r.originalPrompt, optimized: r.optimizedPrompt });
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="panel" aria-labelledby="optimizer-title" data-testid="optimizer">
      <h2 id="optimizer-title">{t('studio.create.optimizer')}</h2>
      <p className="hint" data-testid="optimizer-billed">
        {t('studio.create.optimizerBilled')}
      </p>
      {opt.styleAllowed ? (
        <div className="field">
          <label className="field-label" htmlFor="optimizer-style">
            {t('studio.create.style')}
          </label>
          <input
            id="optimizer-style"
            data-testid="optimizer-style"
            className="input"
            value={style}
            maxLength={opt.style.maxCodePoints * 2}
            disabled={disabled}
            onChange={(e) => onStyle(e.target.value)}
          />
        </div>
      ) : null}
      <button
        type="button"
        className="button"
        data-testid="optimize"
        disabled={disabled || busy || invalid}
        onClick={() => void run()}
      >
        {busy
          ? t('studio.create.optimizing', { seconds: opt.clientTimeoutSeconds })
          : t('studio.create.optimize')}
      </button>
      {error ? (
        <p role="alert" className="error-text" data-testid="optimizer-error">
          {error}
        </p>
      ) : null}
      {result ? (
        <div className="compare-prompts">
          <div className="prompt-col" data-testid="optimizer-original">
            <h3>
              {t('studio.create.original')}{' '}
              <span className="muted small">{countPromptCodePoints(result.original, trim)}</span>
            </h3>
            <p className="prompt-text">{result.original}</p>
          </div>
          <div className="prompt-col" data-testid="optimizer-optimized">
            <h3>
              {t('studio.create.optimized')}{' '}
              <span className="muted small" data-testid="optimized-count">
                {countPromptCodePoints(editing ?? result.optimized, trim)}
              </span>
            </h3>
            {editing !== null ? (
              <textarea
                className="input textarea"
                data-testid="optimized-edit"
                value={editing}
                onChange={(e) => setEditing(e.target.value)}
              />
            ) : (
              <p className="prompt-text">
                {diffWords(result.original, result.optimized).map((part, i) =>
                  part.added ? <mark key={i}>{part.text}</mark> : <span key={i}>{part.text}</span>,
                )}
              </p>
            )}
          </div>
          <div className="row">
            <button
              type="button"
              className="button"
              data-testid="optimizer-accept"
              disabled={disabled}
              onClick={() => {
                onAccept(editing ?? result.optimized);
                setResult(null);
                setEditing(null);
              }}
            >
              {t('studio.create.accept')}
            </button>
            {editing === null ? (
              <button
                type="button"
                className="button button-secondary"
                data-testid="optimizer-edit"
                onClick={() => setEditing(result.optimized)}
              >
                {t('studio.create.edit')}
              </button>
            ) : null}
            <button
              type="button"
              className="button button-secondary"
              data-testid="optimizer-discard"
              onClick={() => {
                setResult(null);
                setEditing(null);
              }}
            >
              {t('studio.create.discard')}
            </button>
          </div>
        </div>
      ) : null}
    </div>
  );
}
