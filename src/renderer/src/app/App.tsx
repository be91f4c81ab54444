import { Tabs } from 'radix-ui';
import { lazy, Suspense, useEffect, type ComponentType } from 'react';
import { useTranslation } from 'react-i18next';
import { StatusBar } from '../components/StatusBar';
import { applyLocale } from '../i18n';
import { CreateScreen } from '../screens/create/CreateScreen';
import { useStudioEvents } from './use-studio-events';
import { type Section, useStudio, visibleSections } from '../store';
import { useTheme } from '../theme/use-theme';

// Create opens first and ships in the main bundle; the other screens load on first visit.
const SCREENS: Record<Section, ComponentType> = {
  create: CreateScreen,
  queue: lazy(() => import('../screens/queue/QueueScreen').then((m) => ({ default: m.QueueScreen }))),
  library: lazy(() => import('../screens/library/LibraryScreen').then((m) => ({ default: m.LibraryScreen }))),
  playground: lazy(() =>
    import('../screens/playground/PlaygroundScreen').then((m) => ({ default: m.PlaygroundScreen })),
  ),
  sequences: lazy(() =>
    import('../screens/sequences/SequencesScreen').then((m) => ({ default: m.SequencesScreen })),
  ),
  team: lazy(() => import('../screens/team/TeamScreen').then((m) => ({ default: m.TeamScreen }))),
  settings: lazy(() =>
    import('../screens/settings/SettingsScreen').then((m) => ({ default: m.SettingsScreen })),
  ),
};

const ICONS: Record<Section, string> = {
  create: '✦',
  queue: '☰',
  library: '▦',
  sequences: '▤',
  playground: '◇',
  team: '◎',
  settings: '⚙',
};

/** The app shell: section navigation (keyboard: arrow keys), the screen, the status bar. */
export function App() {
  const { t } = useTranslation();
  const section = useStudio((s) => s.section);
  const setSection = useStudio((s) => s.setSection);
  const settings = useStudio((s) => s.settings);
  const loadError = useStudio((s) => s.loadError);
  const teamManager = useStudio((s) => s.teamManager);
  const loadTeamAccess = useStudio((s) => s.loadTeamAccess);
  const capabilities = useStudio((s) => s.info?.capabilities);
  const sections = visibleSections(teamManager, capabilities);
  useTheme(settings.theme);
  // the first loads were started before the first render (startFirstLoads in main.tsx)
  useStudioEvents();

  useEffect(() => {
    void applyLocale(settings.locale);
  }, [settings.locale]);

  // after the first screen: whether Team is shown (organization managers only)
  useEffect(() => {
    void loadTeamAccess();
  }, [loadTeamAccess]);

  return (
    <div className="app">
      <a className="skip-link" href="#main-content">
        {t('app.skipToContent')}
      </a>
      <Tabs.Root
        className="shell"
        orientation="vertical"
        value={section}
        onValueChange={(value) => setSection(value as Section)}
        activationMode="manual"
      >
        <nav className="sidebar" aria-label={t('app.mainNavigation')}>
          <div className="brand">{t('app.name')}</div>
          <Tabs.List className="nav-list" aria-label={t('app.mainNavigation')}>
            {sections.map((key) => (
              <Tabs.Trigger key={key} value={key} className="nav-item" data-testid={`nav-${key}`}>
                <span className="nav-icon" aria-hidden="true">
                  {ICONS[key]}
                </span>
                {t(`nav.${key}`)}
              </Tabs.Trigger>
            ))}
          </Tabs.List>
        </nav>
        <main id="main-content" className="content">
          {loadError ? (
            <p role="alert" className="error-banner">
              {t('errors.generic', { message: loadError })}
            </p>
          ) : null}
          {sections.map((key) => {
            const Screen = SCREENS[key];
            return (
              <Tabs.Content key={key} value={key} className="tab-content">
                {key === section ? (
                  <Suspense fallback={<p className="muted">{t('app.loading')}</p>}>
                    <Screen />
                  </Suspense>
                ) : null}
              </Tabs.Content>
            );
          })}
        </main>
      </Tabs.Root>
      <StatusBar />
    </div>
  );
}
