import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { useStudio } from '../store';

/** Only a paired debug profile shows it: loaded on first use, outside the page's first chunk. */
const DebugSessionStatus = lazy(() =>
  import('./DebugSessionStatus').then((m) => ({ default: m.DebugSessionStatus })),
);

/**
 * The active profile and the state of its connection, always visible; on the platform, who is
 * signed in and their application roles (from the RuntimeSession) instead of a profile.
 */
export function StatusBar() {
  const { t } = useTranslation();
  const signedIn = useStudio((s) => s.info?.signedIn);
  const profiles = useStudio((s) => s.profiles);
  const activeProfileId = useStudio((s) => s.activeProfileId);
  const connection = useStudio((s) => s.connection);
  const active = profiles.find((p) => p.id === activeProfileId);
  const state = connection?.state ?? 'starting';
  return (
    // the footer stays the page's contentinfo landmark; its contents are the polite live region
    <footer className="status-bar-frame">
      <div className="status-bar" role="status" aria-live="polite">
        {signedIn ? (
          <span data-testid="signed-in-user">
            {signedIn.displayName ? (
              <>
                {t('status.signedInAs')}: <strong>{signedIn.displayName}</strong>
              </>
            ) : (
              // the directory does not name this person: say what is true, not "Signed in as: you"
              <span title={t('status.unnamedHint')}>
                {t(signedIn.organizationId ? 'status.signedInMember' : 'status.signedInPersonal')}
              </span>
            )}
            {signedIn.appRoles.map((role) => (
              <span key={role} className="badge">
                {role}
              </span>
            ))}
          </span>
        ) : (
          <span data-testid="status-profile">
            {t('status.profile')}: <strong>{active ? active.name : '—'}</strong>
            {active ? <span className="badge">{t(`profileKind.${active.kind}`)}</span> : null}
          </span>
        )}
        {!signedIn && active?.kind === 'debug' ? (
          <Suspense fallback={null}>
            <DebugSessionStatus profileId={active.id} />
          </Suspense>
        ) : null}
        <span data-testid="status-connection" data-state={state} title={connection?.detail}>
          <span className={`dot dot-${state}`} aria-hidden="true" />
          {t(`status.${state}`)}
        </span>
      </div>
    </footer>
  );
}
