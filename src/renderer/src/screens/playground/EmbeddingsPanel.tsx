import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useStudio } from '../../store';
import { Counter, ErrorAlert, ModelSelect, Panel, errorText, useModel, useServicesOf } from './common';

const KINDS = ['embeddings', 'embedding'];

export function EmbeddingsPanel() {
  const { t } = useTranslation();
  const embed = useStudio((s) => s.embed);
  const noteBilledCallFinished = useStudio((s) => s.noteBilledCallFinished);
  const services = useServicesOf(KINDS);
  const [model, setModel] = useModel(services);
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [result, setResult] = useState<{
    model: string;
    count: number;
    dimensions: number;
    similarity: number[][];
  } | null>(null);
  const inputs = text.split('\n').filter((line) => line.trim().length > 0);

  const run = async () => {
    setBusy(true);
    setError(null);
    try {
      setResult(await embed({ model, inputs }));
    } catch (e) {
      setResult(null);
      setError(errorText(e, t));
    } finally {
      setBusy(false);
      noteBilledCallFinished();
    }
  };

  return (
    <Panel title={t('playground.embeddings.title')} hint={t('playground.embeddings.hint')}>
      <div className="pg-row">
        <ModelSelect id="embed-model" services={services} value={model} onChange={setModel} />
        <Counter testId="embed-count" value={inputs.length} max={64} />
      </div>
      <textarea
        data-testid="embed-input"
        aria-label={t('playground.embeddings.input')}
        placeholder={t('playground.embeddings.input')}
        rows={6}
        value={text}
        onChange={(e) => setText(e.target.value)}
      />
      <button
        type="button"
        className="button pg-primary"
        data-testid="embed-run"
        disabled={busy || !model}
        onClick={() => void run()}
      >
        {t('playground.embeddings.run')}
      </button>
      <ErrorAlert testId="embed-error" message={error} />
      {result ? (
        <div data-testid="embed-result">
          <p>
            {t('playground.embeddings.summary', {
              count: result.count,
              dimensions: result.dimensions,
              model: result.model,
            })}
          </p>
          <table className="pg-matrix" aria-label={t('playground.embeddings.matrix')}>
            <thead>
              <tr>
                <th />
                {result.similarity.map((_, j) => (
                  <th key={j}>{j + 1}</th>
                ))}
              </tr>
            </thead>
            <tbody>
              {result.similarity.map((row, i) => (
                <tr key={i}>
                  <th>{i + 1}</th>
                  {row.map((v, j) => (
                    <td key={j} style={{ background: `rgba(79, 70, 229, ${Math.max(0, v) * 0.6})` }}>
                      {v.toFixed(2)}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </Panel>
  );
}
