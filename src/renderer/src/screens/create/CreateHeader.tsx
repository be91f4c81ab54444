import { useTranslation } from 'react-i18next';
import { useStudio } from '../../store';

/** Create's title and New draft, with why the services may be stale and whether the draft was sent. */
export function CreateHeader({ submitted }: { submitted: boolean }) {
  const { t } = useTranslation();
  const servicesError = useStudio((s) => s.servicesError);
  const fromCache = useStudio((s) => s.servicesFromCache);
  const fetchedAt = useStudio((s) => s.servicesFetchedAt);
  return (
    <>
      <div className="row screen-head">
        <h1 id="create-title">{t('create.title')}</h1>
        <NewDraftButton testId="new-draft-top" />
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
          {t('studio.create.draftSubmittedNote')} <NewDraftButton testId="new-draft" />
        </div>
      ) : null}
    </>
  );
}

/** New draft: busy (and disabled) while the new draft is on its way. */
function NewDraftButton({ testId }: { testId: string }) {
  const { t } = useTranslation();
  const newDraft = useStudio((s) => s.newDraft);
  const opening = useStudio((s) => s.draftOpening);
  return (
    <button
      type="button"
      className="button"
      data-testid={testId}
      disabled={opening}
      aria-busy={opening}
      onClick={() => void newDraft()}
    >
      {t('studio.create.newDraft')}
    </button>
  );
}
