import { useTranslation } from 'react-i18next';
import { answerPlatformSwitch } from '../store/platform-session';

/**
 * A launch link opened in a browser already signed in: who is signed in now, and the person's word
 * before the link's code is exchanged (loaded only when a link waits for that word).
 */
export function PlatformSwitchQuestion({
  question,
}: {
  question: { userId: string; organizationId?: string | null };
}) {
  const { t } = useTranslation();
  return (
    <main className="reopen-application" role="alertdialog" aria-labelledby="platform-switch-title">
      <h1 id="platform-switch-title">{t('platform.switchTitle')}</h1>
      <p>
        {t('platform.switchBody', {
          userId: question.userId,
          context: question.organizationId
            ? t('platform.switchOrganization', { organizationId: question.organizationId })
            : t('platform.switchPersonal'),
        })}
      </p>
      <p>{t('platform.switchLink')}</p>
      <div className="switch-actions">
        <button type="button" onClick={() => answerPlatformSwitch(false)}>
          {t('platform.switchStay')}
        </button>
        <button type="button" onClick={() => answerPlatformSwitch(true)}>
          {t('platform.switchGo')}
        </button>
      </div>
    </main>
  );
}
