import { lazy, Suspense, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { usePlatformSessionOver, usePlatformQuestion } from '../store/platform-session';

const PlatformQuestionScreen = lazy(() =>
  import('./PlatformQuestionScreen').then((m) => ({ default: m.PlatformQuestionScreen })),
);

/**
 * On the platform, once the host says the session is over (the launch code could not be exchanged,
 * the 7-day window passed, the platform ended the session), the studio gives way to one screen:
 * reopen Framewright from the application center. While a launch link waits for the person's word
 * (this browser is signed in already, or not yet), it shows whom the link signs in and asks. Elsewhere it shows its children.
 */
export function PlatformGate({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const over = usePlatformSessionOver();
  const question = usePlatformQuestion();
  if (question)
    return (
      <Suspense fallback={null}>
        <PlatformQuestionScreen question={question} />
      </Suspense>
    );
  if (!over) return children;
  return (
    <main className="reopen-application" role="alert">
      <h1>{t('platform.reopenTitle')}</h1>
      <p>{t('platform.reopenBody')}</p>
    </main>
  );
}
