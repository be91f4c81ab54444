import { useTranslation } from 'react-i18next';
import { useStudio } from '../../store';

/** Create's title and New draft, with why the services may be stale and whether the draft was sent. */
export function CreateHeader({ submitted }: { submitted: boolean }) {
  const { t } = useTranslation();
  const servicesError = useStudio((s) => s.servicesError);
  const fromCache = useStudio((s) => s.servicesFromCache);
  const fetchedAt = useStudio((s) => s.servicesFetchedAt);
  const newDraft = useStudio((s) => s.newDraft);
  const opening = useStudio((s) => s.draftOpening);
  return (
    <>
      <div className="row screen-head">
        <h1 id="create-title">{t('create.title')}</h1>
        <button
          type="button"
          className="button"
          data-testid="new-draft-top"
          disabled={opening}
          aria-busy={opening}
          onClick={() => void newDraft()}
        >
          {t('studio.create.newDraft')}
        </button>
      </div>
      {servicesError ? (
        <p role="alert" className="error-banner">
          {t('errors.generic', { message: servicesError })}
        </p>
      ) : null}
      {fromCache ? (
        <p className="hint" data-testid="services-offline">
          {t('studio.create.servicesOffline', {
            time: fetchedAt ? new Date(fetchedAt).toLocaleString() : '',
          })}
        </p>
      ) : null}
      {submitted ? (
        <div className="notice" data-testid="draft-submitted">
          {t('studio.create.draftSubmittedNote')}{' '}
          <button
            type="button"
            className="button"
            data-testid="new-draft"
            disabled={opening}
            aria-busy={opening}
            onClick={() => void newDraft()}
          >
            {t('studio.create.newDraft')}
          </button>
        </div>
      ) : null}
    </>
  );
}
