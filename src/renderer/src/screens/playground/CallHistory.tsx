import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ServiceCallOperationName, ServiceCallView } from '../../../../shared/bridge/contract';
import { useStudio } from '../../store';

/** The journaled billed calls of one synchronous operation, newest first; reloads after each call. */
export function CallHistory({ operation }: { operation: ServiceCallOperationName }) {
  const { t } = useTranslation();
  const [calls, setCalls] = useState<ServiceCallView[]>([]);
  const [error, setError] = useState<string>();

  const [version, setVersion] = useState(0);
  const billedCallsFinished = useStudio((s) => s.billedCallsFinished);
  const listServiceCalls = useStudio((s) => s.listServiceCalls);

  useEffect(() => {
    let live = true;
    listServiceCalls(operation, 20).then(
      (list) => {
        if (!live) return;
        setCalls(list);
        setError(undefined);
      },
      (e: unknown) => {
        if (live) setError(e instanceof Error ? e.message : String(e));
      },
    );
    return () => {
      live = false;
    };
  }, [operation, version, billedCallsFinished, listServiceCalls]);

  return (
    <section className="pg-history" aria-labelledby={`pg-history-${operation}`} data-testid="pg-history">
      <h2 id={`pg-history-${operation}`}>{t('playground.history.title')}</h2>
      <p className="hint">{t('playground.history.hint')}</p>
      <button type="button" onClick={() => setVersion((v) => v + 1)}>
        {t('playground.history.refresh')}
      </button>
      {error ? (
        <p role="alert" className="error-banner">
          {t('errors.generic', { message: error })}
        </p>
      ) : null}
      {calls.length === 0 ? (
        <p>{t('playground.history.empty')}</p>
      ) : (
        <ul>
          {calls.map((c) => (
            <li key={c.id} data-state={c.state}>
              <time dateTime={new Date(c.startedAt).toISOString()}>
                {new Date(c.startedAt).toLocaleString()}
              </time>{' '}
              · {c.model} · {t(`playground.history.state.${c.state}`)}
              {c.statusCode !== null ? ` · HTTP ${c.statusCode}` : ''}
              {c.errorCode ? ` · ${c.errorCode}` : ''}
              {c.requestId ? ` · ${c.requestId}` : ''}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
