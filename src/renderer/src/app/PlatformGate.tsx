import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import {
  answerPlatformSwitch,
  usePlatformSessionOver,
  usePlatformSwitchQuestion,
} from '../store/platform-session';

/**
 * On the platform, once the host says the session is over (the launch code could not be exchanged,
 * the 7-day window passed, the platform ended the session), the studio gives way to one screen:
 * reopen Framewright from the application center. While a launch link waits for the person's word
 * (this browser is signed in already), it asks whether to switch. Elsewhere it shows its children.
 */
export function PlatformGate({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const over = usePlatformSessionOver();
  const question = usePlatformSwitchQuestion();
  if (question)
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
  if (!over) return children;
  return (
    <main className="reopen-application" role="alert">
      <h1>{t('platform.reopenTitle')}</h1>
      <p>{t('platform.reopenBody')}</p>
    </main>
  );
}
