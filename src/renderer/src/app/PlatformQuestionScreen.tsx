import { useTranslation } from 'react-i18next';
import { answerPlatformQuestion, type PlatformQuestion } from '../store/platform-session';
import type { PlatformSignedInView } from '../../../shared/bridge/platform-host-protocol';

/**
 * A launch link waiting for the person's word (loaded only then). In a browser signed in already:
 * who is signed in now, and whether to switch before the link's code is exchanged. In a browser
 * with no session: whom the link signs in, before that session gets this browser's cookie (login
 * CSRF: a link someone else made would otherwise sign this browser in as them).
 */
export function PlatformQuestionScreen({ question }: { question: PlatformQuestion }) {
  const { t } = useTranslation();
  const who = (view: PlatformSignedInView) => ({
    userId: view.userId,
    context: view.organizationId
      ? t('platform.switchOrganization', { organizationId: view.organizationId })
      : t('platform.switchPersonal'),
  });
  const switching = question.kind === 'switch';
  return (
    <main className="reopen-application" role="alertdialog" aria-labelledby="platform-question-title">
      <h1 id="platform-question-title">{t(switching ? 'platform.switchTitle' : 'platform.signInTitle')}</h1>
      <p data-testid="platform-question-who">
        {switching
          ? t('platform.switchBody', who(question.signedIn))
          : t('platform.signInBody', who(question.signingIn))}
      </p>
      <p>{t('platform.switchLink')}</p>
      <div className="switch-actions">
        <button type="button" onClick={() => answerPlatformQuestion(false)}>
          {t(switching ? 'platform.switchStay' : 'platform.signInCancel')}
        </button>
        <button type="button" onClick={() => answerPlatformQuestion(true)}>
          {t(switching ? 'platform.switchGo' : 'platform.signInGo')}
        </button>
      </div>
    </main>
  );
}
