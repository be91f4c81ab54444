import { useTranslation } from 'react-i18next';
import type { GenerationResult } from '../../../../shared/bridge/contract';

/** The outcome of an image or audio job: the verified files from the library, as a set. */
export function GenerationResultView({
  result,
  kind,
  testId,
}: {
  result: GenerationResult;
  kind: 'image' | 'audio';
  testId: string;
}) {
  const { t } = useTranslation();
  return (
    <div data-testid={testId} data-state={result.state}>
      <p>
        <span className="badge">{t(`playground.generation.state.${result.state}`)}</span>{' '}
        {result.jobId ? (
          <span className="muted" data-testid={`${testId}-job`}>
            {t('playground.generation.jobId')}: <code>{result.jobId}</code>
          </span>
        ) : null}
      </p>
      {result.message ? <p className="muted">{result.message}</p> : null}
      <div className={kind === 'image' ? 'pg-image-set' : 'pg-audio-set'}>
        {result.outputs.map((o, i) =>
          o.url ? (
            kind === 'image' ? (
              <figure key={i}>
                <img
                  src={o.url}
                  alt={t('playground.generation.output', { n: i + 1 })}
                  data-testid={`${testId}-image`}
                />
                <figcaption className="muted">{o.fileName}</figcaption>
              </figure>
            ) : (
              <figure key={i}>
                <audio src={o.url} controls data-testid={`${testId}-audio`} />
                <figcaption className="muted">{o.fileName}</figcaption>
              </figure>
            )
          ) : null,
        )}
      </div>
    </div>
  );
}
