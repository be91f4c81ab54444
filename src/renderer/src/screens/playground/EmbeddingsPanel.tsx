import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { MethodResult } from '../../../../shared/bridge/contract';
import { useStudio } from '../../store';
import { Counter } from './common';
import { PanelScaffold } from './PanelScaffold';
import { usePlaygroundPanel } from './use-playground-panel';

const KINDS = ['embeddings', 'embedding'];

export function EmbeddingsPanel() {
  const { t } = useTranslation();
  const embed = useStudio((s) => s.embed);
  const panel = usePlaygroundPanel<MethodResult<'playground.embed'>>(KINDS, { billed: true });
  const [text, setText] = useState('');
  const inputs = text.split('\n').filter((line) => line.trim().length > 0);

  return (
    <PanelScaffold
      id="embed"
      title={t('playground.embeddings.title')}
      hint={t('playground.embeddings.hint')}
      panel={panel}
      options={<Counter testId="embed-count" value={inputs.length} max={64} />}
      runLabel={t('playground.embeddings.run')}
      onRun={() => void panel.run(() => embed({ model: panel.model, inputs }))}
      renderResult={(result) => (
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
      )}
    >
      <textarea
        data-testid="embed-input"
        aria-label={t('playground.embeddings.input')}
        placeholder={t('playground.embeddings.input')}
        rows={6}
        value={text}
        onChange={(e) => setText(e.target.value)}
      />
    </PanelScaffold>
  );
}
