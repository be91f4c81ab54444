import { readApiUsage } from '../../../../shared/api/contract-vocabulary';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { MethodResult } from '../../../../shared/bridge/contract';
import { useStudio } from '../../store';
import { Counter, FileDrop, NumberField, codePoints } from './common';
import { PanelScaffold } from './PanelScaffold';
import { usePlaygroundPanel } from './use-playground-panel';

const KINDS = ['rerank'];
const TOTAL_MAX = 65536;

export function RerankPanel() {
  const { t } = useTranslation();
  const rerank = useStudio((s) => s.rerank);
  const loadRerankDocuments = useStudio((s) => s.loadRerankDocuments);
  const sendPlaygroundFile = useStudio((s) => s.sendPlaygroundFile);
  const panel = usePlaygroundPanel<MethodResult<'playground.rerank'>>(KINDS, { billed: true });
  const supportsTopN = readApiUsage(panel.service?.apiUsageContract).supportsTopN;
  const [query, setQuery] = useState('');
  const [pasted, setPasted] = useState('');
  const [loaded, setLoaded] = useState<{ name: string; documents: string[] } | null>(null);
  const [topN, setTopN] = useState('');
  const documents = loaded ? loaded.documents : pasted.split('\n').filter((l) => l.trim().length > 0);
  const total = codePoints(query) + documents.reduce((n, d) => n + codePoints(d), 0);

  const run = () =>
    panel.run(() =>
      rerank({
        model: panel.model,
        query,
        documents,
        ...(supportsTopN && topN.trim() ? { topN: Number(topN) } : {}),
      }),
    );

  return (
    <PanelScaffold
      id="rerank"
      title={t('playground.rerank.title')}
      hint={t('playground.rerank.hint')}
      panel={panel}
      options={
        supportsTopN ? (
          <NumberField
            testId="rerank-topn"
            label={t('playground.rerank.topN')}
            value={topN}
            onChange={setTopN}
          />
        ) : null
      }
      runLabel={t('playground.rerank.run')}
      onRun={() => void run()}
      renderResult={(result) => (
        <ol className="pg-ranked" data-testid="rerank-results">
          {result.results.map((r) => (
            <li key={r.index}>
              <span className="badge">{r.score.toFixed(4)}</span>{' '}
              <span className="muted">#{r.index + 1}</span> {r.text}
            </li>
          ))}
        </ol>
      )}
    >
      <label className="pg-field">
        <span className="field-label">
          {t('playground.rerank.query')}{' '}
          <Counter testId="rerank-query-count" value={codePoints(query)} max={1024} />
        </span>
        <input data-testid="rerank-query" value={query} onChange={(e) => setQuery(e.target.value)} />
      </label>
      <div className="pg-row">
        <FileDrop
          testId="rerank-file"
          accept=".txt,.csv,text/plain,text/csv"
          label={t('playground.rerank.load')}
          onFiles={([file]) =>
            void panel.attempt(async () => {
              const sent = await sendPlaygroundFile(file!);
              const { documents: docs } = await loadRerankDocuments({ fileId: sent.fileId });
              setLoaded({ name: file!.name, documents: docs });
            })
          }
        />
        {loaded ? (
          <button type="button" className="button" onClick={() => setLoaded(null)}>
            {t('playground.rerank.clearFile', { name: loaded.name })}
          </button>
        ) : null}
        <Counter testId="rerank-doc-count" value={documents.length} max={256} />
        <Counter testId="rerank-total" value={total} max={TOTAL_MAX} />
      </div>
      {loaded ? (
        <ol className="pg-docs" data-testid="rerank-loaded">
          {loaded.documents.map((d, i) => (
            <li key={i}>{d}</li>
          ))}
        </ol>
      ) : (
        <textarea
          data-testid="rerank-documents"
          aria-label={t('playground.rerank.documents')}
          placeholder={t('playground.rerank.documents')}
          rows={6}
          value={pasted}
          onChange={(e) => setPasted(e.target.value)}
        />
      )}
    </PanelScaffold>
  );
}
