import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useStudio } from '../store';

/** Offer to pair again this long before the session ends. */
const PAIR_AGAIN_BEFORE_MS = 10 * 60_000;

/**
 * For a paired debug profile: which test account the calls act as and that it is billed, how long
 * the session has left, and — before it ends — an offer to pair again (Settings). After the end the
 * core sends nothing (it refuses locally); this says so.
 */
export function DebugSessionStatus({ profileId }: { profileId: string }) {
  const { t } = useTranslation();
  const session = useStudio((s) => s.debugSessions[profileId]);
  const loadDebugSession = useStudio((s) => s.loadDebugSession);
  const setSection = useStudio((s) => s.setSection);
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    void loadDebugSession(profileId).catch(() => undefined);
  }, [profileId, loadDebugSession]);
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 15_000);
    return () => clearInterval(timer);
  }, []);
  if (!session) return null;
  const left = Date.parse(session.expiresAt) - now;
  const expired = left <= 0;
  const account = session.testAccount
    ? `${session.testAccount.displayName}${session.testAccount.organizationName ? ` (${session.testAccount.organizationName})` : ''}`
    : t('status.debugYourself');
  return (
    <span data-testid="debug-session" data-expired={expired ? 'true' : 'false'}>
      {t('status.debugAs', { app: session.appKey, account })}{' '}
      <span className="badge" data-testid="debug-billed">
        {t('status.debugBilled')}
      </span>{' '}
      <span data-testid="debug-time-left">
        {expired ? t('status.debugExpired') : t('status.debugLeft', { minutes: Math.ceil(left / 60_000) })}
      </span>
      {left <= PAIR_AGAIN_BEFORE_MS ? (
        <>
          {' '}
          <button
            type="button"
            className="button"
            data-testid="debug-pair-again"
            onClick={() => setSection('settings')}
          >
            {t('status.debugPairAgain')}
          </button>
        </>
      ) : null}
    </span>
  );
}
