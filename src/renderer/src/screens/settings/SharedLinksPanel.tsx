import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useStudio } from '../../store';

/**
 * "Shared links": every signed link (readUrl) to the person's files — films sent to a board, a
 * generation's inputs, an export's source — ended at once, after a second, explicit click.
 */
export function SharedLinksPanel() {
  const { t } = useTranslation();
  const revokeSharedLinks = useStudio((s) => s.revokeSharedLinks);
  const [asking, setAsking] = useState(false);
  const [status, setStatus] = useState<{ ok: boolean; text: string } | null>(null);
  const revoke = async () => {
    setAsking(false);
    try {
      const at = await revokeSharedLinks();
      setStatus({
        ok: true,
        text: t('settings.sharedLinksRevoked', { time: new Date(at).toLocaleString() }),
      });
    } catch (error) {
      setStatus({ ok: false, text: error instanceof Error ? error.message : String(error) });
    }
  };
  return (
    <div className="panel" data-testid="shared-links">
      <h2>{t('settings.sharedLinks')}</h2>
      <p className="hint">{t('settings.sharedLinksHint')}</p>
      {asking ? (
        <div className="row" role="group" aria-label={t('settings.sharedLinks')}>
          <span>{t('settings.sharedLinksConfirm')}</span>
          <button type="button" className="button" onClick={() => setAsking(false)}>
            {t('settings.sharedLinksKeep')}
          </button>
          <button type="button" className="button" onClick={() => void revoke()}>
            {t('settings.sharedLinksEnd')}
          </button>
        </div>
      ) : (
        <button type="button" className="button" onClick={() => setAsking(true)}>
          {t('settings.sharedLinksRevoke')}
        </button>
      )}
      {status ? (
        <p role={status.ok ? 'status' : 'alert'} className={status.ok ? 'ok-text' : 'error-text'}>
          {status.text}
        </p>
      ) : null}
    </div>
  );
}
