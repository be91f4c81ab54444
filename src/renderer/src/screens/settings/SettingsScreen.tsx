import { RadioGroup, Select } from 'radix-ui';
import { useTranslation } from 'react-i18next';
import type { LocalePreference, ThemePreference } from '../../../../shared/bridge/contract';
import { LOCALE_PREFERENCES, THEME_PREFERENCES } from '../../../../shared/bridge/names';
import { useStudio } from '../../store';
import { PairForDebugging } from './PairForDebugging';
import { SharedLinksPanel } from './SharedLinksPanel';
import { AddProfile, LibrarySettingsPanel, ProfileList } from './StudioSettingsPanels';

const THEME_LABELS = {
  system: 'settings.themeSystem',
  light: 'settings.themeLight',
  dark: 'settings.themeDark',
} as const;
const HOST_LABELS = {
  electron: 'settings.hostElectron',
  browser: 'settings.hostBrowser',
  platform: 'settings.hostPlatform',
} as const;
const LOCALE_LABELS: Record<LocalePreference, string | null> = {
  system: null,
  en: 'English',
  'zh-CN': '简体中文',
};

export function SettingsScreen() {
  const { t } = useTranslation();
  const settings = useStudio((s) => s.settings);
  const updateSettings = useStudio((s) => s.updateSettings);
  const info = useStudio((s) => s.info);
  const checkConnection = useStudio((s) => s.checkConnection);
  // keys, profiles and the simulator; folders of this computer: only where the backend offers them
  const profiles = info?.capabilities.profiles !== false;
  const localFolders = info?.capabilities.localFolders !== false;

  return (
    <section className="screen" aria-labelledby="settings-title">
      <h1 id="settings-title">{t('settings.title')}</h1>

      {profiles ? (
        <>
          <div className="panel">
            <h2>{t('settings.profiles')}</h2>
            <p className="hint">{t('settings.profilesHint')}</p>
            <ProfileList />
            <button type="button" className="button" onClick={() => void checkConnection()}>
              {t('settings.checkConnection')}
            </button>
          </div>
          <AddProfile />
          <PairForDebugging />
        </>
      ) : null}
      {localFolders ? <LibrarySettingsPanel /> : null}
      <SharedLinksPanel />

      <div className="panel">
        <h2>{t('settings.appearance')}</h2>
        <span className="field-label" id="theme-label">
          {t('settings.theme')}
        </span>
        <RadioGroup.Root
          className="segmented"
          aria-labelledby="theme-label"
          value={settings.theme}
          onValueChange={(value) => void updateSettings({ theme: value as ThemePreference })}
        >
          {THEME_PREFERENCES.map((theme) => (
            <RadioGroup.Item key={theme} value={theme} className="segment" data-testid={`theme-${theme}`}>
              {t(THEME_LABELS[theme])}
            </RadioGroup.Item>
          ))}
        </RadioGroup.Root>

        <label className="field-label" htmlFor="language-select">
          {t('settings.language')}
        </label>
        <Select.Root
          value={settings.locale}
          onValueChange={(value) => void updateSettings({ locale: value as LocalePreference })}
        >
          <Select.Trigger id="language-select" className="select-trigger" data-testid="language-select">
            <Select.Value />
            <Select.Icon>▾</Select.Icon>
          </Select.Trigger>
          <Select.Portal>
            <Select.Content className="select-content" position="popper">
              <Select.Viewport>
                {LOCALE_PREFERENCES.map((locale) => (
                  <Select.Item
                    key={locale}
                    value={locale}
                    className="select-item"
                    data-testid={`locale-${locale}`}
                  >
                    <Select.ItemText>{LOCALE_LABELS[locale] ?? t('settings.languageSystem')}</Select.ItemText>
                  </Select.Item>
                ))}
              </Select.Viewport>
            </Select.Content>
          </Select.Portal>
        </Select.Root>
      </div>

      <div className="panel">
        <h2>{t('settings.about')}</h2>
        <dl className="facts">
          <dt>{t('settings.version')}</dt>
          <dd data-testid="app-version">{info?.version ?? '…'}</dd>
          <dt>{t('settings.host')}</dt>
          <dd data-testid="app-host">{info ? t(HOST_LABELS[info.host]) : '…'}</dd>
          {!localFolders ? null : (
            <>
              <dt>{t('settings.dataDir')}</dt>
              <dd>
                <code>{info?.dataDir ?? '…'}</code>
              </dd>
            </>
          )}
        </dl>
      </div>
    </section>
  );
}
