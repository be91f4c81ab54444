import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { DebugTestAccount } from '../../../../shared/bridge/contract';
import { useStudio } from '../../store';

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

/**
 * "Pair for debugging": starts the platform's PKCE pairing in the core, shows the developer portal
 * page to open, waits for the approval and then lists the new debug profile. The developer token
 * is typed only to read the application's test-account list; it is cleared and never kept.
 */
export function PairForDebugging() {
  const { t } = useTranslation();
  const listTestAccounts = useStudio((s) => s.listTestAccounts);
  const startDebugPairing = useStudio((s) => s.startDebugPairing);
  const waitDebugPairing = useStudio((s) => s.waitDebugPairing);
  const cancelDebugPairing = useStudio((s) => s.cancelDebugPairing);
  const [name, setName] = useState('Debug');
  const [developerUrl, setDeveloperUrl] = useState('');
  const [portalUrl, setPortalUrl] = useState('');
  const [appId, setAppId] = useState('');
  const [versionId, setVersionId] = useState('');
  const [developerToken, setDeveloperToken] = useState('');
  const [accounts, setAccounts] = useState<DebugTestAccount[] | null>(null);
  const [accountId, setAccountId] = useState('');
  const [pairing, setPairing] = useState<{ pairingId: string; portalUrl: string } | null>(null);
  const [status, setStatus] = useState<{ ok: boolean; text: string } | null>(null);

  const loadAccounts = async () => {
    setStatus(null);
    try {
      const { items } = await listTestAccounts({ developerBaseUrl: developerUrl, appId, developerToken });
      setAccounts(items);
    } catch (e) {
      setStatus({ ok: false, text: message(e) });
    }
  };

  const start = async () => {
    setStatus(null);
    try {
      const started = await startDebugPairing({
        name,
        developerBaseUrl: developerUrl,
        ...(portalUrl ? { portalUrl } : {}),
        appId,
        versionId,
        ...(accountId ? { testAccount: accountId } : {}),
        ...(developerToken ? { developerToken } : {}),
      });
      setDeveloperToken('');
      setPairing(started);
      const { profile, session } = await waitDebugPairing(started.pairingId);
      setPairing(null);
      setStatus({
        ok: true,
        text: t('studio.settings.pair.paired', {
          name: profile.name,
          account: session?.testAccount?.displayName ?? t('studio.settings.pair.yourself'),
          time: session ? new Date(session.expiresAt).toLocaleTimeString() : '?',
        }),
      });
    } catch (e) {
      setDeveloperToken('');
      setPairing(null);
      setStatus({ ok: false, text: message(e) });
    }
  };

  const field = (id: string, label: string, value: string, set: (v: string) => void, extra = {}) => (
    <>
      <label className="field-label" htmlFor={id}>
        {label}
      </label>
      <input
        id={id}
        className="input"
        data-testid={id}
        value={value}
        onChange={(e) => set(e.target.value)}
        {...extra}
      />
    </>
  );

  return (
    <div className="panel" data-testid="pair-debugging">
      <h2>{t('studio.settings.pair.title')}</h2>
      <p className="hint">{t('studio.settings.pair.hint')}</p>
      <form
        className="form-grid"
        autoComplete="off"
        onSubmit={(e) => {
          e.preventDefault();
          void start();
        }}
      >
        {field('pair-name', t('studio.settings.pair.name'), name, setName, { required: true })}
        {field('pair-developer-url', t('studio.settings.pair.developerUrl'), developerUrl, setDeveloperUrl, {
          type: 'url',
          required: true,
          placeholder: 'https://…/appstore/developer',
        })}
        {field('pair-portal-url', t('studio.settings.pair.portalUrl'), portalUrl, setPortalUrl, {
          type: 'url',
        })}
        {field('pair-app', t('studio.settings.pair.appId'), appId, setAppId, { required: true })}
        {field('pair-version', t('studio.settings.pair.versionId'), versionId, setVersionId, {
          required: true,
        })}
        {field(
          'pair-developer-token',
          t('studio.settings.pair.developerToken'),
          developerToken,
          setDeveloperToken,
          {
            type: 'password',
            autoComplete: 'new-password',
          },
        )}
        <button
          type="button"
          className="button"
          data-testid="pair-load-accounts"
          disabled={!developerUrl || !appId || !developerToken}
          onClick={() => void loadAccounts()}
        >
          {t('studio.settings.pair.loadAccounts')}
        </button>
        <label className="field-label" htmlFor="pair-test-account">
          {t('studio.settings.pair.testAccount')}
        </label>
        <select
          id="pair-test-account"
          className="input"
          data-testid="pair-test-account"
          value={accountId}
          onChange={(e) => setAccountId(e.target.value)}
        >
          <option value="">{t('studio.settings.pair.yourself')}</option>
          {(accounts ?? []).map((a) => (
            <option key={a.id} value={a.id}>
              {a.displayName}
              {a.organizationName ? ` (${a.organizationName})` : ''}
            </option>
          ))}
        </select>
        <button type="submit" className="button" data-testid="pair-start" disabled={pairing !== null}>
          {t('studio.settings.pair.start')}
        </button>
      </form>
      {pairing ? (
        <div role="status" data-testid="pair-waiting">
          <p>
            <a
              href={pairing.portalUrl}
              target="_blank"
              rel="noreferrer noopener"
              data-testid="pair-portal-link"
            >
              {t('studio.settings.pair.open')}
            </a>
          </p>
          <p className="hint">{t('studio.settings.pair.waiting')}</p>
          <button
            type="button"
            className="button"
            data-testid="pair-cancel"
            onClick={() => void cancelDebugPairing(pairing.pairingId)}
          >
            {t('studio.settings.pair.cancel')}
          </button>
        </div>
      ) : null}
      {status ? (
        <p
          role={status.ok ? 'status' : 'alert'}
          className={status.ok ? 'ok-text' : 'error-text'}
          data-testid="pair-status"
        >
          {status.text}
        </p>
      ) : null}
    </div>
  );
}
