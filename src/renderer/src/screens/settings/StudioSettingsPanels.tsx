import { Tabs } from 'radix-ui';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SIMULATOR_SCENARIOS } from '../../../../shared/bridge/names';
import { useStudio } from '../../store';
import '../../theme/studio.css';

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

/** Add a personal (base URL + key) or debug (token + expiry) profile. The key is never shown again. */
export function AddProfile() {
  const { t } = useTranslation();
  const addProfile = useStudio((s) => s.addProfile);
  const [kind, setKind] = useState<'personal' | 'debug'>('personal');
  const [name, setName] = useState('');
  const [baseUrl, setBaseUrl] = useState('');
  const [secret, setSecret] = useState('');
  const [expires, setExpires] = useState('');
  const [status, setStatus] = useState<{ ok: boolean; text: string } | null>(null);
  const submit = async () => {
    setStatus(null);
    try {
      await addProfile({
        kind,
        name,
        baseUrl,
        secret,
        ...(kind === 'debug' && expires ? { debugTokenExpiresAt: Date.parse(expires) } : {}),
      });
      setSecret('');
      setName('');
      setStatus({ ok: true, text: t('studio.settings.added') });
    } catch (e) {
      // the secret field is cleared either way: it is never kept in the page
      setSecret('');
      setStatus({ ok: false, text: message(e) });
    }
  };
  return (
    <div className="panel" data-testid="add-profile">
      <h2>{t('studio.settings.addProfile')}</h2>
      <Tabs.Root value={kind} onValueChange={(v) => setKind(v as 'personal' | 'debug')}>
        <Tabs.List className="segmented" aria-label={t('studio.settings.addProfile')}>
          <Tabs.Trigger value="personal" className="segment" data-testid="profile-kind-personal">
            {t('studio.settings.personal')}
          </Tabs.Trigger>
          <Tabs.Trigger value="debug" className="segment" data-testid="profile-kind-debug">
            {t('studio.settings.debug')}
          </Tabs.Trigger>
        </Tabs.List>
        {/* one panel for both kinds (the form differs by a field): the selected tab controls it */}
        <Tabs.Content value={kind}>
          <form
            className="form-grid"
            autoComplete="off"
            onSubmit={(e) => {
              e.preventDefault();
              void submit();
            }}
          >
            <label className="field-label" htmlFor="profile-name">
              {t('studio.settings.name')}
            </label>
            <input
              id="profile-name"
              className="input"
              data-testid="profile-name"
              value={name}
              onChange={(e) => setName(e.target.value)}
              required
            />
            <label className="field-label" htmlFor="profile-url">
              {t('studio.settings.baseUrl')}
            </label>
            <input
              id="profile-url"
              className="input"
              type="url"
              data-testid="profile-url"
              placeholder="https://…/v1"
              value={baseUrl}
              onChange={(e) => setBaseUrl(e.target.value)}
              required
            />
            <label className="field-label" htmlFor="profile-secret">
              {kind === 'debug' ? t('studio.settings.debugToken') : t('studio.settings.apiKey')}
            </label>
            <input
              id="profile-secret"
              className="input"
              type="password"
              autoComplete="new-password"
              data-testid="profile-secret"
              value={secret}
              onChange={(e) => setSecret(e.target.value)}
              required
            />
            {kind === 'debug' ? (
              <>
                <label className="field-label" htmlFor="profile-expires">
                  {t('studio.settings.expiresAt')}
                </label>
                <input
                  id="profile-expires"
                  className="input"
                  type="datetime-local"
                  data-testid="profile-expires"
                  value={expires}
                  onChange={(e) => setExpires(e.target.value)}
                />
              </>
            ) : null}
            <p className="hint">{t('studio.settings.keyNote')}</p>
            <button type="submit" className="button" data-testid="profile-add">
              {t('studio.settings.add')}
            </button>
          </form>
        </Tabs.Content>
      </Tabs.Root>
      {status ? (
        <p
          role={status.ok ? 'status' : 'alert'}
          className={status.ok ? 'ok-text' : 'error-text'}
          data-testid="profile-add-status"
        >
          {status.text}
        </p>
      ) : null}
    </div>
  );
}

/** The profiles with Test / Use / Remove, and the simulator's scenario switch. */
export function ProfileList() {
  const { t } = useTranslation();
  const profiles = useStudio((s) => s.profiles);
  const activeProfileId = useStudio((s) => s.activeProfileId);
  const testProfile = useStudio((s) => s.testProfile);
  const activateProfile = useStudio((s) => s.activateProfile);
  const removeProfile = useStudio((s) => s.removeProfile);
  const scenario = useStudio((s) => s.scenario);
  const loadScenario = useStudio((s) => s.loadScenario);
  const setScenario = useStudio((s) => s.setScenario);
  const [tests, setTests] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    void loadScenario();
  }, [loadScenario]);
  const run = async (fn: () => Promise<unknown>) => {
    setError(null);
    try {
      await fn();
    } catch (e) {
      setError(message(e));
    }
  };
  return (
    <>
      <div data-testid="studio-profiles">
        <ul className="profile-list">
          {profiles.map((p) => (
            <li key={p.id} data-testid={`studio-profile-${p.id}`}>
              <strong>{p.name}</strong> <span className="badge">{t(`profileKind.${p.kind}`)}</span>
              {p.id === activeProfileId ? <span className="badge badge-active">✓</span> : null}
              {p.kind !== 'simulator' ? (
                <span className="muted small">
                  {p.hasSecret ? t('studio.settings.keyStored') : t('studio.settings.noKey')}
                </span>
              ) : null}
              <button
                type="button"
                className="button button-small"
                data-testid={`profile-test-${p.id}`}
                onClick={() =>
                  void testProfile(p.id).then((r) =>
                    setTests((s) => ({
                      ...s,
                      [p.id]: r.ok
                        ? t('studio.settings.testOk', { count: r.serviceCount })
                        : t('studio.settings.testFailed', { message: r.message ?? '' }),
                    })),
                  )
                }
              >
                {t('studio.settings.test')}
              </button>
              {p.id !== activeProfileId ? (
                <button
                  type="button"
                  className="button button-small"
                  onClick={() => void run(() => activateProfile(p.id))}
                >
                  {t('studio.settings.use')}
                </button>
              ) : null}
              {p.kind !== 'simulator' ? (
                <button
                  type="button"
                  className="button button-small"
                  onClick={() => void run(() => removeProfile(p.id))}
                >
                  {t('studio.settings.remove')}
                </button>
              ) : null}
              {tests[p.id] ? (
                <span className="small" data-testid={`profile-test-result-${p.id}`}>
                  {tests[p.id]}
                </span>
              ) : null}
            </li>
          ))}
        </ul>
        {error ? (
          <p role="alert" className="error-text">
            {error}
          </p>
        ) : null}
        <label className="field-label" htmlFor="scenario-select">
          {t('studio.settings.scenario')}
        </label>
        <select
          id="scenario-select"
          className="input"
          data-testid="scenario-select"
          value={scenario}
          onChange={(e) => {
            const name = e.target.value;
            setScenario(name === '' ? null : (name as (typeof SIMULATOR_SCENARIOS)[number])).catch(
              (err: unknown) => setError(message(err)),
            );
          }}
        >
          <option value="">{t('studio.settings.scenarioNone')}</option>
          {SIMULATOR_SCENARIOS.map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </select>
      </div>
    </>
  );
}

/** Library folder (where results are) and the total wait limit. */
export function LibrarySettingsPanel() {
  const { t } = useTranslation();
  const libraryDir = useStudio((s) => s.libraryDir);
  const dataDir = useStudio((s) => s.info?.dataDir ?? '');
  const waitSeconds = useStudio((s) => s.waitSeconds);
  const loadStudioSettings = useStudio((s) => s.loadStudioSettings);
  const saveLibraryDir = useStudio((s) => s.saveLibraryDir);
  const saveWaitSeconds = useStudio((s) => s.saveWaitSeconds);
  const [edited, setMinutes] = useState<string | null>(null);
  const minutes = edited ?? String(Math.round(waitSeconds / 60));
  const [folder, setFolder] = useState<string | null>(null);
  const [folderStatus, setFolderStatus] = useState<{ ok: boolean; text: string } | null>(null);
  const saveFolder = async () => {
    setFolderStatus(null);
    try {
      await saveLibraryDir(folder ?? libraryDir);
      setFolder(null);
      setFolderStatus({ ok: true, text: t('studio.settings.libraryDirSaved') });
    } catch (error) {
      setFolderStatus({ ok: false, text: message(error) });
    }
  };
  useEffect(() => {
    void loadStudioSettings();
  }, [loadStudioSettings]);
  return (
    <div className="panel">
      <h2>{t('studio.settings.library')}</h2>
      <dl className="facts">
        <dt>{t('studio.settings.libraryDir')}</dt>
        <dd>
          <code data-testid="library-dir">
            {dataDir && libraryDir.startsWith(dataDir)
              ? t('studio.settings.inDataFolder', {
                  path: libraryDir.slice(dataDir.length).replace(/^[\\/]+/, ''),
                })
              : libraryDir}
          </code>
        </dd>
      </dl>
      <label className="field-label" htmlFor="library-dir-input">
        {t('studio.settings.libraryDirChange')}
      </label>
      <div className="row">
        <input
          id="library-dir-input"
          className="input"
          type="text"
          spellCheck={false}
          data-testid="library-dir-input"
          value={folder ?? libraryDir}
          onChange={(e) => setFolder(e.target.value)}
        />
        <button
          type="button"
          className="button"
          data-testid="library-dir-save"
          disabled={folder === null || folder.trim() === ''}
          onClick={() => void saveFolder()}
        >
          {t('studio.settings.save')}
        </button>
      </div>
      <p className="muted">{t('studio.settings.libraryDirHint')}</p>
      {folderStatus ? (
        <p
          role={folderStatus.ok ? 'status' : 'alert'}
          className={folderStatus.ok ? 'ok-text' : 'error-text'}
          data-testid="library-dir-status"
        >
          {folderStatus.text}
        </p>
      ) : null}
      <label className="field-label" htmlFor="wait-limit">
        {t('studio.settings.waitLimit')}
      </label>
      <div className="row">
        <input
          id="wait-limit"
          className="input input-number"
          type="number"
          min={1}
          max={1440}
          data-testid="wait-limit"
          value={minutes}
          onChange={(e) => setMinutes(e.target.value)}
        />
        <button
          type="button"
          className="button"
          data-testid="wait-save"
          onClick={() => void saveWaitSeconds(Math.max(1, Number(minutes)) * 60).then(() => setMinutes(null))}
        >
          {t('studio.settings.save')}
        </button>
      </div>
    </div>
  );
}
